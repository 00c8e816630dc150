import { counted } from './counted.ts';
import type { BatchProgress } from './models.ts';
import type { PriceAdjustmentReason, PriceBreakdown } from './price.ts';
import { JOB_STATES, type JobState } from './vocabulary.ts';
import { credits, JOB_STATE_WORDS } from './words.ts';

// Money and what it bought, said once for the app, the CLI and MCP (issue 31, point 5): a price as lines that
// add up on screen, from core's breakdown (shared/price.ts) and never worked out again; what a batch was
// charged, refunded and kept (net) in the same words everywhere; and its shoots and videos counted by how
// they ended, so a failure is never counted as made. Pure: the renderer uses it as it is.

/** "4 credits a second", "2 credits a shot": a unit's rate, as a picker and a price line say it. */
export function rateWords(unit: PriceBreakdown['unit'], perUnit: number): string {
  return `${credits(perUnit)} a ${unit}`;
}

const ADJUSTMENT_WORDS: Record<PriceAdjustmentReason, (percentOff: number) => string> = {
  product_only: (percentOff) => `${percentOff} % off without a model`,
};

/** One line of a price: what it is for, and its credits (negative for a reduction). */
export interface PriceLine {
  words: string;
  credits: number;
}

/**
 * A price's lines, which add up to its total: "10 s x 4 credits a second" 40, "15 % off without a model" -6.
 * A reduction the service's rounding up leaves between two credits says that it was rounded down.
 */
export function priceLines(price: PriceBreakdown): PriceLine[] {
  const units = price.unit === 'second' ? `${price.units} s` : counted(price.units, 'shot');
  return [
    { words: `${units} x ${rateWords(price.unit, price.perUnit)}`, credits: price.base },
    ...price.adjustments.map((adjustment) => ({
      words: `${ADJUSTMENT_WORDS[adjustment.reason](adjustment.percentOff)}${adjustment.rounded ? ', rounded down to whole credits' : ''}`,
      credits: adjustment.credits,
    })),
  ];
}

/**
 * A price as one line of arithmetic that adds up: "10 s x 4 credits a second = 40 - 6 (15 % off without a
 * model) = 34 credits"; "4 shots x 1 credit a shot = 4 credits" when nothing adjusts it.
 */
export function priceWords(price: PriceBreakdown): string {
  const [base, ...adjustments] = priceLines(price);
  if (!base || adjustments.length === 0) return `${base?.words ?? ''} = ${credits(price.credits)}`;
  const steps = adjustments.map(
    (line) => `${line.credits < 0 ? '-' : '+'} ${Math.abs(line.credits)} (${line.words})`,
  );
  return `${base.words} = ${base.credits} ${steps.join(' ')} = ${credits(price.credits)}`;
}

// Charged, refunded, net.

/** The money columns of a table (Usage, a statement, `adbatch usage`), in the order the sentences use. */
export const MONEY_HEADS = { charged: 'Charged', refunded: 'Refunded', net: 'Net' } as const;

export interface Money {
  /** Every credit the service took when a shoot or video was sent (or found charged later). */
  charged: number;
  /** What it gave back for those that failed. */
  refunded: number;
}

/** A batch's money from its progress, whose `creditsSpent` is what it kept (charged less refunded). */
export function batchMoney(batch: Pick<BatchProgress, 'creditsSpent' | 'creditsRefunded'>): Money {
  return { charged: batch.creditsSpent + batch.creditsRefunded, refunded: batch.creditsRefunded };
}

/** "868 credits charged, 408 refunded, 460 net", and ", of 868 quoted" when the quote is given. */
export function moneyWords(money: Money, quoted?: number): string {
  const net = money.charged - money.refunded;
  const of = quoted === undefined ? '' : `, of ${quoted.toLocaleString('en')} quoted`;
  return `${credits(money.charged)} charged, ${money.refunded.toLocaleString('en')} refunded, ${net.toLocaleString('en')} net${of}`;
}

// How shoots and videos ended.

/** The outcomes counted, in the order they are said; only a done job is "made". */
const OUTCOMES = ['made', 'failed', 'inDoubt', 'outOfReach', 'notMade', 'underWay'] as const;
type Outcome = (typeof OUTCOMES)[number];

const OUTCOME_OF: Record<JobState, Outcome> = {
  done: 'made',
  failed: 'failed',
  outcome_unknown: 'inDoubt',
  stale: 'inDoubt',
  owed: 'inDoubt',
  lost: 'outOfReach',
  cancelled: 'notMade',
  skipped: 'notMade',
  waiting: 'underWay',
  submitting: 'underWay',
  running: 'underWay',
  downloading: 'underWay',
};

export const OUTCOME_WORDS: Record<Outcome, string> = {
  made: 'made',
  failed: JOB_STATE_WORDS.failed,
  inDoubt: 'in doubt',
  outOfReach: JOB_STATE_WORDS.lost,
  notMade: 'not made',
  underWay: 'under way',
};

/** Jobs by state, counted by outcome: made, failed, in doubt… (what the failures cost is the money line's). */
export function outcomesOf(states: Partial<Record<JobState, number>>): Record<Outcome, number> {
  const counts: Record<Outcome, number> = {
    made: 0,
    failed: 0,
    inDoubt: 0,
    outOfReach: 0,
    notMade: 0,
    underWay: 0,
  };
  for (const state of JOB_STATES) counts[OUTCOME_OF[state]] += states[state] ?? 0;
  return counts;
}

/**
 * "12 videos: 0 made, 12 failed", "13 shoots: 4 made, 9 under way": the counts add up to the
 * total; "made" is always said, the other outcomes when there are any.
 */
export function outcomeWords(
  states: Partial<Record<JobState, number>>,
  what: { singular: string; plural: string },
): string {
  const counts = outcomesOf(states);
  const total = OUTCOMES.reduce((sum, outcome) => sum + counts[outcome], 0);
  const said = OUTCOMES.filter((outcome) => outcome === 'made' || counts[outcome] > 0).map(
    (outcome) => `${counts[outcome]} ${OUTCOME_WORDS[outcome]}`,
  );
  return `${counted(total, what.singular, what.plural)}: ${said.join(', ')}`;
}

/** What a front end counts: a batch's shoots, its videos, or both when they are not told apart. */
export const COUNTED = {
  shoot: { singular: 'shoot', plural: 'shoots' },
  video: { singular: 'video', plural: 'videos' },
  job: { singular: 'shoot or video', plural: 'shoots and videos' },
} as const;

/** What a batch's jobs are called: shoots, videos, or "shoots and videos" when it has both. */
export function countedJobs(batch: { jobs: number; videos: number }): (typeof COUNTED)[keyof typeof COUNTED] {
  if (batch.videos === 0) return COUNTED.shoot;
  return batch.videos === batch.jobs ? COUNTED.video : COUNTED.job;
}
