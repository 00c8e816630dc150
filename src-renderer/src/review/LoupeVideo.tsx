import { useEffect, useRef, useState } from 'react';
import type { ReviewItemView } from '../../../src-main/shared/models.ts';
import { clock, FRAME_RATE, showVideo, type TransportState, VideoTransport } from './video-transport.ts';

// A video result in the loupe, played like an editor's: the keys J / K / L, `,` `.` and Space reach it through
// the keymap while it is on screen; its bar shows the time, the direction and rate, and the loop.

export function LoupeVideo({ item, label }: { item: ReviewItemView; label: string }) {
  const element = useRef<HTMLVideoElement>(null);
  const transport = useRef<VideoTransport | null>(null);
  const [state, setState] = useState<TransportState | null>(null);
  const [time, setTime] = useState({ now: 0, duration: 0 });

  useEffect(() => {
    const video = element.current;
    if (!video) return;
    const made = new VideoTransport(video, setState);
    transport.current = made;
    setState(made.state);
    showVideo(made);
    const tick = () => setTime({ now: video.currentTime, duration: video.duration || 0 });
    const events = ['timeupdate', 'seeked', 'loadedmetadata', 'durationchange'] as const;
    for (const name of events) video.addEventListener(name, tick);
    return () => {
      for (const name of events) video.removeEventListener(name, tick);
      made.dispose();
      showVideo(null);
      transport.current = null;
    };
  }, []);

  const direction =
    state?.direction === 'paused'
      ? 'Paused'
      : `${state?.direction === 'backward' ? 'Backward' : 'Playing'} ${state?.rate ?? 1}x`;
  return (
    <div className="pane-stage loupe-video">
      {/* biome-ignore lint/a11y/useMediaCaption: the service's videos have no speech to caption. */}
      <video
        ref={element}
        className="pane-media"
        src={item.url}
        poster={item.posterUrl ?? undefined}
        preload="auto"
        aria-label={label}
        data-testid="loupe-video"
      />
      <div className="video-bar">
        <button type="button" onClick={() => transport.current?.run('play-pause')}>
          {state?.direction === 'paused' ? 'Play' : 'Pause'}
        </button>
        <label className="check">
          <input
            type="checkbox"
            checked={state?.loop ?? true}
            onChange={() => transport.current?.run('loop')}
          />
          Loop
        </label>
        <span className="video-time" data-testid="video-time">
          {clock(time.now)} / {clock(time.duration)}
        </span>
        <span data-testid="video-direction">{direction}</span>
        {/* The step is 1/FRAME_RATE s, a guessed frame rate (video-transport.ts): said as the time it is. */}
        <small className="muted">
          J back · K pause · L play · , . one frame (1/{FRAME_RATE} s) · ? all keys
        </small>
      </div>
    </div>
  );
}
