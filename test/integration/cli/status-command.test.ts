import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adbatch } from '../../support/cli.ts';
import { makeProductFolders } from '../../support/product-folders.ts';

// `adbatch status` right after `npm run demo` shows the demo's batch, and looking never creates a database.

const ROOT = resolve(__dirname, '../../..');
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'adbatch-status-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** The arguments `npm run demo` gives bin/adbatch.mjs, as package.json has them. */
async function demoArgs(): Promise<string[]> {
  const { scripts } = JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8'));
  const [node, bin, ...args] = (scripts.demo as string).split(' ');
  expect([node, bin]).toEqual(['node', 'bin/adbatch.mjs']);
  return args;
}

describe('adbatch status', () => {
  it("shows the demo's batch with no option, as the app would", async () => {
    // The demo's own options; a smaller folder and a faster sandbox than the bundled examples, and the
    // user's default data folder moved (ADBATCH_DATA_DIR) into this test's folder.
    const photos = join(dir, 'photos');
    await makeProductFolders(photos, 1);
    const args = (await demoArgs()).map((arg) => (arg === 'resources/examples' ? photos : arg));
    const env = { ...process.env, ADBATCH_DATA_DIR: join(dir, 'default-data') };
    const demo = await adbatch([...args, '--time-scale', '0.02'], { cwd: dir, env });
    expect(demo.code, demo.stderr).toBe(0);
    const batchId = /Batch (b_[0-9a-f]+) started/.exec(demo.stdout)?.[1];
    expect(batchId, demo.stdout).toBeDefined();

    const status = await adbatch(['status'], { cwd: dir, env });
    expect(status.code, status.stderr).toBe(0);
    expect(status.stdout).toMatch(new RegExp(`^${batchId}  finished  `, 'm'));
  }, 120_000);

  it('creates no database where nothing has run, and says where it looked', async () => {
    const nowhere = join(dir, 'never-used');
    const list = await adbatch(['status', '--data-dir', nowhere]);
    expect(list.code, list.stderr).toBe(0);
    expect(list.stdout).toBe(`No batches yet in ${nowhere}.\n`);
    const json = await adbatch(['status', '--json', '--data-dir', nowhere]);
    expect(JSON.parse(json.stdout)).toEqual([]);
    const one = await adbatch(['status', 'b_0000', '--data-dir', nowhere]);
    expect(one.code).toBe(1);
    expect(one.stderr).toBe(`adbatch: no batch b_0000: nothing has run with ${nowhere} yet\n`);
    const review = await adbatch(['review', 'b_0000', '--data-dir', nowhere]);
    expect(review.code).toBe(1);
    expect(review.stderr).toBe(`adbatch: nothing has run with ${nowhere} yet\n`);
    const photos = join(dir, 'scan-photos');
    await makeProductFolders(photos, 1);
    const scan = await adbatch(['scan', photos, '--data-dir', nowhere, '--library', join(dir, 'library')]);
    expect(scan.code, scan.stderr).toBe(0);
    expect(existsSync(nowhere)).toBe(false);
  }, 60_000);
});
