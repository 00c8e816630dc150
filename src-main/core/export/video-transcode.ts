import { spawn } from 'node:child_process';
import type { RecipeVideo } from '../../shared/export-recipe.ts';
import { even, type VideoTarget } from './video-spec.ts';
import { videoToolPath } from './video-tools.ts';

// One video transcoded by the bundled ffmpeg to a target (video-spec.ts): the source fitted inside the
// frame over a blurred copy of itself scaled to fill it (or over a plain colour), H.264 High in yuv420p at
// the target's frame rate, AAC sound (the source's, or silence where the channel wants sound and the source
// has none), `moov` first. Progress comes from ffmpeg's `-progress` lines; a cancel kills ffmpeg.

const STDERR_TAIL = 2000;
/**
 * The blurred fill is made at a quarter of the frame and scaled up: as soft as a wide blur at full size,
 * for a sixteenth of the pixels. Its box blur's radius, in those small pixels.
 */
const BLUR_DOWNSCALE = 4;
const BLUR_RADIUS = 10;

export interface TranscodeRequest {
  source: string;
  output: string;
  target: VideoTarget;
  background: RecipeVideo;
  sourceHasSound: boolean;
  /** The source's duration, to turn ffmpeg's position into a fraction. */
  durationSeconds: number;
  signal?: AbortSignal;
  /** From 0 to 1, as ffmpeg reports it (about twice a second). */
  onProgress?: (fraction: number) => void;
}

/** The filter graph making `[v]`: the source fitted in the frame, over a blurred fill or a padding colour. */
export function videoFilter(target: VideoTarget, background: RecipeVideo): string {
  const { width: w, height: h, fps } = target;
  const fitted = `scale=${w}:${h}:force_original_aspect_ratio=decrease,scale=trunc(iw/2)*2:trunc(ih/2)*2`;
  const tail = `setsar=1,fps=${fps},format=yuv420p[v]`;
  if (background.background === 'pad') {
    const colour = `0x${background.padColour.slice(1)}`;
    return `[0:v]${fitted},pad=${w}:${h}:(ow-iw)/2:(oh-ih)/2:color=${colour},${tail}`;
  }
  const [sw, sh] = [w, h].map((side) => even(side / BLUR_DOWNSCALE));
  return [
    '[0:v]split=2[fill][fit]',
    `[fill]scale=${sw}:${sh}:force_original_aspect_ratio=increase,crop=${sw}:${sh},boxblur=${BLUR_RADIUS}:2,scale=${w}:${h}[blurred]`,
    `[fit]${fitted}[fitted]`,
    `[blurred][fitted]overlay=(W-w)/2:(H-h)/2,${tail}`,
  ].join(';');
}

export function transcodeArgs(request: Omit<TranscodeRequest, 'signal' | 'onProgress'>): string[] {
  const { target } = request;
  const silence = target.sound && !request.sourceHasSound;
  return [
    ...['-hide_banner', '-nostdin', '-y', '-v', 'error', '-progress', 'pipe:1', '-nostats'],
    ...['-i', request.source],
    ...(silence ? ['-f', 'lavfi', '-i', 'anullsrc=channel_layout=stereo:sample_rate=48000'] : []),
    ...['-filter_complex', videoFilter(target, request.background), '-map', '[v]'],
    ...(target.sound ? ['-map', silence ? '1:a:0' : '0:a:0'] : ['-an']),
    // The silence lasts as long as the picture.
    ...(silence ? ['-shortest'] : []),
    ...['-c:v', 'libx264', '-profile:v', 'high', '-preset', 'medium', '-crf', '20'],
    // Within what the channels take (Reels: 25 Mbit/s at most), and a key frame every two seconds.
    ...['-maxrate', '12M', '-bufsize', '24M', '-g', String(target.fps * 2), '-pix_fmt', 'yuv420p'],
    ...(target.sound ? ['-c:a', 'aac', '-b:a', '128k', '-ar', '48000', '-ac', '2'] : []),
    ...['-map_metadata', '-1', '-movflags', '+faststart', '-f', 'mp4', request.output],
  ];
}

export class TranscodeError extends Error {
  override name = 'TranscodeError';
}

export async function transcodeVideo(request: TranscodeRequest): Promise<void> {
  const { signal, onProgress, durationSeconds } = request;
  signal?.throwIfAborted();
  const child = spawn(videoToolPath('ffmpeg'), transcodeArgs(request), {
    stdio: ['ignore', 'pipe', 'pipe'],
    signal,
    killSignal: 'SIGKILL',
  });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr = (stderr + chunk).slice(-STDERR_TAIL);
  });
  let pending = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    const lines = (pending + chunk).split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) {
      // out_time_us (out_time_ms in ffmpeg 4, also in microseconds despite its name).
      const match = /^out_time_u?ms=(\d+)$/.exec(line.trim());
      if (match && durationSeconds > 0 && onProgress) {
        onProgress(Math.min(1, Number(match[1]) / 1e6 / durationSeconds));
      }
    }
  });
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', resolve);
  });
  signal?.throwIfAborted();
  if (code !== 0) {
    throw new TranscodeError(`ffmpeg stopped (exit code ${code}): ${stderr.trim() || 'no message'}`);
  }
  onProgress?.(1);
}
