import type { JobView } from '../../src-main/shared/models.ts';
import type { JobState } from '../../src-main/shared/vocabulary.ts';

let made = 0;

/** A job as the batch page and the CLI receive it, in a state, with nothing decided or charged yet. */
export function jobView(kind: JobView['kind'], state: JobState, price = 4): JobView {
  return {
    id: `${kind}-${state}-${++made}`,
    kind,
    state,
    remoteStatus: null,
    late: false,
    price,
    creditsCharged: 0,
    creditsRefunded: 0,
    creditsAtStake: 0,
    decisions: [],
    superseded: false,
    aspectRatio: null,
    failureCode: null,
    failureMessage: null,
    results: [],
  };
}
