import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ArgsOf, Channel } from '../../../src-main/shared/ipc.ts';
import type { AccountView } from '../../../src-main/shared/models.ts';
import { type CoreHarness, callCore, refusalOf } from '../../support/core-harness.ts';
import { type CoreOnSandbox, startCoreOnSandbox } from '../../support/core-on-sandbox.ts';
import { QUICK_SHOOT } from '../../support/job-settings.ts';
import { makeProductFolders } from '../../support/product-folders.ts';
import type { DefaultHarness } from '../../support/sandbox-harness.ts';
import { until } from '../../support/until.ts';

// Issue 27, point 3: money in doubt is a state of its own. The service creates and charges two shoots but
// drops the connection before answering (the sandbox's `reset` fault): the jobs are rightly outcome unknown,
// and the batch, which has nothing left to run, is "needs you", never "finished", with the credits at stake.
// What it offers first cannot pay twice: "Check all again" looks for the lost creates in the service's usage
// report, free, and settles them (charged after all: their results are out of reach); no POST is sent again
// and the balance does not move. Through the handler map every front end calls, on a real SQLite file,
// against a real sandbox over HTTP.

const PRODUCTS = 3;
let world: CoreOnSandbox;
let service: DefaultHarness;
let h: CoreHarness;
let products: string;
let personal: AccountView;

const call = <C extends Channel>(channel: C, args?: ArgsOf<C>) => callCore(h.core, channel, args);

beforeAll(async () => {
  world = await startCoreOnSandbox('adbatch-needs-you-');
  ({ service, h, products, account: personal } = world);
}, 30_000);
afterAll(async () => {
  await world?.close();
});

const shootPosts = () =>
  service.sandbox.requests().filter((entry) => entry.method === 'POST' && entry.path === '/v1/shoots');
const balance = () => service.client.credits(service.keys.personal);

describe('a batch whose creates were charged but their answers lost', () => {
  it('needs you, with the credits at stake, until Check all again settles it for free', async () => {
    await service.client.addFault({ method: 'POST', path: '/v1/shoots', action: 'reset', times: 2 });
    const dirs = await makeProductFolders(join(products, 'dropped'), PRODUCTS);
    const scan = await call('ingest:scan', { inputs: dirs });
    const { id } = await call('batches:create', {
      scanId: scan.scanId,
      accountId: personal.id,
      shoot: QUICK_SHOOT,
      video: null,
      includeDone: true,
      name: 'Dropped answers',
    });
    // Nothing left to run: the engine is done with it, and it says "needs you", not "finished".
    await until(async () => ['needs_you', 'finished'].includes((await call('batches:get', { id })).status));
    const doubtful = await call('batches:get', { id });
    const price = doubtful.items[0]!.jobs[0]!.price;
    expect(doubtful).toMatchObject({
      status: 'needs_you',
      attention: 2,
      states: { done: 1, outcome_unknown: 2 },
      creditsAtStake: 2 * price,
      creditsInDoubt: 2 * price,
      decisions: ['recheck'],
    });
    expect((await call('batches:list')).find((batch) => batch.id === id)?.status).toBe('needs_you');
    const unknown = doubtful.items
      .flatMap((item) => item.jobs)
      .filter((job) => job.state === 'outcome_unknown');
    // First only what cannot pay twice: check again, or give it up. A retry is refused, and says why.
    for (const job of unknown) expect(job.decisions).toEqual(['recheck', 'abandon']);
    const refusal = await refusalOf(h.core, 'jobs:retry', { id: unknown[0]!.id });
    expect(refusal.code).toBe('conflict');
    expect(refusal.message).toContain('check it again first');

    const posts = shootPosts().length;
    expect(posts).toBe(PRODUCTS);
    const before = await balance();
    const usageReads = () =>
      service.sandbox
        .requests()
        .filter((entry) => entry.method === 'GET' && entry.path.startsWith('/v1/usage')).length;
    const reads = usageReads();

    const checked = await call('batches:recheck', { id });
    expect(checked.status).toBe('finished');
    const settled = await call('batches:get', { id });
    expect(settled).toMatchObject({
      status: 'finished',
      attention: 0,
      states: { done: 1, lost: 2 },
      creditsAtStake: 0,
      creditsInDoubt: 0,
      creditsSpent: PRODUCTS * price,
      decisions: [],
    });
    for (const job of settled.items.flatMap((item) => item.jobs).filter((one) => one.state === 'lost')) {
      expect(job.failureMessage).toMatch(/^The service charged it after all/);
      // Now a retry is the only way to its results, and it says it pays again.
      expect(job.decisions).toEqual(['retry']);
    }
    // Free: one usage report read, no POST sent again, not a credit moved.
    expect(usageReads()).toBe(reads + 1);
    expect(shootPosts()).toHaveLength(posts);
    expect(await balance()).toBe(before);
    expect(
      h.notices.find((notice) => notice.id === id && notice.message.startsWith('Checked again'))?.message,
    ).toBe(
      `Checked again, free: Of 2 creates whose outcome was unknown: 2 charged by the service after all (${2 * price} credits), whose results cannot be fetched: the answer with their id was lost.`,
    );
    // Asked again, it has nothing in doubt: refused in words.
    expect((await refusalOf(h.core, 'batches:recheck', { id })).message).toBe(
      `Batch ${id} has nothing in doubt: there is nothing to check again.`,
    );
  }, 60_000);

  it('offers Retry, with its price, only once the usage report could not settle it', async () => {
    await service.client.addFault({ method: 'POST', path: '/v1/shoots', action: 'reset', times: 1 });
    const dirs = await makeProductFolders(join(products, 'blurred'), 1);
    const scan = await call('ingest:scan', { inputs: dirs });
    const { id } = await call('batches:create', {
      scanId: scan.scanId,
      accountId: personal.id,
      shoot: QUICK_SHOOT,
      video: null,
      includeDone: true,
      name: 'Blurred by other spending',
    });
    await until(async () => (await call('batches:get', { id })).status === 'needs_you');
    // The same credits spent outside Adbatch (the service's own app, another tool): the report's difference
    // is no longer the stake, so it cannot say whether this create was charged.
    const outside = await service.client.createShoot(service.keys.personal, {
      product_image_urls: [service.photo()],
      style: 'classic',
      shots: 1,
    });
    expect(outside.status).toBe(201);
    const [job] = (await call('batches:get', { id })).items[0]!.jobs;

    await call('jobs:recheck', { id: job!.id });
    const checked = (await call('jobs:get', { id: job!.id })).job;
    expect(checked.state).toBe('outcome_unknown');
    expect(checked.failureMessage).toMatch(
      /^Asked the service’s usage report: it could not settle whether this shoot was made and charged\. .* spent outside Adbatch.* A retry may pay twice\.$/,
    );
    expect(checked.decisions).toEqual(['recheck', 'retry', 'abandon']);
    expect((await call('batches:get', { id })).status).toBe('needs_you');

    // Retried by a person's word: it is sent again, made, and the batch has nothing left in doubt.
    await call('jobs:retry', { id: job!.id });
    await until(async () => (await call('batches:get', { id })).status === 'finished');
    expect((await call('batches:get', { id })).states).toEqual({ done: 1 });
  }, 60_000);
});
