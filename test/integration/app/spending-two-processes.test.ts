import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AgentRequestStore } from '../../../src-main/core/agents/request-store.ts';
import { SANDBOX_ACCOUNT_ID } from '../../../src-main/core/app/public-api.ts';
import { databaseFile, openDatabase } from '../../../src-main/core/db/open.ts';
import type { Lease } from '../../../src-main/core/lease.ts';
import type { BatchId } from '../../../src-main/core/queue/ids.ts';
import type { AgentRequestView } from '../../../src-main/shared/models.ts';
import { type Child, killChildren, startChild } from '../../support/child-process.ts';
import { callCore, startCoreHarness } from '../../support/core-harness.ts';
import { QUICK_SHOOT } from '../../support/job-settings.ts';
import { failEveryJob, withQueueStore } from '../../support/job-states.ts';
import { makeProductFolders } from '../../support/product-folders.ts';
import { holdQueue } from '../../support/queue-lease.ts';
import {
  type DefaultHarness,
  newKey,
  spendElsewhere,
  startDefaultHarness,
  startHarness,
} from '../../support/sandbox-harness.ts';

// Issue 27, point 1, across processes: two agents, each on a core in a process of its own on one data
// folder (as `adbatch mcp` twice beside the app), submit at once a quote of the same products that the
// day's allowance covers once. One batch is made in all; the other request waits for a person, saying the
// allowance was spent meanwhile. The test holds the queue's lease (as the app would), so neither process
// sends a create and the balance both quoted on stays as it was: only the allowance and the products decide.

const ROOT = resolve(__dirname, '../../..');
const AGENT_PROCESS = join(ROOT, 'test/harness/agent-submit-process.ts');
const DISPATCH_PROCESS = join(ROOT, 'test/harness/core-dispatch-process.ts');

let service: DefaultHarness;
let dir: string;
let lease: Lease;

beforeAll(async () => {
  service = await startDefaultHarness({ timeScale: 0.002 });
  dir = await mkdtemp(join(tmpdir(), 'adbatch-two-processes-'));
  lease = holdQueue(dir);
}, 30_000);
afterAll(async () => {
  killChildren();
  lease?.release();
  await service?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** The request rows and batches in the data folder, read from the database itself. */
function onDisk() {
  const db = openDatabase(databaseFile(join(dir, 'data')));
  try {
    return {
      allowance: new AgentRequestStore(db, Date.now).usedToday(),
      batches: db.prepare('SELECT id, agent_client AS agent FROM batches').all() as Array<{ id: string }>,
      jobs: (db.prepare('SELECT COUNT(*) AS n FROM jobs').get() as { n: number }).n,
    };
  } finally {
    db.close();
  }
}

describe('spending decisions at once, in two processes on one data folder', () => {
  it('spends an allowance that fits one batch once, whichever process is first', async () => {
    const db = openDatabase(databaseFile(join(dir, 'data')));
    new AgentRequestStore(db, Date.now).setAllowance(null, 2);
    db.close();
    const products = join(dir, 'products');
    await makeProductFolders(products, 2);
    const agents: Child[] = ['one', 'two'].map((requestId) =>
      startChild([
        '--import',
        'tsx',
        AGENT_PROCESS,
        '--dir',
        dir,
        '--sandbox-url',
        service.sandbox.url,
        '--sandbox-key',
        service.keys.personal,
        '--products',
        products,
        '--request-id',
        requestId,
      ]),
    );
    for (const agent of agents) expect((await agent.waitFor(/quoted (\d+)/))[1]).toBe('2');
    for (const agent of agents) agent.process.kill('SIGUSR2');
    const answers = await Promise.all(
      agents.map(async (agent) => {
        const [, json] = await agent.waitFor(/answer (.*)\n/);
        expect(await agent.exited).toBe(0);
        return JSON.parse(json!) as AgentRequestView;
      }),
    );
    const created = answers.filter((answer) => answer.state === 'created');
    expect(created).toHaveLength(1);
    const [other] = answers.filter((answer) => answer.state !== 'created');
    expect(other).toMatchObject({ state: 'pending', batchId: null });
    // Said when the other took the allowance while this one was being made; not when it had before this
    // one asked (the processes start their submits close together, not in lockstep).
    expect([
      null,
      'It waits for a person: the agents’ allowance of 2 credits a day has 0 left today, and this costs 2 (spent by another request while this one was being made).',
    ]).toContain(other!.reason);
    const after = onDisk();
    expect(after.batches.map((batch) => batch.id)).toEqual([created[0]!.batchId]);
    expect(after.jobs).toBe(2);
    expect(after.allowance).toBe(2);
  }, 120_000);

  it('retries one of two failed shoots, whichever process is first, when the balance covers one', async () => {
    const key = newKey();
    const small = await startHarness({
      accounts: { accounts: [{ name: 'Small', type: 'personal', credits: 5, keys: [{ key }] }] },
    });
    const folder = await mkdtemp(join(tmpdir(), 'adbatch-two-retries-'));
    const held = holdQueue(folder);
    const sandbox = ['--sandbox-url', small.sandbox.url, '--sandbox-key', key];
    try {
      // A batch of two 1-credit shoots, never sent (the test holds the lease); both then failed at the
      // service, as the engine records it.
      const maker = await startCoreHarness({ dir: folder, sandbox: { url: small.sandbox.url, apiKey: key } });
      const products = join(folder, 'products');
      const { scanId } = await callCore(maker.core, 'ingest:scan', {
        inputs: await makeProductFolders(products, 2),
      });
      const batch = await callCore(maker.core, 'batches:create', {
        scanId,
        accountId: SANDBOX_ACCOUNT_ID,
        shoot: QUICK_SHOOT,
        video: null,
        includeDone: false,
        name: 'retried in two processes',
      });
      await maker.close();
      const failed = failEveryJob(join(folder, 'data'), batch.id);
      // Another app on the same key spends 4 of the 5 credits: 1 is left, for one retry.
      await spendElsewhere(small, key, 4);
      const apps: Child[] = failed.map((id) =>
        startChild([
          '--import',
          'tsx',
          DISPATCH_PROCESS,
          '--dir',
          folder,
          ...sandbox,
          '--channel',
          'jobs:retry',
          '--args',
          JSON.stringify({ id }),
        ]),
      );
      for (const app of apps) await app.waitFor(/ready\n/);
      for (const app of apps) app.process.kill('SIGUSR2');
      const answers = await Promise.all(
        apps.map(async (app) => {
          const [, kind, json] = await app.waitFor(/(answer|refused) (.*)\n/);
          expect(await app.exited).toBe(0);
          return { kind, value: JSON.parse(json!) as unknown };
        }),
      );
      expect(answers.map((answer) => answer.kind).sort()).toEqual(['answer', 'refused']);
      // Whether the other's mark came before the retry's commit or after, the retried shoot is counted.
      expect(answers.find((answer) => answer.kind === 'refused')!.value).toEqual({
        code: 'conflict',
        message:
          'Retrying this shoot costs 1 credit; the balance is 1 credit, of which 1 is promised to jobs not yet charged. Top up first.',
      });
      const states = withQueueStore(join(folder, 'data'), (ctx) =>
        ctx.store.jobs.ofBatch(batch.id as BatchId).map((job) => job.state),
      );
      expect(states.sort()).toEqual(['failed', 'waiting']);
    } finally {
      held.release();
      await small.close();
      await rm(folder, { recursive: true, force: true });
    }
  }, 120_000);
});
