import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openCliCore } from '../../../src-main/cli/open-core.ts';
import type { BatchId } from '../../../src-main/core/queue/ids.ts';
import { createMcpServer } from '../../../src-main/mcp/server.ts';
import type { Channel } from '../../../src-main/shared/ipc.ts';
import {
  BATCH_DECISIONS,
  type BatchDecision,
  type BatchStatus,
  JOB_DECISIONS,
  type JobDecision,
  type JobState,
} from '../../../src-main/shared/vocabulary.ts';
import { credits } from '../../../src-main/shared/words.ts';
import { INTO_STATE, productJobs, withQueueStore } from '../../support/job-states.ts';
import {
  newBatch,
  products,
  SHOOT,
  SHOOT_PRICE,
  type StoreContext,
  VIDEO,
  VIDEO_PRICE,
} from '../../unit/core/queue/store-fixtures.ts';

// What the views offer is what the handlers accept: a job in every state (and a batch in every status) is
// put on a real SQLite file as the engine would leave it, then every decision is sent through the handler
// map, as the app's buttons, the CLI and an agent send them. Each one offered is done; each one not offered
// is refused, in core's words. So no front end can show a button that core then refuses.

let dataDir: string;
beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'adbatch-decisions-'));
});
afterEach(async () => {
  await rm(dataDir, { recursive: true, force: true });
});

/** Sends a decision as every front end does, through the handler map; core's refusal, or null when done. */
async function decide(
  cli: ReturnType<typeof openCliCore>,
  channel: Channel,
  id: string,
): Promise<{ code: string; message: string } | null> {
  const reply = await cli.core.dispatch(channel, { id });
  return reply.ok ? null : reply.error;
}

describe('the decisions a job offers', () => {
  it('are exactly those the handlers accept, in every state', async () => {
    const states = Object.keys(INTO_STATE) as JobState[];
    const cases = states.flatMap((state) => JOB_DECISIONS.map((decision) => ({ state, decision })));
    const jobs = withQueueStore(dataDir, (ctx) => {
      const batch = ctx.store.createBatch(newBatch({ products: products(cases.length) }));
      const each = productJobs(ctx, batch.id);
      return cases.map(({ state }, position) => {
        const { shoot, video } = each[position]!;
        const id = INTO_STATE[state](ctx, shoot, video);
        expect(ctx.store.jobs.get(id)!.state).toBe(state);
        return id;
      });
    });

    const cli = openCliCore({ dataDir, holderName: 'decisions test', leaseMode: 'none' });
    try {
      const offered = new Map<JobState, JobDecision[]>();
      for (const [index, { state, decision }] of cases.entries()) {
        const { job } = await cli.call('jobs:get', { id: jobs[index]! });
        offered.set(state, job.decisions);
        const refusal = await decide(cli, `jobs:${decision}`, job.id);
        if (job.decisions.includes(decision)) expect(refusal, `${decision} on ${state}`).toBeNull();
        else expect(refusal?.code, `${decision} on ${state}`).toBe('conflict');
      }
      // Each state a person must decide about offers something; the rest offer nothing.
      expect(Object.fromEntries(offered)).toEqual({
        waiting: [],
        submitting: [],
        running: [],
        downloading: [],
        done: [],
        owed: ['redownload'],
        failed: ['retry'],
        // Settled by the usage report as charged: its results cannot be had, only made again.
        lost: ['retry'],
        // What cannot pay twice first: a retry only once a check could not settle it (below).
        outcome_unknown: ['recheck', 'abandon'],
        stale: ['recheck'],
        cancelled: [],
        skipped: [],
      });
    } finally {
      await cli.core.stop();
    }
  });

  it('come with the credits at stake: what an unknown outcome may already have cost', async () => {
    const [unknown, failed] = withQueueStore(dataDir, (ctx) => {
      const batch = ctx.store.createBatch(newBatch({ products: products(2) }));
      const [first, second] = productJobs(ctx, batch.id);
      return [
        INTO_STATE.outcome_unknown(ctx, first!.shoot, first!.video),
        INTO_STATE.failed(ctx, second!.shoot, second!.video),
      ];
    });
    const cli = openCliCore({ dataDir, holderName: 'decisions test', leaseMode: 'none' });
    try {
      const detail = await cli.call('batches:get', {
        id: (await cli.call('jobs:get', { id: unknown! })).batchId,
      });
      const views = detail.items.flatMap((item) => item.jobs);
      expect(views.find((job) => job.id === unknown)).toMatchObject({
        price: SHOOT_PRICE,
        creditsAtStake: 8,
      });
      expect(views.find((job) => job.id === failed)).toMatchObject({ creditsAtStake: 0 });
      expect(detail.creditsAtStake).toBe(SHOOT_PRICE);
    } finally {
      await cli.core.stop();
    }
  });
});

describe('a retry where something succeeded after', () => {
  it('is neither offered nor accepted: the failed line stays as history beside the later success', async () => {
    // A product whose first shoot failed and whose first video came back unknown and was then settled as
    // lost, each made again later (a reshoot, videos made again from the picks) and that one done.
    const ids = withQueueStore(dataDir, (ctx) => {
      const batch = ctx.store.createBatch(newBatch({ products: products(2) }));
      const [first, second] = productJobs(ctx, batch.id);
      const failedShoot = INTO_STATE.failed(ctx, first!.shoot, first!.video);
      const lostVideo = INTO_STATE.lost(ctx, second!.video, second!.video);
      ctx.store.addJobs(batch.id, [
        {
          productId: first!.shoot.productId,
          kind: 'shoot',
          afterJobId: null,
          settings: SHOOT,
          price: SHOOT_PRICE,
        },
        {
          productId: second!.video.productId,
          kind: 'video',
          afterJobId: null,
          settings: VIDEO,
          price: VIDEO_PRICE,
        },
      ]);
      const later = ctx.store.jobs.ofBatch(batch.id).filter((job) => job.state === 'waiting');
      const again = later.filter((job) => job.id !== second!.shoot.id && job.afterJobId === null);
      for (const job of again) INTO_STATE.done(ctx, job, job);
      return { batchId: batch.id, failedShoot, lostVideo };
    });
    const { batchId } = ids;
    const cli = openCliCore({ dataDir, holderName: 'decisions test', leaseMode: 'none' });
    try {
      for (const [id, kind] of [
        [ids.failedShoot, 'shot'],
        [ids.lostVideo, 'made as a video'],
      ] as const) {
        const { job } = await cli.call('jobs:get', { id });
        expect(job.decisions, job.state).toEqual([]);
        // Said as an earlier attempt, which the batch page folds under the success.
        expect(job.superseded).toBe(true);
        const refusal = await decide(cli, 'jobs:retry', id);
        expect(refusal?.code).toBe('conflict');
        expect(refusal?.message).toBe(
          `Job ${id} is ${job.state}: its product was ${kind} again after it, and that succeeded: its line stays as history, and buying it again would pay twice for the same thing.`,
        );
        // The history is still there to read.
        expect(job.failureMessage).not.toBeNull();
      }
      // The batch's view says the same of each line: the two attempts that failed, and no other.
      const { items } = await cli.call('batches:get', { id: batchId });
      const earlier = items.flatMap((item) => item.jobs).filter((job) => job.superseded);
      expect(earlier.map((job) => job.id).sort()).toEqual([ids.failedShoot, ids.lostVideo].sort());
    } finally {
      await cli.core.stop();
    }
  });
});

describe('the decisions a batch offers', () => {
  /** A one-product batch (a shoot, no video) moved into a status. */
  const INTO_STATUS: Record<BatchStatus, (ctx: StoreContext, batchId: BatchId) => void> = {
    running: () => {},
    paused: (ctx, batchId) => ctx.store.batches.pause(batchId),
    cancelled: (ctx, batchId) => ctx.store.jobs.cancelBatch(batchId),
    finished: (ctx, batchId) => ctx.store.batches.setStatus(batchId, 'finished', null),
  };

  it('are exactly those the handlers accept, in every status, owing results or not', async () => {
    const cases = (Object.keys(INTO_STATUS) as BatchStatus[]).flatMap((status) =>
      [false, true].flatMap((owes) => BATCH_DECISIONS.map((decision) => ({ status, owes, decision }))),
    );
    const batches = withQueueStore(dataDir, (ctx) =>
      cases.map(({ status, owes }) => {
        const batch = ctx.store.createBatch(newBatch({ products: products(1), video: null }));
        const [only] = productJobs(ctx, batch.id);
        if (owes) INTO_STATE.owed(ctx, only!.shoot, only!.video);
        INTO_STATUS[status](ctx, batch.id);
        expect(ctx.store.batches.get(batch.id)!.status).toBe(status);
        return batch.id;
      }),
    );

    const cli = openCliCore({ dataDir, holderName: 'decisions test', leaseMode: 'none' });
    try {
      const offered = new Map<string, BatchDecision[]>();
      for (const [index, { status, owes, decision }] of cases.entries()) {
        const detail = await cli.call('batches:get', { id: batches[index]! });
        offered.set(`${status}${owes ? ', owing' : ''}`, detail.decisions);
        const refusal = await decide(cli, `batches:${decision}`, detail.id);
        const what = `${decision} on a ${status} batch${owes ? ' that owes results' : ''}`;
        if (detail.decisions.includes(decision)) expect(refusal, what).toBeNull();
        else expect(refusal?.code, what).toBe('conflict');
      }
      expect(Object.fromEntries(offered)).toEqual({
        running: ['pause', 'cancel'],
        // A job in doubt (here owed) offers Check all again, first.
        'running, owing': ['recheck', 'pause', 'cancel', 'redownload'],
        paused: ['resume', 'cancel'],
        'paused, owing': ['recheck', 'resume', 'cancel', 'redownload'],
        cancelled: [],
        'cancelled, owing': ['recheck', 'redownload'],
        finished: [],
        'finished, owing': ['recheck', 'redownload'],
      });
    } finally {
      await cli.core.stop();
    }
  });
});

describe('the decisions an agent reads', () => {
  it('are the same, each with its words, in batch_status: a person’s to make in Adbatch', async () => {
    const jobs = withQueueStore(dataDir, (ctx) => {
      const batch = ctx.store.createBatch(newBatch({ products: products(3), video: null }));
      const [unknown, stale, done] = productJobs(ctx, batch.id);
      const ids = {
        batchId: batch.id,
        unknown: INTO_STATE.outcome_unknown(ctx, unknown!.shoot, unknown!.video),
        stale: INTO_STATE.stale(ctx, stale!.shoot, stale!.video),
      };
      INTO_STATE.done(ctx, done!.shoot, done!.video);
      ctx.store.batches.setStatus(batch.id, 'finished');
      return ids;
    });
    const cli = openCliCore({ dataDir, holderName: 'decisions test', leaseMode: 'none' });
    const server = await createMcpServer({
      call: cli.call,
      exportFolders: () => [],
      defaultAccountId: 'sandbox',
      version: 'test',
    });
    const client = new Client({ name: 'Test agent', version: '1' });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    try {
      await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
      const status = await client.callTool({ name: 'batch_status', arguments: { batchId: jobs.batchId } });
      expect(status.isError).toBeFalsy();
      expect(status.structuredContent).toMatchObject({
        // Finished running, with credits in doubt: it needs a person, and says what is at stake.
        status: 'needs_you',
        statusReason: null,
        statusWords: 'needs you',
        // At stake: what the unknown outcome may have cost, and what the stale job was charged.
        needsYou: `2 shoots or videos in doubt, ${credits(2 * SHOOT_PRICE)} not yet settled (outcome unknown: 1; no answer from the service: 1). Check all again asks the service, free: nothing is sent again without your word.`,
        // Check all again first; the done job's results were never written here, so they are owed too.
        decisions: [
          { decision: 'recheck', words: 'Check all again (free)' },
          { decision: 'redownload', words: 'Download again (free)' },
        ],
        waitingForDecision: [
          {
            jobId: jobs.unknown,
            product: 'Product 1',
            kind: 'shoot',
            state: 'outcome_unknown',
            stateWords: 'outcome unknown',
            creditsAtStake: SHOOT_PRICE,
            decisions: [
              { decision: 'recheck', words: 'Check again (free)' },
              { decision: 'abandon', words: 'Abandon' },
            ],
          },
          {
            jobId: jobs.stale,
            product: 'Product 2',
            state: 'stale',
            stateWords: 'no answer from the service',
            creditsAtStake: 0,
            decisions: [{ decision: 'recheck', words: 'Check again (free)' }],
          },
        ],
      });
    } finally {
      await client.close();
      await server.close();
      await cli.core.stop();
    }
  });
});
