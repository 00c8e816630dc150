import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AccountView } from '../../src-main/shared/models.ts';
import { type CoreHarness, callCore, startCoreHarness } from './core-harness.ts';
import { type DefaultHarness, startDefaultHarness } from './sandbox-harness.ts';

// The app's core on a real sandbox over HTTP, as the app tests of money and agents need it: a fast sandbox,
// a core on its own data folder, the sandbox's personal key added as the account "Personal", and a folder
// for the products a test makes.

export interface CoreOnSandbox {
  service: DefaultHarness;
  h: CoreHarness;
  /** An empty folder of the test's own, for its product folders. */
  products: string;
  /** The sandbox's personal key, added as a service account. */
  account: AccountView;
  close(): Promise<void>;
}

export async function startCoreOnSandbox(prefix: string): Promise<CoreOnSandbox> {
  const service = await startDefaultHarness({ timeScale: 0.002 });
  const h = await startCoreHarness();
  const products = await mkdtemp(join(tmpdir(), prefix));
  const account = await callCore(h.core, 'accounts:add', {
    name: 'Personal',
    baseUrl: service.sandbox.url,
    apiKey: service.keys.personal,
  });
  return {
    service,
    h,
    products,
    account,
    async close() {
      await h.close();
      await service.close();
      await rm(products, { recursive: true, force: true });
    },
  };
}
