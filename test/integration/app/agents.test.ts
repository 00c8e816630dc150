import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ArgsOf, Channel } from '../../../src-main/shared/ipc.ts';
import type { AccountView, AgentRequestView } from '../../../src-main/shared/models.ts';
import {
  type CoreHarness,
  callCore,
  refusalOf,
  startCoreHarness,
  untilFinished,
} from '../../support/core-harness.ts';
import { type CoreOnSandbox, startCoreOnSandbox } from '../../support/core-on-sandbox.ts';
import { QUICK_SHOOT } from '../../support/job-settings.ts';
import { makeProductFolders } from '../../support/product-folders.ts';
import type { DefaultHarness } from '../../support/sandbox-harness.ts';

// Issue 16's rule, through the handler map every transport calls: an agent's batch is made only with a
// person's yes, or within the allowance the user set (none by default). Against a real sandbox over HTTP,
// whose request log shows what was sent: a pending, declined or expired request sends no create; the same
// client request id twice makes one request and one batch; two approvals at once make one batch.

let world: CoreOnSandbox;
let service: DefaultHarness;
let h: CoreHarness;
let products: string;
let account: AccountView;
const CLIENT = 'Test agent';

const call = <C extends Channel>(channel: C, args?: ArgsOf<C>) => callCore(h.core, channel, args);

beforeAll(async () => {
  world = await startCoreOnSandbox('adbatch-agents-');
  ({ service, h, products, account } = world);
}, 30_000);
afterAll(async () => {
  await world?.close();
});

/** An agent's quote of `count` fresh products, one 1-credit shot each. */
async function agentQuote(name: string, count: number) {
  const scan = await call('ingest:scan', { inputs: await makeProductFolders(join(products, name), count) });
  return call('agents:quote', {
    client: CLIENT,
    request: {
      scanId: scan.scanId,
      accountId: account.id,
      shoot: QUICK_SHOOT,
      video: null,
      includeDone: true,
      name,
    },
  });
}

const creates = async () =>
  (await service.client.requestLog()).filter(
    (entry) => entry.method === 'POST' && entry.path === '/v1/shoots',
  ).length;

const batchNamed = async (name: string) =>
  (await call('batches:list')).filter((batch) => batch.name === name);

describe('an agent’s request to spend', () => {
  it('waits for a person: nothing is sent until the yes, and a retried submit is the same request', async () => {
    const before = await creates();
    const quote = await agentQuote('waits', 2);
    expect(quote).toMatchObject({ credits: 2, shortfall: 0 });
    const submitted = await call('agents:submit', {
      client: CLIENT,
      quoteId: quote.quoteId,
      clientRequestId: 'req-1',
    });
    expect(submitted).toMatchObject({
      state: 'pending',
      client: CLIENT,
      credits: 2,
      products: 2,
      batchId: null,
      accountName: 'Personal',
    });
    const again = await call('agents:submit', {
      client: CLIENT,
      quoteId: quote.quoteId,
      clientRequestId: 'req-1',
    });
    expect(again.id).toBe(submitted.id);
    expect((await call('agents:requests')).filter((one) => one.clientRequestId === 'req-1')).toHaveLength(1);
    expect(await batchNamed('waits')).toEqual([]);
    expect(await creates()).toBe(before);

    const approved = await call('agents:approve', { id: submitted.id });
    expect(approved).toMatchObject({ state: 'created', decidedBy: 'Adbatch' });
    const [batch] = await batchNamed('waits');
    expect(approved.batchId).toBe(batch!.id);
    // The batch is on the record as the agent's.
    expect(batch!.agentClient).toBe(CLIENT);
    await untilFinished(h.core, batch!.id);
    expect(await creates()).toBe(before + 2);
    // Its charges in the ledger name the agent too.
    const ledger = new Database(join(h.dir, 'data', 'adbatch.db'), { readonly: true });
    try {
      expect(
        ledger.prepare('SELECT type, agent_client FROM ledger WHERE batch_id = ?').all(batch!.id),
      ).toEqual([
        { type: 'charge', agent_client: CLIENT },
        { type: 'charge', agent_client: CLIENT },
      ]);
    } finally {
      ledger.close();
    }
    // Submitted again after the batch was made: still that request, no second batch.
    expect(
      await call('agents:submit', { client: CLIENT, quoteId: quote.quoteId, clientRequestId: 'req-1' }),
    ).toMatchObject({ id: submitted.id, state: 'created', batchId: batch!.id });
    expect(await batchNamed('waits')).toHaveLength(1);
    // Decided is decided.
    expect((await refusalOf(h.core, 'agents:approve', { id: submitted.id })).message).toMatch(
      /approved already/,
    );
  }, 60_000);

  it('makes nothing once declined', async () => {
    const before = await creates();
    const quote = await agentQuote('declined', 1);
    const submitted = await call('agents:submit', {
      client: CLIENT,
      quoteId: quote.quoteId,
      clientRequestId: 'req-2',
    });
    const declined = await call('agents:decline', { id: submitted.id, reason: 'Not this week' });
    expect(declined).toMatchObject({ state: 'declined', reason: 'Not this week', batchId: null });
    expect((await refusalOf(h.core, 'agents:approve', { id: submitted.id })).code).toBe('conflict');
    expect(await batchNamed('declined')).toEqual([]);
    expect(await creates()).toBe(before);
  });

  it('expires a quote whose balance changed before the yes, and makes nothing', async () => {
    const quote = await agentQuote('expires', 1);
    const submitted = await call('agents:submit', {
      client: CLIENT,
      quoteId: quote.quoteId,
      clientRequestId: 'req-3',
    });
    // Credits spent outside Adbatch since the quote: the balance it was made on is gone.
    const outside = await service.client.createShoot(service.keys.personal, {
      product_image_urls: [service.photo()],
      style: 'classic',
      shots: 1,
      quality: 'standard',
    });
    expect(outside.status).toBe(201);
    const before = await creates();
    const decided = await call('agents:approve', { id: submitted.id });
    expect(decided.state).toBe('expired');
    expect(decided.reason).toBe(
      `The quote no longer holds: the balance is now ${quote.balance! - 1} credits, not ${quote.balance}. Ask the agent to quote again.`,
    );
    expect(await batchNamed('expires')).toEqual([]);
    expect(await creates()).toBe(before);
  });

  it('makes one batch when two people say yes at once', async () => {
    const quote = await agentQuote('twice', 1);
    const submitted = await call('agents:submit', {
      client: CLIENT,
      quoteId: quote.quoteId,
      clientRequestId: 'req-4',
    });
    const answers = await Promise.allSettled([
      call('agents:approve', { id: submitted.id, by: 'adbatch approve' }),
      call('agents:approve', { id: submitted.id }),
    ]);
    expect(answers.filter((answer) => answer.status === 'fulfilled')).toHaveLength(1);
    expect(await batchNamed('twice')).toHaveLength(1);
  });

  it('runs within the allowance without asking, and asks again past it', async () => {
    expect(await call('agents:allowance')).toMatchObject({ perDay: null, perBrand: [] });
    const used = (await call('agents:allowance')).usedToday;
    await call('agents:setAllowance', { brandId: null, credits: used + 3 });
    const small = await agentQuote('allowed', 2);
    const within: AgentRequestView = await call('agents:submit', {
      client: CLIENT,
      quoteId: small.quoteId,
      clientRequestId: 'req-5',
    });
    expect(within).toMatchObject({ state: 'created', decidedBy: 'the allowance' });
    expect(await batchNamed('allowed')).toHaveLength(1);
    // 2 of the 3 used today: a batch of 2 more waits for a person.
    const past = await agentQuote('past', 2);
    expect(
      await call('agents:submit', { client: CLIENT, quoteId: past.quoteId, clientRequestId: 'req-6' }),
    ).toMatchObject({ state: 'pending', batchId: null });
    expect(await batchNamed('past')).toEqual([]);
    expect(await call('agents:allowance')).toMatchObject({ perDay: used + 3, usedToday: used + 2 });
    await call('agents:setAllowance', { brandId: null, credits: null });
  });

  it('is announced in another process on the same data folder (the app beside adbatch mcp), both ways', async () => {
    const app = await startCoreHarness({ dir: h.dir });
    try {
      const heardByApp: string[] = [];
      const heardHere: string[] = [];
      const offApp = app.core.events.on('agents:changed', ({ name, state }) =>
        heardByApp.push(`${name} ${state}`),
      );
      const offHere = h.core.events.on('agents:changed', ({ name, state }) =>
        heardHere.push(`${name} ${state}`),
      );
      const quote = await agentQuote('elsewhere', 1);
      const submitted = await call('agents:submit', {
        client: CLIENT,
        quoteId: quote.quoteId,
        clientRequestId: 'req-8',
      });
      await expect.poll(() => heardByApp, { timeout: 10_000 }).toEqual(['elsewhere pending']);
      // Declined in the other process: this one hears it too, and only once.
      await callCore(app.core, 'agents:decline', { id: submitted.id });
      await expect
        .poll(() => heardHere, { timeout: 10_000 })
        .toEqual(['elsewhere pending', 'elsewhere declined']);
      offApp();
      offHere();
    } finally {
      await app.close();
    }
  }, 30_000);

  it('refuses a quote of another client, or one never made', async () => {
    const quote = await agentQuote('foreign', 1);
    const refusal = await refusalOf(h.core, 'agents:submit', {
      client: 'Another agent',
      quoteId: quote.quoteId,
      clientRequestId: 'req-7',
    });
    expect(refusal).toMatchObject({ code: 'not_found' });
    expect(refusal.message).toMatch(/quote the batch again/);
    expect(
      (await refusalOf(h.core, 'agents:submit', { client: CLIENT, quoteId: 'q_none', clientRequestId: 'x' }))
        .code,
    ).toBe('not_found');
  });
});
