import { describe, expect, it } from 'vitest';
import { ServiceHealth, serviceTroubleOf } from '../../../../src-main/core/scheduler/service-trouble.ts';
import { databasePerTest } from '../../../support/database-per-test.ts';

// What a key's requests saw lately, as the processes that only look read it (`service_trouble`): written by
// the process whose requests fail, gone at an answer, whoever had it.

const T0 = 1_700_000_000_000;
const temp = databasePerTest(T0);
const REFUSED = { kind: 'no_answer', reason: 'the connection was refused' } as const;

describe('the service trouble kept for the processes that only look', () => {
  it('is said once failing 10 s, and gone at the first answer', () => {
    const health = new ServiceHealth(temp.db, 'key-a');
    health.failed(T0, REFUSED);
    expect(serviceTroubleOf(temp.db, 'key-a', T0 + 9_999)).toBeNull();
    health.failed(T0 + 5_000, REFUSED);
    expect(serviceTroubleOf(temp.db, 'key-a', T0 + 10_000)).toEqual({ since: T0, ...REFUSED });
    health.answered();
    expect(serviceTroubleOf(temp.db, 'key-a', T0 + 20_000)).toBeNull();
  });

  it('is written again by the failing process after another process answered and took it away', () => {
    const driver = new ServiceHealth(temp.db, 'key-a');
    const looker = new ServiceHealth(temp.db, 'key-a');
    driver.failed(T0, REFUSED);
    driver.failed(T0 + 5_000, REFUSED);
    // A balance asked by a process that only looks is answered: the row goes.
    looker.answered();
    expect(serviceTroubleOf(temp.db, 'key-a', T0 + 12_000)).toBeNull();
    // The driver's next failure, the same as before, says it again, since the same moment.
    driver.failed(T0 + 15_000, REFUSED);
    expect(serviceTroubleOf(temp.db, 'key-a', T0 + 15_000)).toEqual({ since: T0, ...REFUSED });
  });
});
