import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ArgsOf, Channel } from '../../../src-main/shared/ipc.ts';
import type { BatchProgress } from '../../../src-main/shared/models.ts';
import { timeLeftWords } from '../../../src-main/shared/words.ts';
import { adbatch } from '../../support/cli.ts';
import { type CoreHarness, callCore, startCoreHarness, untilFinished } from '../../support/core-harness.ts';
import { QUICK_SHOOT } from '../../support/job-settings.ts';
import { startMcpInProcess } from '../../support/mcp-in-process.ts';
import { makeProductFolders } from '../../support/product-folders.ts';
import { type DefaultHarness, startDefaultHarness } from '../../support/sandbox-harness.ts';
import { until } from '../../support/until.ts';

// A service that stops answering mid-batch (the network dropped, the service down or failing) once showed
// only "waiting on the service for 5 min", as a slow day does. Through the app's core, its Sandbox account
// on a real sandbox over HTTP (so the wait before it is said runs at the sandbox's speed): its polls
// dropped without an answer, then answered 503, then answered again; what the batch's progress, its detail
// (the batch page) and the words every front end uses say at each step.

let service: DefaultHarness;
let h: CoreHarness;
let products: string;
const call = <C extends Channel>(channel: C, args?: ArgsOf<C>) => callCore(h.core, channel, args);

beforeAll(async () => {
  service = await startDefaultHarness({ timeScale: 0.02 });
  h = await startCoreHarness({ sandbox: { url: service.sandbox.url, apiKey: service.keys.personal } });
  products = await mkdtemp(join(tmpdir(), 'adbatch-service-trouble-'));
  // The user's own key beside the Sandbox account.
  await call('accounts:add', {
    name: 'Northwind',
    baseUrl: service.sandbox.url,
    apiKey: service.keys.agency,
  });
}, 30_000);
afterAll(async () => {
  await h?.close();
  await service?.close();
  await rm(products, { recursive: true, force: true });
});

describe('a service that stops answering mid-batch', () => {
  it('is said instead of the time left, as no answer and then as errors, and no more once it answers', async () => {
    const events: BatchProgress[] = [];
    h.core.events.on('batches:progress', (progress) => events.push(progress));
    // Every look at a shoot dropped before it is handled: the jobs are created, then never seen again.
    const dropping = await service.client.addFault({
      method: 'GET',
      path: '/v1/shoots/',
      action: 'reset',
      when: 'before',
    });
    const scan = await call('ingest:scan', { inputs: await makeProductFolders(products, 2) });
    const { id } = await call('batches:create', {
      scanId: scan.scanId,
      accountId: 'sandbox',
      shoot: QUICK_SHOOT,
      video: null,
      includeDone: true,
      name: 'Offline',
    });
    // Its balance too, once the batch is made (making it asks it): nothing of the service answers.
    const droppingBalance = await service.client.addFault({
      method: 'GET',
      path: '/v1/credits',
      action: 'reset',
      when: 'before',
    });
    const ours = () => events.filter((event) => event.id === id);
    await until(() => ours().some((event) => event.serviceTrouble !== null));
    const dropped = ours().find((event) => event.serviceTrouble !== null)!;
    expect(dropped).toMatchObject({ status: 'running', created: 2, done: 0 });
    expect(dropped.serviceTrouble).toEqual({
      kind: 'no_answer',
      reason: 'the connection broke before the answer',
      since: expect.any(Number),
    });
    const since = dropped.serviceTrouble!.since;
    // Said only once it lasted: one dropped answer among others is not news.
    expect(
      ours().filter((event) => event.serviceTrouble === null && event.created === 2).length,
    ).toBeGreaterThan(0);
    const detail = await call('batches:get', { id });
    expect(detail.serviceTrouble).toMatchObject({ kind: 'no_answer', since });
    expect(timeLeftWords(detail, since + 75_000)).toBe(
      'the service has not answered for 1 min (the connection broke before the answer): Adbatch keeps asking',
    );
    // The accounts are listed all the same, the Sandbox's balance not known (the list once failed whole, and
    // the app showed no account at all).
    expect((await call('accounts:list')).map(({ name, balance }) => ({ name, balance }))).toEqual([
      { name: 'Sandbox', balance: null },
      { name: 'Northwind', balance: expect.any(Number) },
    ]);
    // An agent asking for the batch is told the same, not a time left.
    const agent = await startMcpInProcess(h, 'service-trouble');
    const words =
      /the service has not answered for \d+ s \(the connection broke before the answer\): Adbatch keeps asking/;
    expect((await agent.tool('batch_status', { batchId: id })).timeLeft).toMatch(
      new RegExp(`^${words.source}$`),
    );
    const progress: string[] = [];
    const waited = await agent.tool(
      'wait_batch',
      // A second's wait: a progress sent with its answer at once may be dropped by the SDK's client.
      { batchId: id, waitSeconds: 1 },
      { onprogress: (sent) => progress.push(sent.message ?? '') },
    );
    expect(waited).toMatchObject({ status: 'running', running: true });
    expect(progress).toContain(
      '0 of 2 jobs done; the service does not answer (the connection broke before the answer)',
    );
    // So is `adbatch status`, a process that only looks, beside this one that drives the queue. It says
    // so once the trouble has lasted 10 s of the sandbox's time as it runs it (0.1: one second).
    await until(() => Date.now() - since > 1_500);
    const status = await adbatch(['status', '--data-dir', join(h.dir, 'data')]);
    expect(status.stdout).toMatch(new RegExp(`^${id} {2}running {2}Offline\n {4}.*; ${words.source}\n`));

    // Then it answers, but only with errors: the same run of failures (the 503 takes the drop's place with no
    // gap a poll could pass through), now said as errors.
    await service.client.addFault({ method: 'GET', path: '/v1/', action: 'status', status: 503 });
    await service.client.removeFault(dropping.id);
    await service.client.removeFault(droppingBalance.id);
    await until(() => ours().at(-1)?.serviceTrouble?.kind === 'errors');
    const failing = ours().at(-1)!.serviceTrouble!;
    expect(failing).toEqual({ kind: 'errors', reason: 'HTTP 503', since });
    expect(timeLeftWords({ eta: null, serviceTrouble: failing }, failing.since + 120_000)).toBe(
      'the service has answered only with errors for 2 min (HTTP 503): Adbatch keeps asking',
    );

    // Answered again: the batch finishes, and nothing says the service is down.
    await service.client.clearFaults();
    await untilFinished(h.core, id);
    const done = await call('batches:get', { id });
    expect(done).toMatchObject({ status: 'finished', done: 2, serviceTrouble: null });
    expect(ours().at(-1)!.serviceTrouble).toBeNull();
  }, 120_000);
});
