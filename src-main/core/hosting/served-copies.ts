import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { Asset, Batch, Failure } from '../queue/types.ts';
import type { LinkCheck } from './link-check.ts';
import type { PhotoHost } from './photo-host.ts';

// The service gets working links only. A video's shots are named by their result URLs; right before the
// POST each is asked whether it still answers (`link-check.ts`), and one that does not is replaced by the
// shot's downloaded, verified file, served by the batch's photo host (the loopback host for a service on
// this machine, the bucket otherwise). Where the server says the file is gone and there is no copy, the
// video is not sent at all: no credit is spent on a video the service could only fail. Where the question
// only went unanswered (a 5xx, a reset, a timeout) and there is no copy, the URL goes as it is.

/** A video's input that no URL can give the service: the job fails here, before anything is sent. */
export class NoWorkingLink extends Error {
  readonly failure: Failure;
  constructor(message: string) {
    super(message);
    this.failure = { code: 'no_working_link', message };
  }
}

/** A shot sent as a served copy, and why its own URL was not. */
export interface ServedCopy {
  assetId: number;
  why: string;
}

export interface WorkingLinks {
  urls: string[];
  served: ServedCopy[];
}

const NOTHING_SPENT = 'Nothing was sent and no credit spent.';

/** Why the shot's file cannot stand in for it, or null when it is the verified download. */
async function fileProblem(file: string, shot: Asset): Promise<string | null> {
  if (shot.state !== 'done' || !shot.sha256) return 'it was never downloaded';
  const hash = createHash('sha256');
  try {
    await pipeline(createReadStream(file), hash);
  } catch {
    return 'its downloaded file is not in the library';
  }
  return hash.digest('hex') === shot.sha256
    ? null
    : 'its file in the library was changed since it was downloaded';
}

/**
 * The URLs to send for these shots, in their order: each shot's own URL where it answers, else its served
 * copy. Throws `NoWorkingLink` (the job fails, nothing sent) when a shot has neither; rejects with the
 * host's error when it cannot take the file now (storage failing).
 */
export async function workingLinks(
  batch: Batch,
  shots: readonly Asset[],
  options: { check: LinkCheck; hostFor: (batch: Batch) => PhotoHost },
): Promise<WorkingLinks> {
  const answers = await Promise.all(shots.map((shot) => options.check(shot.url)));
  const urls: string[] = [];
  const served: ServedCopy[] = [];
  for (const [index, shot] of shots.entries()) {
    const answer = answers[index]!;
    if (answer.answers) {
      urls.push(shot.url);
      continue;
    }
    const gone = `Shot ${shot.idx + 1} no longer answers at the service's address (${answer.why})`;
    const file = join(batch.libraryDir, shot.path);
    const problem = await fileProblem(file, shot);
    if (problem && !answer.gone) {
      // No answer that says the file is gone (a 5xx, a reset, no answer in time: likely the moment's), and
      // no copy to stand in: the URL goes as it is, and the service fetches it itself; a video it cannot
      // make fails there and is refunded (the contract), which beats failing here on a passing fault.
      urls.push(shot.url);
      continue;
    }
    if (problem) {
      throw new NoWorkingLink(
        `${gone}, and ${problem}: download the shoot again (free) or pick another shot, then retry this video. ${NOTHING_SPENT}`,
      );
    }
    let host: PhotoHost;
    try {
      host = options.hostFor(batch);
    } catch {
      // The one reason a batch has no host: a service elsewhere, and no photo storage set up.
      throw new NoWorkingLink(
        `${gone}, and the service cannot read its downloaded copy on this computer: set up photo storage in Settings, then retry this video. ${NOTHING_SPENT}`,
      );
    }
    urls.push(await host.urlFor(file));
    served.push({ assetId: shot.id, why: answer.why });
  }
  return { urls, served };
}
