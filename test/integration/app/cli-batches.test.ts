import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { maskApiKey } from '../../../src-main/core/api/index.ts';
import { type Sandbox, startSandbox } from '../../../src-main/sandbox/server.ts';
import { adbatch, serviceRunArgs } from '../../support/cli.ts';
import { callCore, startCoreHarness } from '../../support/core-harness.ts';
import { makeProductFolders } from '../../support/product-folders.ts';
import { defaultKeys } from '../../support/sandbox-harness.ts';

// A batch made by `adbatch run` with ADBATCH_API_KEY belongs to an account that the data folder keeps,
// though the key is not stored: the app shows the batch with that account and without its key, and
// adding the same key in Settings gives the batch its key.

let service: Sandbox;
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'adbatch-cli-batches-'));
  service = await startSandbox({ port: 0, timeScale: 0.02 });
  await makeProductFolders(join(dir, 'products'), 2, 1);
});
afterAll(async () => {
  await service?.close();
  await rm(dir, { recursive: true, force: true });
});

describe("a batch of the CLI's session key, seen by the app", () => {
  it('keeps its account without the key, until the key is added in Settings', async () => {
    const apiKey = defaultKeys(service).personal;
    const run = await adbatch(
      serviceRunArgs([join(dir, 'products')], service.url, {
        dataDir: join(dir, 'data'),
        library: join(dir, 'library'),
      }),
      { env: { ...process.env, ADBATCH_API_KEY: apiKey } },
    );
    expect(run.code, run.stderr).toBe(0);

    const h = await startCoreHarness({ dir });
    try {
      const [batch] = await callCore(h.core, 'batches:list');
      expect(batch).toMatchObject({
        status: 'finished',
        accountName: `ADBATCH_API_KEY ${maskApiKey(apiKey)}`,
        keyHeld: false,
      });
      // Not an account the user can pick: its key is not here.
      expect((await callCore(h.core, 'accounts:list')).map((account) => account.name)).not.toContain(
        batch!.accountName,
      );

      await callCore(h.core, 'accounts:add', { name: 'Studio', baseUrl: service.url, apiKey });
      expect(await callCore(h.core, 'batches:get', { id: batch!.id })).toMatchObject({
        accountName: 'Studio',
        keyHeld: true,
      });
    } finally {
      await h.close();
    }
  }, 90_000);
});
