import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { z } from 'zod';
import { videoToolPath } from './video-tools.ts';

// A video's facts as the bundled ffprobe reads them (the stream's codec, profile, frame, frame rate, pixel
// format; the sound's codec): what a transcode starts from, and what its written file is checked against
// (video-spec.ts). ffprobe decodes nothing here, it reads the headers: a few tens of milliseconds.

const execFileAsync = promisify(execFile);

const streamSchema = z.object({
  codec_type: z.string(),
  codec_name: z.string().optional(),
  profile: z.string().optional(),
  width: z.number().optional(),
  height: z.number().optional(),
  pix_fmt: z.string().optional(),
  avg_frame_rate: z.string().optional(),
  sample_rate: z.string().optional(),
  channels: z.number().optional(),
});

const probeSchema = z.object({
  streams: z.array(streamSchema),
  format: z.object({ format_name: z.string(), duration: z.string().optional() }),
});

export interface ProbedVideo {
  codec: string;
  profile: string;
  width: number;
  height: number;
  pixelFormat: string;
  /** Frames a second on average; 0 when ffprobe cannot tell. */
  fps: number;
}

export interface ProbedSound {
  codec: string;
  sampleRate: number;
  channels: number;
}

export interface VideoProbe {
  /** ffprobe's demuxer names: 'mov,mp4,m4a,3gp,3g2,mj2' for an MP4 or MOV. */
  formatName: string;
  durationSeconds: number;
  video: ProbedVideo | null;
  audio: ProbedSound | null;
}

/** '30/1', '30000/1001' as a number; 0 for '0/0'. */
function rate(fraction: string | undefined): number {
  const [num, den] = (fraction ?? '0/0').split('/').map(Number);
  return num && den ? num / den : 0;
}

export async function probeVideo(file: string, signal?: AbortSignal): Promise<VideoProbe> {
  const { stdout } = await execFileAsync(
    videoToolPath('ffprobe'),
    ['-v', 'error', '-show_streams', '-show_format', '-of', 'json', file],
    { signal, maxBuffer: 16 * 1024 * 1024 },
  );
  const probed = probeSchema.parse(JSON.parse(stdout));
  const video = probed.streams.find((stream) => stream.codec_type === 'video');
  const audio = probed.streams.find((stream) => stream.codec_type === 'audio');
  return {
    formatName: probed.format.format_name,
    durationSeconds: Number(probed.format.duration ?? 0),
    video: video
      ? {
          codec: video.codec_name ?? '',
          profile: video.profile ?? '',
          width: video.width ?? 0,
          height: video.height ?? 0,
          pixelFormat: video.pix_fmt ?? '',
          fps: rate(video.avg_frame_rate),
        }
      : null,
    audio: audio
      ? {
          codec: audio.codec_name ?? '',
          sampleRate: Number(audio.sample_rate ?? 0),
          channels: audio.channels ?? 0,
        }
      : null,
  };
}
