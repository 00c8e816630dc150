import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXIT } from '../../../src-main/cli/exit-codes.ts';
import { type Sandbox, startSandbox } from '../../../src-main/sandbox/server.ts';
import { adbatch, serviceRunArgs } from '../../support/cli.ts';
import { withQueueStore } from '../../support/job-states.ts';
import { makeProductFolders } from '../../support/product-folders.ts';
import { SandboxClient } from '../../support/sandbox-client.ts';

// Issue 27, point 3, on the command line: the service creates and charges two of three shoots but drops the
// connection before answering. `adbatch run` does not exit 0 or 2 as for a finished batch: it says the batch
// needs you, with the credits at stake, and exits 9; `adbatch status` says the same, `adbatch resume` never
// says "Every batch has finished." while it does. `adbatch recheck <batch>` (Check all again) settles it from
// the service's usage report: no POST sent again, not a credit moved.

const PRODUCTS = 3;
let sandbox: Sandbox;
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'adbatch-needs-you-cli-'));
  sandbox = await startSandbox({ timeScale: 0.02 });
  await makeProductFolders(join(dir, 'products'), PRODUCTS, 1);
});
afterAll(async () => {
  await sandbox?.close();
  await rm(dir, { recursive: true, force: true });
});

const key = () => sandbox.accounts()[0]!.keys[0]!.key;
const env = () => ({ ...process.env, ADBATCH_API_KEY: key() });
const dataDir = () => join(dir, 'data');
const shootPosts = () =>
  sandbox.requests().filter((entry) => entry.method === 'POST' && entry.path === '/v1/shoots').length;

describe('a batch whose creates were charged but their answers lost, on the command line', () => {
  it('exits "needs you" from run and resume, says it in status, and recheck settles it for free', async () => {
    const faults = new SandboxClient(sandbox.url);
    await faults.addFault({ method: 'POST', path: '/v1/shoots', action: 'reset', times: 2 });
    const run = await adbatch(
      serviceRunArgs([join(dir, 'products')], sandbox.url, {
        dataDir: dataDir(),
        library: join(dir, 'library'),
      }),
      { env: env() },
    );
    expect(run.code, run.stdout + run.stderr).toBe(EXIT.needsYou);
    const batch = withQueueStore(dataDir(), (ctx) => ctx.store.batches.all()[0]!);
    expect(run.stderr).toContain(
      `${batch.name}: needs you: 2 shoots or videos in doubt, 2 credits not yet settled (outcome unknown: 2). Check all again asks the service, free: nothing is sent again without your word. adbatch recheck ${batch.id} checks all again (free)`,
    );

    const status = await adbatch(['status', '--data-dir', dataDir()]);
    expect(status.stdout).toContain(`${batch.id}  needs you  ${batch.name}`);
    expect(status.stdout).toContain(
      `2 shoots or videos in doubt, 2 credits not yet settled (outcome unknown: 2). Check all again asks the service, free: nothing is sent again without your word. (adbatch recheck ${batch.id})`,
    );
    const detail = await adbatch(['status', batch.id, '--data-dir', dataDir()]);
    expect(detail.stdout).toContain(`decide: adbatch recheck ${batch.id}`);
    // First only what cannot pay twice: no `adbatch retry` before the service was asked again.
    expect(detail.stdout).toMatch(/decide: adbatch recheck j_\S+ \(free\) or adbatch abandon j_\S+\n/);
    expect(detail.stdout).not.toContain('adbatch retry');

    const resume = await adbatch(['resume', '--data-dir', dataDir()], { env: env() });
    expect(resume.code, resume.stderr).toBe(EXIT.needsYou);
    expect(resume.stdout).not.toContain('Every batch has finished.');
    expect(resume.stdout).toContain(`${batch.name}: needs you: 2 shoots or videos in doubt`);

    const posts = shootPosts();
    expect(posts).toBe(PRODUCTS);
    const before = await faults.credits(key());
    const recheck = await adbatch(['recheck', batch.id, '--data-dir', dataDir()], { env: env() });
    // Settled: the two were charged after all and their results are out of reach (a partial batch, no doubt).
    expect(recheck.code, recheck.stdout + recheck.stderr).toBe(EXIT.partial);
    expect(recheck.stderr).toContain(
      'Of 2 creates whose outcome was unknown: 2 charged by the service after all (2 credits), whose results cannot be fetched',
    );
    expect(shootPosts()).toBe(posts);
    expect(await faults.credits(key())).toBe(before);
    const after = await adbatch(['status', '--data-dir', dataDir()]);
    expect(after.stdout).toContain(`${batch.id}  finished  ${batch.name}`);
    expect(after.stdout).toContain('3 shoots: 1 made, 2 charged, results out of reach');
    const again = await adbatch(['resume', '--data-dir', dataDir()], { env: env() });
    expect(again.code).toBe(EXIT.ok);
    expect(again.stdout).toContain('Every batch has finished.');
  }, 180_000);
});
