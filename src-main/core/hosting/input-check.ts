import type { ShootBody, VideoBody } from '../api/index.ts';
import type { OutboundPolicy } from '../net/outbound-policy.ts';
import { checkLink, type LinkAnswer, type LinkCheck } from './link-check.ts';

// What the service will fetch is fetched first by Adbatch, right before the POST: each address a job hands
// it (a shoot's photos and model image, a video's logo) is asked for its first byte (`link-check.ts`), and a
// job whose input does not answer is held with the reason instead of sent. The service would fetch it only
// after charging, and fail the job minutes later (12 videos once paid 408 credits for an unreachable logo).
// A video's shots are asked by `served-copies.ts`, which can stand a downloaded copy in for one.
//
// An address that answered is not asked again for every job of the batch (a logo, a model image shared by
// all): it is taken as answering for a while, per batch and per run. One that did not stands for the jobs
// of its batch that ask meanwhile, until the batch is held for it (`forget`): the next try, the batch's
// resume, asks again. (Dropped as soon as it failed, a job whose body was made in between asked again
// before the hold: the logo of three videos was asked twice.)
//
// An address that came from input as it was given (a catalog's photo URL, a model image or a logo typed as
// an address) is asked under the outbound policy (core/net/outbound-policy.ts): one that points at this
// computer or the office network is held with that reason, unless its host was allowed by name. Addresses
// Adbatch made itself (its photo host's, the storage's) are asked as they are.

/** How long an address that answered is taken as answering, for the jobs of its batch that follow. */
export const ANSWERED_FRESH_MS = 5 * 60_000;

/** An address the service would fetch, named for a person. */
export interface Input {
  what: string;
  url: string;
  /** Given by a person or a catalog as it is, not made by Adbatch: held to the outbound policy. */
  given: boolean;
}

/** An input that did not answer, and why (`HTTP 404`, `connection refused`, `not an image (text/html)`). */
export interface UnreachableInput extends Input {
  why: string;
}

/**
 * The addresses the service fetches for this create, but a video's shots (see above); `given` are those of
 * them taken from input as they are (`CreateBody.given`).
 */
export function inputsOf(
  body: ShootBody | VideoBody,
  productName: string,
  given: readonly string[],
): Input[] {
  const input = (what: string, url: string): Input => ({ what, url, given: given.includes(url) });
  if ('productImageUrls' in body) {
    const photos = body.productImageUrls.map((url, index) =>
      input(`photo ${index + 1} of ${productName}`, url),
    );
    return body.modelUrl ? [...photos, input('the model image', body.modelUrl)] : photos;
  }
  return body.logoUrl ? [input('the logo', body.logoUrl)] : [];
}

export class InputCheck {
  /** `<batch> <url>` -> when it was asked, and its answer (shared by the jobs that ask meanwhile). */
  private readonly asked = new Map<string, { at: number; answer: Promise<LinkAnswer> }>();

  constructor(
    private readonly options: {
      now: () => number;
      /** Which given addresses may be asked (the hosts allowed now, in Settings and for this session). */
      outbound: () => OutboundPolicy;
      /** Whether an image's address answers (default: `checkLink` expecting an image). */
      check?: LinkCheck;
    },
  ) {}

  /** The inputs of this batch's job that do not answer now; [] when all do. */
  async unreachable(batchId: string, inputs: readonly Input[]): Promise<UnreachableInput[]> {
    const answers = await Promise.all(inputs.map((input) => this.ask(`${batchId} ${input.url}`, input)));
    return inputs.flatMap((input, index) => {
      const answer = answers[index]!;
      return answer.answers ? [] : [{ ...input, why: answer.why }];
    });
  }

  private ask(key: string, { url, given }: Input): Promise<LinkAnswer> {
    const now = this.options.now();
    const known = this.asked.get(key);
    if (known && now - known.at < ANSWERED_FRESH_MS) return known.answer;
    const policy = given ? this.options.outbound() : undefined;
    const check = this.options.check ?? ((address: string) => checkLink(address, undefined, 'image', policy));
    const entry = { at: now, answer: check(url) };
    this.asked.set(key, entry);
    return entry.answer;
  }

  /** The batch is held for these inputs: its next try (a resume) asks them again. */
  forget(batchId: string, inputs: readonly Input[]): void {
    for (const { url } of inputs) this.asked.delete(`${batchId} ${url}`);
  }
}

/** Why a job was held, in one sentence: which input, where, why, and what to do. */
export function unreachableMessage(inputs: readonly UnreachableInput[]): string {
  const which = inputs
    .map((input) => `${input.what} (${input.url}) does not answer: ${input.why}`)
    .join('; ');
  return `${which[0]!.toUpperCase()}${which.slice(1)}. Nothing was sent and no credit spent: fix the address or its server, then resume.`;
}
