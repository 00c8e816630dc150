import type { VideoChannelRules } from './video-channels.ts';
import type { ProbedVideo, VideoProbe } from './video-probe.ts';

// What a video made for a channel must be (its target: frame, frame rate, sound), chosen from the channel's
// rules and the source, and the check of the written file against it: the facts ffprobe reads from it and
// where its `moov` box is. A made file that fails is refused (video-make.ts): these are facts we set
// ourselves, so a failure is ours and no file goes out that the channel would turn away.

export interface VideoTarget {
  width: number;
  height: number;
  fps: number;
  /** The file has an AAC track: the source's sound, or silence where the channel wants sound. */
  sound: boolean;
  /** How much the source is enlarged to fit the frame (1 or less: not enlarged). */
  scale: number;
}

/** A side H.264 in 4:2:0 takes: even, at least 2. */
export const even = (value: number) => Math.max(2, 2 * Math.floor(value / 2));

/** How much `source` must be scaled to fit inside `frame`, the ratio kept. */
function fitScale(source: ProbedVideo, frame: { width: number; height: number }): number {
  return Math.min(frame.width / source.width, frame.height / source.height);
}

export function videoTarget(
  rules: VideoChannelRules,
  source: ProbedVideo,
  sourceHasSound: boolean,
): VideoTarget {
  const { make } = rules;
  let frame: { width: number; height: number };
  if (make.frames.length === 0) {
    // The source's own frame, made even (H.264 in 4:2:0), no wider than the channel takes.
    const shrink = rules.maxWidth ? Math.min(1, rules.maxWidth / source.width) : 1;
    frame = { width: even(source.width * shrink), height: even(source.height * shrink) };
  } else {
    frame = make.frames.find((candidate) => fitScale(source, candidate) <= 1) ?? make.frames.at(-1)!;
  }
  return {
    ...frame,
    fps: make.fps,
    sound: sourceHasSound || make.soundRequired,
    scale: fitScale(source, frame),
  };
}

/** The facts a made file must have; each one it lacks, in words. An empty list: it is what was asked. */
export function specFailures(
  rules: VideoChannelRules,
  target: VideoTarget,
  probe: VideoProbe,
  moovFirst: boolean,
): string[] {
  const failures: string[] = [];
  const { channel } = rules;
  if (!probe.formatName.split(',').includes('mp4')) failures.push(`it is not an MP4 (${probe.formatName})`);
  const video = probe.video;
  if (!video) return [...failures, 'it has no video stream'];
  if (video.codec !== 'h264') failures.push(`its video is ${video.codec}, not H.264`);
  if (video.profile !== 'High') failures.push(`its H.264 profile is ${video.profile || 'unknown'}, not High`);
  if (video.pixelFormat !== 'yuv420p') failures.push(`its pixels are ${video.pixelFormat}, not yuv420p`);
  if (video.width !== target.width || video.height !== target.height) {
    failures.push(`it is ${video.width} x ${video.height}, not ${target.width} x ${target.height}`);
  }
  if (Math.abs(video.fps - target.fps) > 0.01) {
    failures.push(`it runs at ${Number(video.fps.toFixed(2))} fps, not ${target.fps}`);
  }
  if (target.sound && !probe.audio) failures.push(`it has no sound track; ${channel} wants one`);
  if (probe.audio && probe.audio.codec !== 'aac') failures.push(`its sound is ${probe.audio.codec}, not AAC`);
  if (!moovFirst) failures.push("its index (the 'moov' box) comes after its frames");
  return failures;
}
