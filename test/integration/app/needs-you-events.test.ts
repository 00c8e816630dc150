import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACTIVE_JOB_STATES } from '../../../src-main/core/queue/states.ts';
import type { ArgsOf, Channel } from '../../../src-main/shared/ipc.ts';
import type { AccountView, BatchProgress } from '../../../src-main/shared/models.ts';
import { monthOf } from '../../../src-main/shared/usage-period.ts';
import { type CoreHarness, callCore } from '../../support/core-harness.ts';
import { type CoreOnSandbox, startCoreOnSandbox } from '../../support/core-on-sandbox.ts';
import { QUICK_SHOOT } from '../../support/job-settings.ts';
import { makeProductFolders } from '../../support/product-folders.ts';
import type { DefaultHarness } from '../../support/sandbox-harness.ts';
import { until } from '../../support/until.ts';

// Issue 27, point 3, as a front end that follows events sees it (the app's batch list, `adbatch run`'s follow,
// MCP wait_batch): a batch is shown `needs_you` only once it has finished running with a job in doubt, and
// when the service's usage report settles that doubt outside "Check all again" (Usage's reconcile on demand;
// the check after an agency batch), a `batches:progress` follows with the status batches:get answers.
// Without it the follower keeps "needs you" for a batch that is finished. On a real SQLite file, against a
// real sandbox over HTTP.

let world: CoreOnSandbox;
let service: DefaultHarness;
let h: CoreHarness;
let products: string;
let personal: AccountView;

const call = <C extends Channel>(channel: C, args?: ArgsOf<C>) => callCore(h.core, channel, args);

beforeAll(async () => {
  world = await startCoreOnSandbox('adbatch-needs-you-events-');
  ({ service, h, products, account: personal } = world);
}, 30_000);
afterAll(async () => {
  await world?.close();
});

describe('a batch in doubt, followed by its events', () => {
  it('says needs you only once it has nothing left to run, and finished once the usage report settles it', async () => {
    await service.client.addFault({ method: 'POST', path: '/v1/shoots', action: 'reset', times: 1 });
    const events: BatchProgress[] = [];
    h.core.events.on('batches:progress', (progress) => events.push(progress));
    const dirs = await makeProductFolders(join(products, 'reconciled'), 2);
    const scan = await call('ingest:scan', { inputs: dirs });
    const { id } = await call('batches:create', {
      scanId: scan.scanId,
      accountId: personal.id,
      shoot: QUICK_SHOOT,
      video: null,
      includeDone: true,
      name: 'Settled by Usage',
    });
    const ours = () => events.filter((progress) => progress.id === id);
    await until(() => ours().at(-1)?.status === 'needs_you');
    expect((await call('batches:get', { id })).status).toBe('needs_you');
    // Never "needs you" while a job of the batch still runs: the doubt is said once nothing else can move.
    for (const progress of ours().filter((one) => one.status === 'needs_you')) {
      expect(ACTIVE_JOB_STATES.filter((state) => (progress.states[state] ?? 0) > 0)).toEqual([]);
      expect(progress.states.outcome_unknown).toBe(1);
    }

    const seen = ours().length;
    const report = await call('usage:reconcile', monthOf(Date.now()));
    expect(report.resolved.map((one) => one.charged)).toEqual([true]);
    expect((await call('batches:get', { id })).status).toBe('finished');
    // The follower hears of it: the last event says what batches:get says.
    await until(() => ours().length > seen && ours().at(-1)?.status === 'finished');
    expect(ours().at(-1)).toMatchObject({ status: 'finished', attention: 0, states: { done: 1, lost: 1 } });
  }, 60_000);
});
