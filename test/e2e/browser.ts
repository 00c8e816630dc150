import { existsSync } from 'node:fs';
import { copyFile, mkdir, readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';
import { expect } from 'vitest';

// Debian's Chromium driven by playwright-core: no browser download. Screenshots go to test-artifacts/.

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const SCREENSHOTS = resolve(import.meta.dirname, '../../test-artifacts/screenshots');

/** Why the browser tests cannot run here, or null. CI sets ADBATCH_REQUIRE_BROWSER so that they must. */
export function browserMissing(): string | null {
  if (existsSync(CHROMIUM)) return null;
  const reason = `${CHROMIUM} is missing (apt-get install -y chromium)`;
  if (process.env.ADBATCH_REQUIRE_BROWSER) throw new Error(reason);
  return reason;
}

export function launchChromium(extraArgs: string[] = []): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--no-sandbox',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
      ...extraArgs,
    ],
  });
}

/** Chromium and a page, at 1280x800 (the size the app's screens are tested at) unless told. */
export async function openChromiumPage(
  viewport = { width: 1280, height: 800 },
): Promise<{ browser: Browser; page: Page }> {
  const browser = await launchChromium();
  try {
    return { browser, page: await browser.newPage({ viewport }) };
  } catch (error) {
    await browser.close();
    throw error;
  }
}

/**
 * The app at `url`, the batch whose button `batch` names opened from Batches, then its Review: by keyboard
 * (focus, Enter), as a test that uses no mouse must, or by clicks.
 */
export async function openReview(
  page: Page,
  url: string,
  batch: RegExp,
  by: 'keys' | 'clicks',
): Promise<void> {
  await page.goto(url);
  for (const button of [
    page.getByRole('button', { name: batch }),
    page.getByRole('button', { name: 'Review', exact: true }),
  ]) {
    if (by === 'clicks') {
      await button.click();
    } else {
      await button.focus();
      await page.keyboard.press('Enter');
    }
  }
}

/** The answers to one channel, held between the page and core (`holdAnswers`). */
export interface HeldAnswers {
  /** How many answers are held now. */
  count(): number;
  /** Gives the held answers to the page, in the order core made them, and holds no more. */
  release(): void;
}

/**
 * Stands between the page and core (the harness's socket, as a busy core or a slow socket would): the
 * answers to `channel` are held until released. Sockets opened after it only: reload the page after.
 */
export async function holdAnswers(page: Page, channel: string): Promise<HeldAnswers> {
  const held: string[] = [];
  let holding = true;
  let give = (_message: string) => {};
  await page.routeWebSocket(/\/ipc/, (socket) => {
    const core = socket.connectToServer();
    const calls = new Set<number>();
    give = (message) => socket.send(message);
    socket.onMessage((message) => {
      const call = JSON.parse(String(message)) as { id: number; channel: string };
      if (call.channel === channel) calls.add(call.id);
      core.send(message);
    });
    core.onMessage((message) => {
      const data = JSON.parse(String(message)) as { id?: number };
      if (holding && data.id !== undefined && calls.has(data.id)) held.push(String(message));
      else socket.send(message);
    });
  });
  return {
    count: () => held.length,
    release() {
      holding = false;
      for (const message of held.splice(0)) give(message);
    },
  };
}

/**
 * Frames as fast as the renderer can make them, so a frame's time is its cost, not the 16.7 ms of a 60 Hz
 * display: what a frame-time benchmark needs.
 */
export const UNCAPPED_FRAMES = ['--disable-gpu-vsync', '--disable-frame-rate-limit'];

export async function screenshot(page: Page, name: string): Promise<void> {
  await mkdir(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true });
}

/** The other look each key screen is saved and checked in: dark, on a large display. */
const DARK_LARGE = {
  suffix: 'dark-1920',
  colorScheme: 'dark',
  viewport: { width: 1920, height: 1080 },
} as const;

/**
 * A key screen as the test left it, saved and checked with axe in the test's own look (light, its viewport),
 * then in dark at 1920x1080 as `<name>-dark-1920.png`: the same page at the same moment, its colour scheme and
 * size emulated and then put back, rather than a second run of the flow to get there.
 */
export async function checkLooks(page: Page, name: string, screen: string): Promise<void> {
  await screenshot(page, name);
  await expectAccessible(page, screen);
  const viewport = page.viewportSize();
  try {
    await page.emulateMedia({ colorScheme: DARK_LARGE.colorScheme });
    await page.setViewportSize(DARK_LARGE.viewport);
    await settled(page);
    await screenshot(page, `${name}-${DARK_LARGE.suffix}`);
    await expectAccessible(page, `${screen} (${DARK_LARGE.suffix})`);
  } finally {
    // The tests' pages are light: playwright emulates light unless told otherwise.
    await page.emulateMedia({ colorScheme: 'light' });
    if (viewport) await page.setViewportSize(viewport);
    await settled(page);
  }
}

/** The four looks a screen of the first hour is checked in: both sizes, light and dark. */
const ALL_LOOKS = [
  { suffix: '', colorScheme: 'light', viewport: { width: 1280, height: 800 } },
  { suffix: '-dark', colorScheme: 'dark', viewport: { width: 1280, height: 800 } },
  { suffix: '-1920', colorScheme: 'light', viewport: { width: 1920, height: 1080 } },
  { suffix: '-dark-1920', colorScheme: 'dark', viewport: { width: 1920, height: 1080 } },
] as const;

/**
 * A screen saved and checked with axe at 1280x800 and 1920x1080, light and dark (`name`, `name-dark`,
 * `name-1920`, `name-dark-1920`), with `check` run in each look; then put back as the test had it.
 */
export async function checkAllLooks(
  page: Page,
  name: string,
  screen: string,
  check?: (look: string) => Promise<void>,
): Promise<void> {
  const viewport = page.viewportSize();
  try {
    for (const look of ALL_LOOKS) {
      await page.emulateMedia({ colorScheme: look.colorScheme });
      await page.setViewportSize(look.viewport);
      await settled(page);
      await check?.(`${name}${look.suffix}`);
      await screenshot(page, `${name}${look.suffix}`);
      await expectAccessible(page, `${screen} (${look.suffix || 'light-1280'})`);
    }
  } finally {
    await page.emulateMedia({ colorScheme: 'light' });
    if (viewport) await page.setViewportSize(viewport);
    await settled(page);
  }
}

const DOCS_SCREENSHOTS = resolve(import.meta.dirname, '../../docs/screenshots');

/** The light and dark looks at 1280x800 of a screen checkAllLooks saved, copied where the docs show them. */
export async function intoDocs(name: string): Promise<void> {
  await mkdir(DOCS_SCREENSHOTS, { recursive: true });
  for (const look of [name, `${name}-dark`]) {
    await copyFile(join(SCREENSHOTS, `${look}.png`), join(DOCS_SCREENSHOTS, `${look}.png`));
  }
}

/**
 * The form controls under `scope` whose content does not fit their box, by label: a select's chosen option,
 * an input's value or (when empty) its placeholder, measured in the control's own font against its content
 * box (a select's arrow takes about 20 px of it).
 */
export function clippedControls(page: Page, scope: string): Promise<string[]> {
  return page.evaluate((selector) => {
    const canvas = document.createElement('canvas').getContext('2d')!;
    const clipped: string[] = [];
    for (const control of document.querySelectorAll<HTMLSelectElement | HTMLInputElement>(
      `${selector} select, ${selector} input:not([type="checkbox"]):not([type="radio"])`,
    )) {
      if (control.offsetParent === null) continue;
      const style = getComputedStyle(control);
      canvas.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
      const text =
        control instanceof HTMLSelectElement
          ? (control.selectedOptions[0]?.text ?? '')
          : control.value || control.placeholder;
      const arrow = control instanceof HTMLSelectElement ? 20 : 0;
      const room =
        control.clientWidth -
        Number.parseFloat(style.paddingLeft) -
        Number.parseFloat(style.paddingRight) -
        arrow;
      if (canvas.measureText(text).width > room + 0.5) {
        const label = control.labels?.[0]?.childNodes[0]?.textContent?.trim() ?? control.name;
        clipped.push(
          `${label}: "${text}" (${Math.ceil(canvas.measureText(text).width)} px in ${Math.floor(room)})`,
        );
      }
    }
    return clipped;
  }, scope);
}

/** Two frames: one for the resize observers (the virtual lists measure again), one for what they render. */
function settled(page: Page): Promise<void> {
  return page.evaluate(
    () => new Promise<void>((done) => requestAnimationFrame(() => requestAnimationFrame(() => done()))),
  );
}

const axeSource = readFile(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** axe-core on the page as it is: no serious or critical violation. */
export async function expectAccessible(page: Page, screen: string): Promise<void> {
  // Evaluated through the DevTools protocol, which the page's CSP does not govern: the CSP itself stays on.
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(await axeSource);
  const violations = await page.evaluate(async () => {
    const result = await (
      window as unknown as {
        axe: {
          run(): Promise<{
            violations: Array<{ id: string; impact: string; nodes: Array<{ target: string[] }> }>;
          }>;
        };
      }
    ).axe.run();
    return result.violations.map((violation) => ({
      id: violation.id,
      impact: violation.impact,
      targets: violation.nodes.slice(0, 3).map((node) => node.target.join(' ')),
    }));
  });
  expect(
    violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical'),
    `${screen}: ${JSON.stringify(violations)}`,
  ).toEqual([]);
}
