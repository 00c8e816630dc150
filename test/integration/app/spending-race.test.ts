import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SANDBOX_ACCOUNT_ID } from '../../../src-main/core/app/public-api.ts';
import type { BatchId } from '../../../src-main/core/queue/ids.ts';
import type { ArgsOf, Channel } from '../../../src-main/shared/ipc.ts';
import type { AccountView, AgentRequestView } from '../../../src-main/shared/models.ts';
import {
  type CoreHarness,
  callCore,
  finishedBatch,
  pickResults,
  refusalOf,
  startCoreHarness,
  untilFinished,
} from '../../support/core-harness.ts';
import { type CoreOnSandbox, startCoreOnSandbox } from '../../support/core-on-sandbox.ts';
import { QUICK_SHOOT } from '../../support/job-settings.ts';
import { failEveryJob, withQueueStore } from '../../support/job-states.ts';
import { makeProductFolders } from '../../support/product-folders.ts';
import { holdQueue } from '../../support/queue-lease.ts';
import {
  type DefaultHarness,
  type Harness,
  newKey,
  spendElsewhere,
  startHarness,
} from '../../support/sandbox-harness.ts';

// Issue 27, point 1: spending decisions are atomic. Calls at once, through the handler map every transport
// uses, on a real SQLite file against a real sandbox over HTTP: the allowance, "already in flight" and "one
// quote, one batch" each hold for one of them only, and the others are refused saying why. (Across two
// processes: spending-two-processes.test.ts.)

let world: CoreOnSandbox;
let service: DefaultHarness;
let h: CoreHarness;
let products: string;
let account: AccountView;
const CLIENT = 'Racing agent';

const call = <C extends Channel>(channel: C, args?: ArgsOf<C>) => callCore(h.core, channel, args);

beforeAll(async () => {
  world = await startCoreOnSandbox('adbatch-spending-');
  ({ service, h, products, account } = world);
}, 30_000);
afterAll(async () => {
  await world?.close();
});

const scanOf = async (name: string, count: number) =>
  (await call('ingest:scan', { inputs: await makeProductFolders(join(products, name), count) })).scanId;

/** An agent's quote of `count` fresh products, one 1-credit shot each. */
async function agentQuote(name: string, count: number) {
  return call('agents:quote', {
    client: CLIENT,
    request: {
      scanId: await scanOf(name, count),
      accountId: account.id,
      shoot: QUICK_SHOOT,
      video: null,
      includeDone: true,
      name,
    },
  });
}

const batchesNamed = async (name: string) =>
  (await call('batches:list')).filter((batch) => batch.name === name);

/** Sets the day's allowance so that `credits` more fit today, and no more. */
async function allowanceFitting(credits: number) {
  const { usedToday } = await call('agents:allowance');
  await call('agents:setAllowance', { brandId: null, credits: usedToday + credits });
  return usedToday;
}

/**
 * A core on a fresh data folder that does not drive the queue (the test holds its lease, as the app would
 * beside `adbatch mcp`), on a sandbox key as its Sandbox account: no create is sent, so the balance quoted on
 * holds and only the limits under test decide. Released (`letGo`), the queue is the guest's to drive.
 */
async function withGuestCore(
  sandbox: { url: string; apiKey: string },
  use: (guest: CoreHarness, letGo: () => void) => Promise<void>,
) {
  const dir = await mkdtemp(join(tmpdir(), 'adbatch-guest-'));
  const lease = holdQueue(dir);
  const guest = await startCoreHarness({ dir, sandbox });
  try {
    await use(guest, () => lease.release());
  } finally {
    await guest.close();
    lease.release();
    await rm(dir, { recursive: true, force: true });
  }
}

/** A sandbox whose one account holds `credits`, and a guest core on its key (`withGuestCore`). */
async function onSmallAccount(
  credits: number,
  use: (guest: CoreHarness, small: Harness, key: string, letGo: () => void) => Promise<void>,
) {
  const key = newKey();
  const small = await startHarness({
    accounts: { accounts: [{ name: 'Small', type: 'personal', credits, keys: [{ key }] }] },
  });
  try {
    await withGuestCore({ url: small.sandbox.url, apiKey: key }, (guest, letGo) =>
      use(guest, small, key, letGo),
    );
  } finally {
    await small.close();
  }
}

/** A New batch request of 3 fresh products on the guest's Sandbox account, one 1-credit shot each. */
async function threeProducts(guest: CoreHarness, folder: string, backgroundColor: string) {
  const { scanId } = await callCore(guest.core, 'ingest:scan', {
    inputs: await makeProductFolders(join(products, folder), 3),
  });
  return {
    scanId,
    accountId: SANDBOX_ACCOUNT_ID,
    shoot: { ...QUICK_SHOOT, backgroundColor },
    video: null,
    includeDone: false,
  };
}

/** What a quote says of the balance. */
const balanceSaid = (quote: { balance: number | null; promised: number; shortfall: number }) => ({
  balance: quote.balance,
  promised: quote.promised,
  shortfall: quote.shortfall,
});

const submit = (quoteId: string, clientRequestId: string) =>
  h.core.dispatch('agents:submit', { client: CLIENT, quoteId, clientRequestId });

describe('spending decisions at once, in one process', () => {
  it('makes one batch of one quote submitted three times at once within an allowance that fits it once', async () => {
    const used = await allowanceFitting(3);
    const quote = await agentQuote('one quote', 2);
    expect(quote.credits).toBe(2);
    const answers = await Promise.all(['a', 'b', 'c'].map((id) => submit(quote.quoteId, `once-${id}`)));
    const created = answers.flatMap((answer) => (answer.ok ? [answer.value as AgentRequestView] : []));
    expect(created).toHaveLength(1);
    expect(created[0]).toMatchObject({ state: 'created', decidedBy: 'the allowance' });
    const [batch] = await batchesNamed('one quote');
    expect(created[0]!.batchId).toBe(batch!.id);
    const refusals = answers.flatMap((answer) => (answer.ok ? [] : [answer.error]));
    expect(refusals).toHaveLength(2);
    for (const refusal of refusals) {
      expect(refusal.code).toBe('conflict');
      expect(refusal.message).toMatch(
        new RegExp(
          `^The quote ${quote.quoteId} was used already: (it made batch ${batch!.id} \\("one quote"\\), as request ${created[0]!.id}|it is request ${created[0]!.id}, still pending)\\. One quote makes one batch: quote again for another\\.$`,
        ),
      );
    }
    expect(await batchesNamed('one quote')).toHaveLength(1);
    // One spend on the allowance: 2 of its 3 credits.
    expect(await call('agents:allowance')).toMatchObject({ usedToday: used + 2 });
    expect((await call('agents:requests')).filter((one) => one.name === 'one quote')).toHaveLength(1);
    await untilFinished(h.core, batch!.id);
    expect((await call('batches:get', { id: batch!.id })).jobs).toBe(2);
    await call('agents:setAllowance', { brandId: null, credits: null });
  }, 60_000);

  it('spends the allowance once when three quotes that each fit it alone are submitted at once', async () => {
    await withGuestCore({ url: service.sandbox.url, apiKey: service.keys.personal }, async (guest) => {
      const on = <C extends Channel>(channel: C, args?: ArgsOf<C>) => callCore(guest.core, channel, args);
      await on('agents:setAllowance', { brandId: null, credits: 2 });
      const quotes = await Promise.all(
        ['first', 'second', 'third'].map(async (name) =>
          on('agents:quote', {
            client: CLIENT,
            request: {
              scanId: (
                await on('ingest:scan', {
                  inputs: await makeProductFolders(join(products, `fits ${name}`), 2),
                })
              ).scanId,
              accountId: SANDBOX_ACCOUNT_ID,
              shoot: QUICK_SHOOT,
              video: null,
              includeDone: true,
              name: `fits ${name}`,
            },
          }),
        ),
      );
      const answers = await Promise.all(
        quotes.map((quote, index) =>
          on('agents:submit', { client: CLIENT, quoteId: quote.quoteId, clientRequestId: `fits-${index}` }),
        ),
      );
      const created = answers.filter((answer) => answer.state === 'created');
      expect(created).toHaveLength(1);
      const waiting = answers.filter((answer) => answer.state === 'pending');
      expect(waiting).toHaveLength(2);
      for (const request of waiting) {
        expect(request.batchId).toBeNull();
        expect(request.reason).toBe(
          'It waits for a person: the agents’ allowance of 2 credits a day has 0 left today, and this costs 2 (spent by another request while this one was being made).',
        );
      }
      expect((await on('batches:list')).map((batch) => batch.id)).toEqual([created[0]!.batchId]);
      expect(await on('agents:allowance')).toMatchObject({ usedToday: 2 });
      // They wait in Requests from agents for a person's yes or no.
      const listed = await on('agents:requests');
      expect(waiting.map((request) => listed.find((one) => one.id === request.id)?.state)).toEqual([
        'pending',
        'pending',
      ]);
    });
  }, 60_000);

  it('makes one batch of two New batch creates at once for the same products and settings', async () => {
    const scanId = await scanOf('twice at once', 3);
    const request = {
      scanId,
      accountId: account.id,
      // A background of its own: the fixtures' photos were shot in the other tests with QUICK_SHOOT.
      shoot: { ...QUICK_SHOOT, backgroundColor: '#a1b2c3' },
      video: null,
      includeDone: false,
      name: 'twice at once',
    };
    const answers = await Promise.all([
      h.core.dispatch('batches:create', request),
      h.core.dispatch('batches:create', request),
    ]);
    const made = await batchesNamed('twice at once');
    expect(made).toHaveLength(1);
    expect(answers.filter((answer) => answer.ok)).toHaveLength(1);
    const refusal = answers.find((answer) => !answer.ok);
    expect(refusal && !refusal.ok && refusal.error).toEqual({
      code: 'conflict',
      message: `product-01, product-02, product-03 are already being shot from these photos with these settings, in batch ${made[0]!.id} ("twice at once") made meanwhile: nothing was made.`,
    });
    await untilFinished(h.core, made[0]!.id);
  }, 60_000);

  it('refuses a quote used a second time, naming the request and the batch it made', async () => {
    const quote = await agentQuote('used twice', 1);
    const first = await call('agents:submit', {
      client: CLIENT,
      quoteId: quote.quoteId,
      clientRequestId: 'twice-1',
    });
    expect(first.state).toBe('pending');
    const whilePending = await refusalOf(h.core, 'agents:submit', {
      client: CLIENT,
      quoteId: quote.quoteId,
      clientRequestId: 'twice-2',
    });
    expect(whilePending).toEqual({
      code: 'conflict',
      message: `The quote ${quote.quoteId} was used already: it is request ${first.id}, still pending. One quote makes one batch: quote again for another.`,
    });
    const approved = await call('agents:approve', { id: first.id });
    expect(approved.state).toBe('created');
    expect(
      await refusalOf(h.core, 'agents:submit', {
        client: CLIENT,
        quoteId: quote.quoteId,
        clientRequestId: 'twice-3',
      }),
    ).toEqual({
      code: 'conflict',
      message: `The quote ${quote.quoteId} was used already: it made batch ${approved.batchId} ("used twice"), as request ${first.id}. One quote makes one batch: quote again for another.`,
    });
    // The same client request id is still the same request, not a second use.
    expect(
      await call('agents:submit', { client: CLIENT, quoteId: quote.quoteId, clientRequestId: 'twice-1' }),
    ).toMatchObject({ id: first.id, batchId: approved.batchId });
    expect(await batchesNamed('used twice')).toHaveLength(1);
  }, 60_000);

  it('adds videos from the picks once when Make videos is asked twice at once', async () => {
    const batchId = await finishedBatch(h.core, {
      inputs: await makeProductFolders(join(products, 'videos twice'), 2),
      name: 'videos twice',
      accountId: account.id,
    });
    const { items } = await call('review:get', { batchId });
    await pickResults(
      h.core,
      batchId,
      items.map((item) => item.id),
    );
    const request = {
      batchId,
      video: {
        duration: 5 as const,
        resolution: '480p' as const,
        mode: 'product_only' as const,
        aspectRatio: null,
        music: false,
      },
    };
    const answers = await Promise.all([
      h.core.dispatch('videos:create', request),
      h.core.dispatch('videos:create', request),
    ]);
    expect(answers.filter((answer) => answer.ok)).toHaveLength(1);
    const refusal = answers.find((answer) => !answer.ok);
    expect(refusal && !refusal.ok && refusal.error).toEqual({
      code: 'conflict',
      message:
        'Videos of product-01, product-02 were added to this batch meanwhile: nothing was added twice.',
    });
    // Two shoots and one video per product.
    expect((await call('batches:get', { id: batchId })).jobs).toBe(4);
  }, 60_000);

  it('spends a balance that covers one of two batches once, when both are created at once', async () => {
    await onSmallAccount(5, async (guest) => {
      const scanOn = async (name: string) =>
        (
          await callCore(guest.core, 'ingest:scan', {
            inputs: await makeProductFolders(join(products, name), 3),
          })
        ).scanId;
      const create = (scanId: string, name: string, backgroundColor: string) =>
        guest.core.dispatch('batches:create', {
          scanId,
          accountId: SANDBOX_ACCOUNT_ID,
          shoot: { ...QUICK_SHOOT, backgroundColor },
          video: null,
          includeDone: false,
          name,
        });
      // Scanned first, created together: each is quoted 3 credits on a balance of 5.
      const scans = [await scanOn('small one'), await scanOn('small two')];
      const answers = await Promise.all([
        create(scans[0]!, 'small one', '#101010'),
        create(scans[1]!, 'small two', '#202020'),
      ]);
      expect(answers.filter((answer) => answer.ok)).toHaveLength(1);
      const refusal = answers.find((answer) => !answer.ok);
      expect(refusal && !refusal.ok && refusal.error).toEqual({
        code: 'conflict',
        message:
          'This batch costs 3 credits; the balance is 5 credits, of which 3 are promised to jobs not yet charged. Top up or choose fewer products.',
      });
      expect(await callCore(guest.core, 'batches:list')).toHaveLength(1);
    });
  }, 60_000);

  it("counts another batch's jobs still waiting their turn against the balance, in the quote and at the start", async () => {
    await onSmallAccount(5, async (guest) => {
      // The guest's queue sends nothing: the first batch's 3 credits wait their turn, still uncharged.
      await callCore(guest.core, 'batches:create', {
        ...(await threeProducts(guest, 'waiting first', '#404040')),
        name: 'waiting first',
      });
      const request = await threeProducts(guest, 'after it', '#505050');
      const second = { ...request, name: 'after it' };
      expect(balanceSaid(await callCore(guest.core, 'batches:quote', request))).toEqual({
        balance: 5,
        promised: 3,
        shortfall: 1,
      });
      const refusal = await guest.core.dispatch('batches:create', second);
      expect(!refusal.ok && refusal.error).toEqual({
        code: 'conflict',
        message:
          'This batch costs 3 credits; the balance is 5 credits, of which 3 are promised to jobs not yet charged. Top up or choose fewer products.',
      });
      expect((await callCore(guest.core, 'batches:list')).map((batch) => batch.name)).toEqual([
        'waiting first',
      ]);
    });
  }, 60_000);

  it('takes what was charged since the balance was last asked off the next quote, the cache notwithstanding', async () => {
    await onSmallAccount(10, async (guest, small, _key, letGo) => {
      const first = await callCore(guest.core, 'batches:create', {
        ...(await threeProducts(guest, 'charged first', '#606060')),
        name: 'charged first',
      });
      const second = await threeProducts(guest, 'quoted twice', '#707070');
      // Asked of the service now (a start forgets the balance), and cached: 3 of it promised to the first batch.
      expect(balanceSaid(await callCore(guest.core, 'batches:quote', second))).toEqual({
        balance: 10,
        promised: 3,
        shortfall: 0,
      });
      // The queue let go, the guest drives it: the first batch's 3 credits are charged.
      letGo();
      await untilFinished(guest.core, first.id);
      // Quoted again from the cache (said up to 30 s ago): the 3 charged since are taken off, not shown free.
      expect(balanceSaid(await callCore(guest.core, 'batches:quote', second))).toEqual({
        balance: 7,
        promised: 0,
        shortfall: 0,
      });
      expect(small.sandbox.accounts()[0]!.credits).toBe(7);
    });
  }, 60_000);

  it('retries one of two failed shoots when the balance covers one, and says so of the other', async () => {
    await onSmallAccount(5, async (guest, small, key) => {
      const { scanId } = await callCore(guest.core, 'ingest:scan', {
        inputs: await makeProductFolders(join(products, 'retried'), 2),
      });
      const batch = await callCore(guest.core, 'batches:create', {
        scanId,
        accountId: SANDBOX_ACCOUNT_ID,
        shoot: { ...QUICK_SHOOT, backgroundColor: '#303030' },
        video: null,
        includeDone: false,
        name: 'retried',
      });
      // Both shoots failed at the service, as the engine records it, on the guest's own database.
      const failed = failEveryJob(join(guest.dir, 'data'), batch.id);
      // Another app on the same key spends 4 of the 5 credits: 1 is left, for one retry.
      await spendElsewhere(small, key, 4);
      const answers = await Promise.all(failed.map((id) => guest.core.dispatch('jobs:retry', { id })));
      expect(answers.filter((answer) => answer.ok)).toHaveLength(1);
      const refusal = answers.find((answer) => !answer.ok);
      expect(refusal && !refusal.ok && refusal.error).toEqual({
        code: 'conflict',
        message:
          'Retrying this shoot costs 1 credit; the balance is 1 credit, of which 1 is promised to jobs not yet charged. Top up first.',
      });
      const states = withQueueStore(join(guest.dir, 'data'), (ctx) =>
        ctx.store.jobs.ofBatch(batch.id as BatchId).map((job) => job.state),
      );
      expect(states.sort()).toEqual(['failed', 'waiting']);
    });
  }, 60_000);
});
