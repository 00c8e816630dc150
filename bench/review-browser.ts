import type { Page } from 'playwright-core';
import { launchChromium, UNCAPPED_FRAMES } from '../test/e2e/browser.ts';
import { startAppServer } from '../test/harness/app-server.ts';
import { percentile, scrollFrames } from './page-frames.ts';
import { benchSize } from './settings.ts';

// The Review view's half of issue 12's "fast on big batches", in Debian's Chromium on the browser harness
// (the renderer's harness build, core over the WebSocket transport), on the batch bench:review seeded, its
// previews made. Every figure is taken in the page's own clock, from the input event's timeStamp:
//  - first render: from the click on the Batch screen's "Review" to the end of the first frame (its rAF to a
//    task queued from it, so its style, layout and paint are done) at whose start every grid tile in view has
//    its image loaded (`complete`, a natural width); also to the first frame with the tiles laid out, images or
//    not. The first run is on a core that has not answered review:get yet (as after a start), the others on a
//    fresh page each against the same core;
//  - grid scroll: the grid scrolled end to end and back, each frame's work (see page-frames.ts);
//  - decision: P on the active tile of the grid, counted in frames until the tile shows the pick (1: the first
//    frame after the key press), and in ms to that frame's end; and to the frame without its busy mark, once
//    core has committed it and answered;
//  - loupe next: ArrowRight, to the next result's image decoded (`decode()` resolved) and to the end of the
//    frame after that (the target's figure), the designer dwelling LOUPE_DWELL_MS on each result first; and,
//    beside it, to the paint of the frame that first drew the image (Element Timing's renderTime), a check on
//    the other: an image already decoded resolves `decode()` only some frames' work after it is in the page.
// Headless Chromium paces frames at about 17.7 ms whatever the page does, so any "to the frame's end" figure
// includes up to one such interval of waiting.

const VIEWPORT = { width: 1280, height: 860 };
const SCROLL_MS = benchSize('BENCH_REVIEW_SCROLL_MS', 8000, 1000);
const FIRST_RENDER_RUNS = benchSize('BENCH_REVIEW_FIRST_RENDERS', 3, 1);
const QUIET_MS = 500;
const DECISIONS = benchSize('BENCH_REVIEW_UI_DECISIONS', 40, 4);
const LOUPE_STEPS = benchSize('BENCH_REVIEW_LOUPE_STEPS', 100, 5);
/** Guess: a designer looks at a result for at least this long before moving on. */
const LOUPE_DWELL_MS = benchSize('BENCH_REVIEW_LOUPE_DWELL_MS', 300, 100);

const FIRST_RENDER_SCRIPT = `(() => {
  window.__firstRender = new Promise((resolve) => {
    let clickAt = -1;
    let laidOutMs = -1;
    let laidPosted = false;
    let frames = 0;
    document.addEventListener('click', (event) => {
      const button = event.target instanceof Element ? event.target.closest('button') : null;
      if (clickAt < 0 && button && button.textContent.trim() === 'Review') clickAt = event.timeStamp;
    }, true);
    const channel = new MessageChannel();
    channel.port1.onmessage = (message) => {
      if (message.data === 'laid') laidOutMs = performance.now() - clickAt;
      else resolve({ laidOutMs, paintedMs: performance.now() - clickAt, frames, tiles: message.data });
    };
    const check = () => {
      if (clickAt >= 0) {
        frames++;
        const grid = document.querySelector('[data-testid="review-grid"]');
        if (grid) {
          const box = grid.getBoundingClientRect();
          const images = [...grid.querySelectorAll('img')].filter((image) => {
            const rect = image.getBoundingClientRect();
            return rect.bottom > box.top && rect.top < box.bottom;
          });
          if (images.length > 0) {
            if (!laidPosted) channel.port2.postMessage('laid');
            laidPosted = true;
            if (images.every((image) => image.complete && image.naturalWidth > 0)) {
              channel.port2.postMessage(images.length);
              return;
            }
          }
        }
      }
      requestAnimationFrame(check);
    };
    requestAnimationFrame(check);
  });
})()`;

const DECISION_SCRIPT = `(() => {
  window.__decision = new Promise((resolve) => {
    let keyAt = -1;
    let tile = null;
    let frames = 0;
    const onKey = (event) => {
      if (event.key !== 'p') return;
      keyAt = event.timeStamp;
      tile = document.querySelector('[data-testid="review-grid"] .tile-active');
      window.removeEventListener('keydown', onKey, true);
    };
    window.addEventListener('keydown', onKey, true);
    const channel = new MessageChannel();
    let shown = null;
    let shownPosted = false;
    channel.port1.onmessage = (message) => {
      if (message.data.kind === 'shown') {
        shown = { frames: message.data.frames, framesAtMessage: frames, ms: performance.now() - keyAt };
      } else resolve({ ...shown, savedMs: performance.now() - keyAt });
    };
    const check = () => {
      if (keyAt >= 0) {
        frames++;
        if (!shownPosted && tile && tile.classList.contains('tile-picked')) {
          shownPosted = true;
          channel.port2.postMessage({ kind: 'shown', frames });
        }
        // Then until core's answer: the tile's busy mark gone.
        if (shownPosted && !tile.hasAttribute('aria-busy')) {
          channel.port2.postMessage({ kind: 'saved' });
          return;
        }
        if (frames > 600) return resolve({ frames, framesAtMessage: frames, ms: -1, savedMs: -1 });
      }
      requestAnimationFrame(check);
    };
    requestAnimationFrame(check);
  });
})()`;

const LOUPE_STEP_SCRIPT = `(() => {
  window.__loupeStep = new Promise((resolve) => {
    const loupe = document.querySelector('[data-testid="loupe"]');
    const before = loupe.querySelector('img').getAttribute('src');
    let keyAt = -1;
    let decodedMs = -1;
    let shownAfterDecodeMs = -1;
    let paintedMs = -1;
    const onKey = (event) => {
      if (event.key !== 'ArrowRight') return;
      keyAt = event.timeStamp;
      window.removeEventListener('keydown', onKey, true);
    };
    window.addEventListener('keydown', onKey, true);
    const done = () => {
      if (shownAfterDecodeMs >= 0 && paintedMs >= 0) {
        painted.disconnect();
        resolve({ decodedMs, shownAfterDecodeMs, paintedMs });
      }
    };
    const painted = new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) {
        if (entry.identifier === 'loupe-step-' + keyAt && paintedMs < 0) paintedMs = entry.renderTime - keyAt;
      }
      done();
    });
    painted.observe({ type: 'element' });
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      shownAfterDecodeMs = performance.now() - keyAt;
      done();
    };
    const observer = new MutationObserver(() => {
      const image = loupe.querySelector('img');
      if (!image || image.getAttribute('src') === before) return;
      observer.disconnect();
      // Marked before the frame that paints it: Element Timing reports that frame's time.
      image.setAttribute('elementtiming', 'loupe-step-' + keyAt);
      image.decode().catch(() => {}).then(() => {
        decodedMs = performance.now() - keyAt;
        requestAnimationFrame(() => channel.port2.postMessage(0));
      });
    });
    observer.observe(loupe, { subtree: true, childList: true, attributes: true, attributeFilter: ['src'] });
  });
})()`;

const round1 = (value: number) => Math.round(value * 10) / 10;
const summary = (values: number[]) => ({
  runs: values.length,
  p50: round1(percentile(values, 50)),
  p95: round1(percentile(values, 95)),
  max: round1(Math.max(...values)),
});

interface Decision {
  /** The frame, counted from the key, that first showed the pick (1: the first frame after the key). */
  frames: number;
  /** As counted before: the frames begun by the time that frame's message was read (see decisionOnScreen). */
  framesAtMessage: number;
  ms: number;
  savedMs: number;
}

interface FirstRender {
  laidOutMs: number;
  paintedMs: number;
  frames: number;
  tiles: number;
}

/**
 * Counts the page's requests in flight, from before its navigation: the Batch screen's own images would
 * otherwise still hold the browser's six connections to the harness when Review is opened (Electron's
 * protocol has no such limit), and the figure would measure them.
 */
function trackRequests(page: Page) {
  let inFlight = 0;
  let lastChange = Date.now();
  const started = () => {
    inFlight++;
    lastChange = Date.now();
  };
  const ended = () => {
    inFlight--;
    lastChange = Date.now();
  };
  page.on('request', started);
  page.on('requestfinished', ended);
  page.on('requestfailed', ended);
  return {
    /** Until no request has been in flight for QUIET_MS. */
    async quiet() {
      while (inFlight > 0 || Date.now() - lastChange < QUIET_MS) await page.waitForTimeout(100);
    },
    stop() {
      page.off('request', started);
      page.off('requestfinished', ended);
      page.off('requestfailed', ended);
    },
  };
}

async function openReview(page: Page, url: string, batchName: string): Promise<FirstRender> {
  const requests = trackRequests(page);
  await page.goto(url);
  await page
    .getByRole('button', { name: new RegExp(batchName) })
    .first()
    .click({ timeout: 60_000 });
  const review = page.getByRole('button', { name: 'Review', exact: true });
  await review.waitFor({ timeout: 60_000 });
  await requests.quiet();
  requests.stop();
  await page.evaluate(FIRST_RENDER_SCRIPT);
  await review.click();
  return (await page.evaluate('window.__firstRender')) as FirstRender;
}

export async function reviewInBrowser(dir: string, batchName: string, expectedResults: number) {
  const app = await startAppServer({ dir });
  const browser = await launchChromium(UNCAPPED_FRAMES);
  try {
    const firstRenders: FirstRender[] = [];
    let page: Page | null = null;
    for (let run = 0; run < FIRST_RENDER_RUNS; run++) {
      await page?.close();
      page = await browser.newPage({ viewport: VIEWPORT });
      firstRenders.push(await openReview(page, app.url, batchName));
    }
    page = page!;
    const results = await page.evaluate(() => document.querySelector('.review-progress')?.textContent ?? '');
    // Every result in the grid before it scrolls (a first answer may be a first page of them).
    await page.waitForFunction(
      ({ total, tileWidth, tileHeight }) => {
        const grid = document.querySelector('[data-testid="review-grid"]') as HTMLElement;
        const columns = Math.max(1, Math.floor(grid.clientWidth / tileWidth));
        return (
          (grid.firstElementChild as HTMLElement).offsetHeight === Math.ceil(total / columns) * tileHeight
        );
      },
      { total: expectedResults, tileWidth: 200, tileHeight: 256 },
      { timeout: 60_000 },
    );

    const scroll = await scrollFrames(page, 'review-grid', SCROLL_MS);
    await page.evaluate(() => {
      document.querySelector('[data-testid="review-grid"]')!.scrollTop = 0;
    });

    await page.locator('body').focus();
    const decisions: Decision[] = [];
    const grid = page.getByTestId('review-grid');
    while (decisions.length < DECISIONS) {
      await page.waitForTimeout(100);
      // bench:review's core half decided some results already: a pick must show a change.
      if ((await grid.locator('.tile-active.tile-picked').count()) > 0) {
        await page.keyboard.press('ArrowRight');
        continue;
      }
      await page.evaluate(DECISION_SCRIPT);
      await page.keyboard.press('p');
      decisions.push((await page.evaluate('window.__decision')) as Decision);
    }

    await page.keyboard.press('e');
    await page.getByTestId('loupe').getByRole('img').waitFor();
    const loupe: Array<{ decodedMs: number; shownAfterDecodeMs: number; paintedMs: number }> = [];
    for (let n = 0; n < LOUPE_STEPS; n++) {
      await page.waitForTimeout(LOUPE_DWELL_MS);
      await page.evaluate(LOUPE_STEP_SCRIPT);
      await page.keyboard.press('ArrowRight');
      loupe.push(
        (await page.evaluate('window.__loupeStep')) as {
          decodedMs: number;
          shownAfterDecodeMs: number;
          paintedMs: number;
        },
      );
    }

    return {
      viewport: VIEWPORT,
      progress: results,
      firstRender: {
        measured:
          'click on Review to the end of the first frame with every tile in view showing a loaded image; laidOut: to the first frame with tiles',
        runs: firstRenders.map((run) => ({
          laidOutMs: round1(run.laidOutMs),
          paintedMs: round1(run.paintedMs),
          tiles: run.tiles,
        })),
        coldMs: round1(firstRenders[0]!.paintedMs),
        maxMs: round1(Math.max(...firstRenders.map((run) => run.paintedMs))),
      },
      gridScroll: {
        durationMs: SCROLL_MS,
        frames: scroll.work.length,
        frameWorkMs: summary(scroll.work),
        frameIntervalMs: summary(scroll.intervals),
      },
      decisionOnScreen: {
        decisions: decisions.length,
        framesMax: Math.max(...decisions.map((decision) => decision.frames)),
        withinOneFrame: decisions.filter((decision) => decision.frames === 1).length,
        /**
         * The count as taken before, wrong: it read the frame counter when the frame's message was handled,
         * a task after that frame, by when the next frame may have begun (under load it often has), so a pick
         * shown in the first frame counted as two.
         */
        asBefore: {
          framesMax: Math.max(...decisions.map((decision) => decision.framesAtMessage)),
          withinOneFrame: decisions.filter((decision) => decision.framesAtMessage === 1).length,
        },
        toFrameEndMs: summary(decisions.map((decision) => decision.ms)),
        /** To the frame in which the tile's busy mark is gone: core's answer, the commit, back on screen. */
        savedOnScreenMs: summary(decisions.map((decision) => decision.savedMs)),
      },
      loupeNext: {
        steps: loupe.length,
        dwellMs: LOUPE_DWELL_MS,
        decodedMs: summary(loupe.map((step) => step.decodedMs)),
        /** The target's figure: decode() resolved, then the end of the frame after it. */
        shownMs: summary(loupe.map((step) => step.shownAfterDecodeMs)),
        /** To the paint of the frame that first drew the image (Element Timing's renderTime). */
        paintedMs: summary(loupe.map((step) => step.paintedMs)),
      },
    };
  } finally {
    await browser.close();
    await app.close();
  }
}
