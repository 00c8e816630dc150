import { rm, stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { sha256OfFile } from '../util/file-sha256.ts';
import type { PlannedFile } from './plan.ts';
import type { VideoChannelRules } from './video-channels.ts';
import { readVideoFacts } from './video-mp4.ts';
import { videoPreflight } from './video-preflight.ts';
import { probeVideo } from './video-probe.ts';
import { specFailures, videoTarget } from './video-spec.ts';
import { transcodeVideo } from './video-transcode.ts';

// A video made for its recipe's channel, into `output` (the run's `.part` of the file): the source read
// (a broken one is refused with its reason, as the copy's pre-flight says it), transcoded to the channel's
// target, and the written file read back with ffprobe and checked against it. A file that fails the check
// is removed and refused with every fact it lacks; what passes goes with the channel's warnings on what a
// transcode cannot change (a duration out of bounds) and a word when the source was enlarged.

export interface MadeVideo {
  size: number;
  sha256: string;
  width: number;
  height: number;
  warnings: string[];
}

export class VideoRefusedError extends Error {
  override name = 'VideoRefusedError';
}

export async function makeChannelVideo(options: {
  file: PlannedFile;
  rules: VideoChannelRules;
  output: string;
  signal?: AbortSignal;
  onProgress?: (fraction: number) => void;
}): Promise<MadeVideo> {
  const { file, rules, output, signal } = options;
  const source = file.item.file;
  const video = file.recipe.video!;
  // Its boxes first: a file cut short would otherwise be made into a shorter video without a word.
  await readVideoFacts(source);
  const probed = await probeVideo(source, signal);
  if (!probed.video) throw new VideoRefusedError(`${basename(source)} has no video stream.`);
  const target = videoTarget(rules, probed.video, probed.audio !== null);
  try {
    await transcodeVideo({
      source,
      output,
      target,
      background: video,
      sourceHasSound: probed.audio !== null,
      durationSeconds: probed.durationSeconds,
      signal,
      onProgress: options.onProgress,
    });
    const [made, facts, { size }] = await Promise.all([
      probeVideo(output, signal),
      readVideoFacts(output),
      stat(output),
    ]);
    const failures = specFailures(rules, target, made, facts.moovFirst);
    if (failures.length > 0) {
      throw new VideoRefusedError(`The file made for ${rules.channel} was refused: ${failures.join('; ')}.`);
    }
    const warnings: string[] = [];
    if (target.scale > 1.01) {
      warnings.push(
        `The video is ${probed.video.width} x ${probed.video.height}: it was enlarged ${target.scale.toFixed(2)} x to fit ${rules.channel}'s ${target.width} x ${target.height}.`,
      );
    }
    warnings.push(...(await videoPreflight(file.recipe, output, size)).warnings);
    return { size, sha256: await sha256OfFile(output), width: target.width, height: target.height, warnings };
  } catch (error) {
    await rm(output, { force: true });
    throw error;
  }
}
