import { spawn } from 'node:child_process';
import { rm, stat } from 'node:fs/promises';
import { videoToolPath } from '../export/video-tools.ts';

// A video's poster frame, for Review's grid and the batch page, where a video is a still: the frame at one
// second (past a fade from black, a guess that holds for the service's videos, which open on the product),
// or the first frame of a video shorter than that. Taken by the ffmpeg that ships with Adbatch (as the
// export's transcodes are: export/video-tools.ts), as a PNG that sharp then sizes as a shot's previews are.

/** Where in the video the frame is taken, in seconds. */
export const POSTER_AT_SECONDS = 1;

const STDERR_TAIL = 2000;

export class VideoFrameError extends Error {
  override name = 'VideoFrameError';
}

async function written(file: string): Promise<boolean> {
  try {
    return (await stat(file)).size > 0;
  } catch {
    return false;
  }
}

/** Runs ffmpeg to write one frame, `at` seconds in (from the start when null); false when none came. */
async function frameAt(video: string, target: string, at: number | null): Promise<boolean> {
  await rm(target, { force: true });
  const child = spawn(
    videoToolPath('ffmpeg'),
    [
      ...['-hide_banner', '-nostdin', '-y', '-v', 'error'],
      // Before the input: a seek to the key frame before, then decoding up to the second asked for.
      ...(at === null ? [] : ['-ss', String(at)]),
      ...[
        '-i',
        video,
        '-map',
        '0:v:0',
        '-frames:v',
        '1',
        '-update',
        '1',
        '-f',
        'image2',
        '-c:v',
        'png',
        target,
      ],
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr = (stderr + chunk).slice(-STDERR_TAIL);
  });
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', resolve);
  });
  if (code !== 0)
    throw new VideoFrameError(`ffmpeg stopped (exit code ${code}): ${stderr.trim() || 'no message'}`);
  // A seek past the end writes nothing and still exits 0.
  return written(target);
}

/** Writes the video's poster frame as a PNG at `target`; a VideoFrameError when the video has none. */
export async function extractPosterFrame(video: string, target: string): Promise<void> {
  if (await frameAt(video, target, POSTER_AT_SECONDS)) return;
  if (await frameAt(video, target, null)) return;
  throw new VideoFrameError(`ffmpeg found no frame in ${video}.`);
}
