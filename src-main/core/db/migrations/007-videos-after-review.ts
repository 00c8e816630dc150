import type { Migration } from '../migrate.ts';

// A batch whose videos are made after review, from the designer's picks, keeps the video settings chosen in
// New batch (JSON, as `video_settings`): the Make videos dialog starts from them. Such a batch has no video
// job until the designer makes them; `video_settings` stays for the automatic video made at once.
export const videosAfterReview: Migration = {
  version: 7,
  name: '007-videos-after-review',
  up(db) {
    db.exec('ALTER TABLE batches ADD COLUMN videos_after_review TEXT');
  },
};
