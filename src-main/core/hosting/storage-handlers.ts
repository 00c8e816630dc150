import { join } from 'node:path';
import type { storageChannels } from '../../shared/contract/hosting.ts';
import type { AppContext } from '../app/context.ts';
import type { HandlersOf } from '../app/handler-map.ts';
import type { PhotoReachService } from './photo-reach.ts';
import type { PhotoStorage } from './photo-storage.ts';
import { checkPhotoStorage } from './photo-storage.ts';

// The photo storage set up for remote services: checked end to end before it is kept, secret sealed.

export function storageHandlers(
  ctx: AppContext & { storage: PhotoStorage; photos: PhotoReachService },
): HandlersOf<typeof storageChannels> {
  const { storage, photos, log } = ctx;
  return {
    'storage:get': async () => storage.get(),
    'storage:set': async (input) => {
      const config = storage.resolve(input);
      await checkPhotoStorage(config, join(ctx.dataDir, 'storage-check'));
      const saved = storage.save(config);
      await photos.storageChanged();
      log.info(
        `photo storage set: bucket ${saved.bucket}${saved.endpoint ? ` at ${saved.endpoint}` : ''}${saved.secretHint ? ` (secret ${saved.secretHint})` : ''}`,
      );
      return saved;
    },
    'storage:clear': async () => {
      storage.clear();
      await photos.storageChanged();
      log.info('photo storage removed');
      return null;
    },
  };
}
