import { z } from 'zod';

// How a channel of the contract is written, once: its name (`domain:verb`), the zod schema main checks its
// argument against before a handler sees it (the renderer, an agent and a CLI flag are all untrusted), and
// the type of its answer. Each domain's module lists its channels; ipc.ts merges them into the one contract
// every transport serves, and every other type (the callers' arguments, the handlers' signatures, MCP's
// inputs) is inferred from it.
//
// Guess, named: an answer is a type, not a schema. Main makes every answer itself from its own stores, and
// the renderer trusts main, so checking an answer would only cost time; MCP declares its tools' own output
// schemas (src-main/mcp/server.ts), where a client does check them.

/** A channel: its argument's schema, and its answer's type (carried by the type alone: `result` is never set). */
export interface ChannelSpec<Input extends z.ZodType = z.ZodType, Result = unknown> {
  readonly input: Input;
  readonly result?: Result;
}

/** `channel<AnswerType>()(argumentSchema)`: the answer's type is given, the argument's inferred. */
export function channel<Result>() {
  return <Input extends z.ZodType>(input: Input): ChannelSpec<Input, Result> => ({ input });
}

/** A channel that takes no argument. */
export const none = z.undefined();

/** A row named by its id. */
export const id = z.object({ id: z.string().min(1).max(200) }).strict();

/** An address a service, a model or a logo is fetched from. */
export const url = z.url({ protocol: /^https?$/ }).max(2000);

/**
 * An absolute path on this computer: `/…` (macOS, Linux), `C:\…` or `\\server\…` (Windows). Written here,
 * not with node:path, because the contract is shared with the renderer; main's own code re-checks with
 * node:path where it opens the file.
 */
export const absolutePath = z
  .string()
  .min(1)
  .max(4096)
  .refine((path) => /^(?:\/|[A-Za-z]:[\\/]|\\\\)/.test(path), 'must be an absolute path');

/** Whole credits: caps, budgets and allowances are integers, as every amount of money here. */
export const creditAmount = z.number().int().min(0).max(1_000_000_000);
