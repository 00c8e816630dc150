import { credits } from '../../shared/words.ts';
import type { SpendMark } from './job-store.ts';
import type { QueueStore } from './store.ts';

// Every decision that spends credits goes through one step (issue 27; docs/ledger.md, "Spending decisions
// are atomic"): a batch made (New batch, `adbatch run`, an agent's request made within its allowance or
// approved by a person), a job retried, a reshoot, videos from the picks. What is asynchronous (the balance
// asked of the service, the key) is done first; then one BEGIN IMMEDIATE transaction checks every limit again
// against the database and writes what was decided. IMMEDIATE takes SQLite's write lock at BEGIN, so two
// such decisions, in one process or in two on one data folder, run one after the other and the second sees
// the first's rows: two can never pass one limit together. What another decision committed while this one
// awaited the service is told by a mark on the jobs (`JobStore.mark`), taken before the first await.

/** Runs `decide` (check, then write; synchronous) as one IMMEDIATE transaction. */
export function decideSpending<T>(store: QueueStore, decide: () => T): T {
  return store.db.transaction(decide).immediate();
}

/** A balance as the service gave it, on a key, asked after `mark` was taken. */
export interface BalanceAsked {
  balance: number;
  keyId: string;
  mark: SpendMark;
}

/**
 * The balance as known: what the service said, less what the key's jobs will take that it did not count:
 * what other decisions committed since the mark, and what was committed before it but not yet sent
 * (`JobStore.promisedBefore`). Before the second was counted, a batch started while another's jobs still
 * waited their turn passed on the whole balance, and the service refused its creates later (the batch
 * paused; nothing was charged, but the refusal came late).
 *
 * GUESS: the same key is the same balance; two keys of one account are not counted against each other here
 * (a job the service refuses for credits pauses its batch, and nothing is charged). A job committed since the
 * mark and sent before the balance was read is counted twice: that errs on refusing, in a window of
 * milliseconds, never on spending.
 */
export function balanceLeft(store: QueueStore, asked: BalanceAsked): number {
  const meanwhile = store.jobs
    .committedSince(asked.mark)
    .filter((job) => job.keyId === asked.keyId)
    .reduce((sum, job) => sum + job.price, 0);
  return asked.balance - meanwhile - store.jobs.promisedBefore(asked.mark, asked.keyId);
}

/**
 * The balance in words for a refusal: the service's figure, and what of it jobs not yet charged will take
 * when that is any ("the balance is 10 credits, of which 8 are promised to jobs not yet charged").
 */
export function balanceWords(balance: number, left: number): string {
  const said = `the balance is ${credits(balance)}`;
  const promised = balance - left;
  if (promised <= 0) return said;
  if (promised > balance) return `${said}, and jobs not yet charged will take ${credits(promised)}`;
  return `${said}, of which ${promised.toLocaleString('en')} ${promised === 1 ? 'is' : 'are'} promised to jobs not yet charged`;
}
