import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import type { SandboxOptions } from '../../src-main/sandbox/server.ts';
import { browserMissing, openChromiumPage } from '../e2e/browser.ts';
import { type AppServer, startAppServer } from '../harness/app-server.ts';
import { HARNESS_TIME_SCALE, scaledRateLimit } from './core-harness.ts';
import { type DefaultHarness, startDefaultHarness } from './sandbox-harness.ts';

// The one set-up of the e2e files: the browser harness (the real core, the embedded sandbox) on a temp folder
// of its own, Chromium with a page at the app, and, for a file that adds a service's keys as a user would, a
// real sandbox over HTTP beside it; all of it closed after the file's tests. Without a browser the file's
// tests are skipped (CI sets ADBATCH_REQUIRE_BROWSER, so there it throws instead).

type AppOptions = Omit<NonNullable<Parameters<typeof startAppServer>[0]>, 'dir'>;

/** What a file readies in the app's folder before the app starts there. */
export interface Prepared {
  /** Options for the app that depend on the folder (an image for its dialog to answer). */
  app?: AppOptions;
  /** Lets go of what the file holds in the folder (a lock, a mount), after the app and before the folder goes. */
  release?: () => unknown;
}

export interface AppInChromium {
  /** The temp folder the app keeps its data and library in (`adbatch-e2e-<name>-`). */
  dir: string;
  app: AppServer;
  browser: Browser;
  page: Page;
  /** The sandbox over HTTP on the built-in accounts, when the file asked for one (`service`). */
  service: DefaultHarness | null;
}

export interface AppFixtureOptions {
  /** The app's options (what its open dialog answers, its time scale). */
  app?: AppOptions;
  /** Readies the folder before the app starts in it (a lease held, a small disk, a logo to choose). */
  prepare?: (dir: string) => Prepared | undefined | Promise<Prepared | undefined>;
  /**
   * A real sandbox over HTTP beside the app, with these options (its built-in accounts and their keys); its
   * rate window as compressed as the app's, unless told.
   */
  service?: Omit<SandboxOptions, 'accounts'>;
  /** The page's size: 1280x800, the size the app's screens are tested at, unless told. */
  viewport?: { width: number; height: number };
  /** What the file readies once the app runs, before the page opens it (a finished batch to review). */
  ready?: (ui: AppFixture) => unknown;
  /** Whether the page opens the app before the tests (the default) or a test navigates first itself. */
  open?: boolean;
  /**
   * A bound on all of it, against a hang: set-up that shoots a batch takes its time on a loaded machine, and
   * waits for it to finish, not for a guess of how long that takes.
   */
  timeoutMs?: number;
}

/** The app, its page and folder, read in the tests once the file's set-up has run; and why it may not. */
export interface AppFixture extends Readonly<Omit<AppInChromium, 'service'>> {
  /** Why the browser tests cannot run here (then the file's tests are skipped), or null. */
  readonly missing: string | null;
  /** The sandbox over HTTP that `service` asked for (reading it in a file that asked for none throws). */
  readonly service: DefaultHarness;
}

/**
 * The app in Chromium for the tests of one file: started before them (the folder prepared, the service
 * started, `ready` run, the page at the app), closed after them; whatever was started is closed again if a
 * step of the set-up fails.
 */
export function appInChromium(name: string, options: AppFixtureOptions = {}): AppFixture {
  const missing = browserMissing();
  let started: AppInChromium | undefined;
  const closers: Array<() => unknown> = [];

  const running = (): AppInChromium => {
    if (!started) throw new Error(`the app of ${name} is not started: read it in a test, after the set-up`);
    return started;
  };
  const fixture: AppFixture = {
    missing,
    get dir() {
      return running().dir;
    },
    get app() {
      return running().app;
    },
    get browser() {
      return running().browser;
    },
    get page() {
      return running().page;
    },
    get service() {
      const { service } = running();
      if (!service) throw new Error(`${name} asked for no service: pass \`service\` to appInChromium`);
      return service;
    },
  };

  beforeAll(async () => {
    if (missing) return;
    const dir = await mkdtemp(join(tmpdir(), `adbatch-e2e-${name}-`));
    closers.push(() => rm(dir, { recursive: true, force: true }));
    const prepared = await options.prepare?.(dir);
    if (prepared?.release) closers.push(prepared.release);
    const service = options.service
      ? await startDefaultHarness({
          rateLimit: scaledRateLimit(options.app?.timeScale ?? HARNESS_TIME_SCALE),
          ...options.service,
        })
      : null;
    if (service) closers.push(() => service.close());
    const app = await startAppServer({ ...options.app, ...prepared?.app, dir });
    closers.push(() => app.close());
    const { browser, page } = await openChromiumPage(options.viewport);
    closers.push(() => browser.close());
    started = { dir, app, browser, page, service };
    await options.ready?.(fixture);
    if (options.open !== false) await page.goto(app.url);
  }, options.timeoutMs ?? 180_000);

  // Newest first: the browser, the app, the service, what was prepared, then the folder; each of them even
  // if one before it failed to close.
  afterAll(async () => {
    const failures: unknown[] = [];
    for (const close of closers.reverse()) {
      try {
        await close();
      } catch (error) {
        failures.push(error);
      }
    }
    if (failures.length > 0) throw new AggregateError(failures, `closing the app of ${name} failed`);
  });

  return fixture;
}
