import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../../../src-main/sandbox/server.ts';
import { adbatch, serviceRunArgs } from '../../support/cli.ts';
import { makeProductFolders } from '../../support/product-folders.ts';
import { SandboxClient } from '../../support/sandbox-client.ts';

// Issue 31, point 5, on the command line: `adbatch run` against the sandbox over HTTP, with a video failed
// while it is made. The quote says how each price adds up; the progress and `adbatch status` say charged,
// refunded and net, and count the failed video as failed (its credits refunded, as the money line says), never as made, in the words the app
// and MCP use (shared/money-words.ts).

const PRODUCTS = 3;
let sandbox: Sandbox;
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'adbatch-money-cli-'));
  // Slow enough that a video is still being made when the test fails it (about 5 s each).
  sandbox = await startSandbox({ timeScale: 0.03 });
  await makeProductFolders(join(dir, 'products'), PRODUCTS, 1);
});
afterAll(async () => {
  await sandbox?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('money on the command line', () => {
  it('prints the price breakdown, then charged, refunded and net with a failed video counted as failed', async () => {
    const service = new SandboxClient(sandbox.url);
    const key = sandbox.accounts()[0]!.keys[0]!.key;
    const dataDir = join(dir, 'data');
    const balance = await service.credits(key);
    const run = adbatch(
      serviceRunArgs([join(dir, 'products')], sandbox.url, { dataDir, library: join(dir, 'library') }, [
        '--video',
        '5s/1080p',
      ]),
      { env: { ...process.env, ADBATCH_API_KEY: key } },
    );
    // The first video the service starts is failed while it is made: the service refunds it.
    let failed: string | undefined;
    await expect
      .poll(
        async () => {
          for (const job of await service.jobs()) {
            if (job.kind !== 'video' || job.status === 'completed' || job.status === 'failed') continue;
            if ((await service.failJob(job.id)).status === 200) failed = job.id;
            break;
          }
          return failed;
        },
        { timeout: 60_000, interval: 100 },
      )
      .toBeDefined();
    const result = await run;
    expect(result.code, result.stderr).not.toBeNull();
    expect(result.stdout).toContain('Each shoot: 1 shot x 1 credit a shot = 1 credit');
    expect(result.stdout).toContain(
      'Each video: 5 s x 9 credits a second = 45 - 6 (15 % off without a model, rounded down to whole credits) = 39 credits',
    );
    // 3 x (1 + 39) quoted; the failed video's 39 refunded.
    const money = '120 credits charged, 39 refunded, 81 net';
    expect(result.stderr).toContain(`6 shoots and videos: 5 made, 1 failed  ${money}`);
    const status = await adbatch(['status', '--data-dir', dataDir]);
    expect(status.stdout).toContain(`6 shoots and videos: 5 made, 1 failed; ${money}, of 120 quoted`);
    expect(status.stdout).not.toMatch(/6 made/);
    expect(await service.credits(key)).toBe(balance - 81);
  }, 180_000);
});
