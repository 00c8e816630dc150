import type { Page } from 'playwright-core';

// What the UI benches measure in the page: a frame's work while a list scrolls (bench:ui, bench:review).

export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

/**
 * Scrolls the list from top to bottom and back, recording for every frame the renderer's work (from the
 * frame's requestAnimationFrame callback to a task queued from it, which runs once the frame's style,
 * layout and paint are done) and the interval between frames. Headless Chromium paces every page it loads
 * over HTTP at about 17.7 ms (56 Hz) whatever the page does, even a 404 page at rest, so the interval shows
 * only that pacing; the work is the frame's cost. Written as a string: tsx would wrap a function passed to
 * the page with helpers that do not exist there.
 */
const SCROLL_SCRIPT = `(async ({ testId, duration }) => {
  const list = document.querySelector('[data-testid="' + testId + '"]');
  const work = [];
  const intervals = [];
  const channel = new MessageChannel();
  let frameStart = 0;
  channel.port1.onmessage = () => work.push(performance.now() - frameStart);
  return await new Promise((resolve) => {
    const start = performance.now();
    let last = start;
    const step = (now) => {
      intervals.push(now - last);
      last = now;
      const t = (now - start) / duration;
      list.scrollTop = (list.scrollHeight - list.clientHeight) * (t < 0.5 ? t * 2 : 2 - t * 2);
      frameStart = performance.now();
      channel.port2.postMessage(0);
      if (now - start < duration) requestAnimationFrame(step);
      else
        setTimeout(
          () => resolve({ work, intervals: intervals.slice(1), travel: list.scrollHeight - list.clientHeight }),
          50,
        );
    };
    requestAnimationFrame(step);
  });
})`;

export async function scrollFrames(
  page: Page,
  testId: string,
  duration: number,
): Promise<{ work: number[]; intervals: number[] }> {
  const frames = (await page.evaluate(`${SCROLL_SCRIPT}(${JSON.stringify({ testId, duration })})`)) as {
    work: number[];
    intervals: number[];
    travel: number;
  };
  // A list laid out as tall as its rows has nothing to scroll, and its frames cost nothing: such a figure
  // would read as met (the Batch screen's list did so once, unnoticed).
  if (frames.travel < 10_000) {
    throw new Error(
      `${testId} scrolls only ${frames.travel} px: it is not the scrolling box the bench measures`,
    );
  }
  return { work: frames.work, intervals: frames.intervals };
}
