// A video editor's transport over an HTML video element, for the loupe: J / K / L, frame steps, loop.
//
// L plays forward, and again faster (1x, 2x, 4x); K pauses; J goes backward, and again faster. HTML video
// cannot play backward reliably (Chromium ignores a negative playbackRate), so J pauses the element and
// steps back by seeking: every BACK_TICK_MS of real time it moves back by that time times the rate, and
// shows the frame it lands on. It stops at the start. A frame step moves by one frame of FRAME_RATE.

/**
 * Guess: the service does not say its videos' frame rate; 24 fps is the usual rate of generated video. (The
 * sandbox renders at the same rate, and test/unit/sandbox/render/video.test.ts holds the two equal.)
 */
export const FRAME_RATE = 24;
export const RATES = [1, 2, 4] as const;
export type Rate = (typeof RATES)[number];
/** How often J seeks back: 8 seeks a second, which a local MP4 follows without piling up. */
const BACK_TICK_MS = 125;

export type Direction = 'forward' | 'backward' | 'paused';

export interface TransportState {
  direction: Direction;
  rate: Rate;
  loop: boolean;
}

export type VideoCommand =
  | 'play-pause'
  | 'forward'
  | 'pause'
  | 'backward'
  | 'frame-next'
  | 'frame-back'
  | 'loop';

function faster(rate: Rate): Rate {
  return RATES[Math.min(RATES.indexOf(rate) + 1, RATES.length - 1)]!;
}

export class VideoTransport {
  private back: ReturnType<typeof setInterval> | null = null;
  state: TransportState = { direction: 'paused', rate: 1, loop: true };

  constructor(
    private readonly video: HTMLVideoElement,
    private readonly onChange: (state: TransportState) => void,
  ) {
    video.loop = this.state.loop;
    // The element's own controls (and its end) can pause it too: follow what it does.
    video.addEventListener('pause', this.followPause);
  }

  run(command: VideoCommand): void {
    switch (command) {
      case 'play-pause':
        if (this.state.direction === 'paused') this.playForward(1);
        else this.pause();
        return;
      case 'forward':
        this.playForward(this.state.direction === 'forward' ? faster(this.state.rate) : 1);
        return;
      case 'backward':
        this.playBackward(this.state.direction === 'backward' ? faster(this.state.rate) : 1);
        return;
      case 'pause':
        this.pause();
        return;
      case 'frame-next':
      case 'frame-back':
        this.pause();
        this.seek(this.video.currentTime + (command === 'frame-next' ? 1 : -1) / FRAME_RATE);
        return;
      case 'loop':
        this.video.loop = !this.state.loop;
        this.set({ loop: !this.state.loop });
        return;
    }
  }

  dispose(): void {
    this.stopBack();
    this.video.removeEventListener('pause', this.followPause);
  }

  private playForward(rate: Rate): void {
    this.stopBack();
    this.video.playbackRate = rate;
    this.set({ direction: 'forward', rate });
    // A play() refused (no user gesture yet, a source gone) leaves it paused, which the pause event says.
    void this.video.play().catch(() => this.set({ direction: 'paused' }));
  }

  private playBackward(rate: Rate): void {
    this.stopBack();
    this.video.pause();
    this.set({ direction: 'backward', rate });
    this.back = setInterval(() => {
      const to = this.video.currentTime - (BACK_TICK_MS / 1000) * this.state.rate;
      this.seek(to);
      if (to <= 0) this.pause();
    }, BACK_TICK_MS);
  }

  private pause(): void {
    this.stopBack();
    this.video.pause();
    this.set({ direction: 'paused' });
  }

  private seek(to: number): void {
    const end = Number.isFinite(this.video.duration) ? this.video.duration : to;
    this.video.currentTime = Math.max(0, Math.min(end, to));
  }

  private stopBack(): void {
    if (this.back !== null) clearInterval(this.back);
    this.back = null;
  }

  private readonly followPause = () => {
    if (this.state.direction === 'forward') this.set({ direction: 'paused' });
  };

  private set(change: Partial<TransportState>): void {
    this.state = { ...this.state, ...change };
    this.onChange(this.state);
  }
}

/** The transport of the video on screen in the loupe, or null: the video keys act only while there is one. */
let onScreen: VideoTransport | null = null;

export function videoOnScreen(): VideoTransport | null {
  return onScreen;
}

export function showVideo(transport: VideoTransport | null): void {
  onScreen = transport;
}

/** `m:ss.cc`, as an editor shows time. */
export function clock(seconds: number): string {
  const safe = Number.isFinite(seconds) ? Math.max(0, seconds) : 0;
  const minutes = Math.floor(safe / 60);
  return `${minutes}:${(safe - minutes * 60).toFixed(2).padStart(5, '0')}`;
}
