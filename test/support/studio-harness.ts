import { rm } from 'node:fs/promises';
import { type Sandbox, type SandboxOptions, startSandbox } from '../../src-main/sandbox/server.ts';
import type { AccountView } from '../../src-main/shared/models.ts';
import {
  type CoreHarness,
  callCore,
  HARNESS_TIME_SCALE,
  scaledRateLimit,
  startCoreHarness,
  TEST_PHOTO_HOSTS,
} from './core-harness.ts';
import { defaultKeys } from './sandbox-harness.ts';
import { type StaticServer, startStaticServer } from './static-server.ts';

// The app's core beside a sandbox of the test's own, added as the account "Studio" on its personal key, and
// the product photos served over HTTP for the test's catalogs: for the tests that read what reached the
// service (its requests, the account's credits) or run the CLI with the same key beside the app.

export interface StudioHarness {
  h: CoreHarness;
  service: Sandbox;
  photos: StaticServer;
  studio: AccountView;
  /** What the Studio account has left on the service now. */
  credits(): number;
  /** The environment `adbatch` runs in beside the app: the Studio account's key in ADBATCH_API_KEY. */
  cliEnv(): NodeJS.ProcessEnv;
  /** Lets go of the app's queue, as when the app is quit; its folder stays, for the CLI to drive. */
  quitApp(): Promise<void>;
  /** Closes everything, the app unless it was quit, and removes the app's folder. */
  close(): Promise<void>;
}

export async function startStudioHarness(
  options: Pick<SandboxOptions, 'videoRenderer'> = {},
): Promise<StudioHarness> {
  // The catalogs' photo host is on this computer: allowed by name, as a designer allows their own.
  const h = await startCoreHarness({ allowedHosts: TEST_PHOTO_HOSTS });
  const started: Array<{ close(): Promise<void> }> = [h];
  try {
    // As compressed as the app's core: its time, and its rate window (the service's real 60 s one refused
    // the core, which counts a window of 1.2 s, for up to a minute at a time).
    const service = await startSandbox({
      port: 0,
      timeScale: HARNESS_TIME_SCALE,
      rateLimit: scaledRateLimit(HARNESS_TIME_SCALE),
      ...options,
    });
    started.push(service);
    const photos = await startStaticServer();
    started.push(photos);
    const studio = await callCore(h.core, 'accounts:add', {
      name: 'Studio',
      baseUrl: service.url,
      apiKey: defaultKeys(service).personal,
    });
    let quit: Promise<void> | null = null;
    return {
      h,
      service,
      photos,
      studio,
      credits: () => service.accounts().find((account) => account.type === 'personal')!.credits,
      cliEnv: () => ({
        ...process.env,
        ADBATCH_API_KEY: defaultKeys(service).personal,
        ADBATCH_ALLOW_HOSTS: TEST_PHOTO_HOSTS.join(','),
      }),
      quitApp: () => (quit ??= h.core.stop()),
      async close() {
        await photos.close();
        if (quit) {
          await quit;
          await rm(h.dir, { recursive: true, force: true });
        } else await h.close();
        await service.close();
      },
    };
  } catch (error) {
    for (const part of started.reverse()) await part.close();
    throw error;
  }
}
