import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const execFileAsync = promisify(execFile);

/**
 * The video again at a lower frame rate, encoded as the sandbox encodes (H.264, yuv420p, +faststart). The
 * sandbox renders at the 24 fps the player assumes; the channels' frame-rate checks need a slower source.
 */
export async function atFrameRate(source: string, fps: number, outFile: string): Promise<string> {
  await execFileAsync('ffmpeg', [
    ...['-v', 'error', '-y', '-i', source, '-vf', `fps=${fps}`, '-an'],
    ...['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-movflags', '+faststart', outFile],
  ]);
  return outFile;
}
