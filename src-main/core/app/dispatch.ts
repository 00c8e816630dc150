import { type ArgsOf, type Channel, CONTRACT, type Reply, type ResultOf } from '../../shared/ipc.ts';
import { DataFolderError } from '../db/data-folder-fault.ts';
import { UnreadableError } from '../db/stored.ts';
import { AppError } from './errors.ts';
import type { HandlerMap } from './handler-map.ts';

export type { HandlerMap };

export type Dispatch = (channel: string, args: unknown) => Promise<Reply<Channel>>;

/**
 * The one entry point every transport calls: an unknown channel or an argument that fails its schema never
 * reaches a handler, and every outcome is a Reply, so errors cross any transport the same way. `refusalOf`
 * names what a handler met that the user must hear in words (a damaged database), rather than "went wrong".
 */
export function createDispatch(
  handlers: HandlerMap,
  onInternalError: (error: unknown) => void,
  refusalOf: (error: unknown) => AppError | null = () => null,
): Dispatch {
  return async (channel, args) => {
    if (!Object.hasOwn(CONTRACT, channel)) {
      return {
        ok: false,
        error: { code: 'bad_request', message: `unknown channel ${JSON.stringify(channel)}` },
      };
    }
    const name = channel as Channel;
    const parsed = CONTRACT[name].input.safeParse(args);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      const where = issue.path.length > 0 ? `${issue.path.join('.')}: ` : '';
      return { ok: false, error: { code: 'bad_request', message: `${channel}: ${where}${issue.message}` } };
    }
    try {
      const handler = handlers[name] as (value: unknown) => Promise<unknown>;
      return { ok: true, value: (await handler(parsed.data)) as ResultOf<Channel> };
    } catch (error) {
      const refusal = error instanceof AppError ? error : refusalOf(error);
      if (refusal) return { ok: false, error: { code: refusal.code, message: refusal.message } };
      onInternalError(error);
      // A stored row that no longer parses names itself and what is wrong: that is worth showing as it is.
      const message =
        error instanceof UnreadableError
          ? error.message
          : 'Something went wrong in Adbatch; the log has the details.';
      return { ok: false, error: { code: 'internal', message } };
    }
  };
}

/** A refusal as a caller in this process gets it: the reply's code and message. */
export class Refusal extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/**
 * Whether a front end met a damaged database: refused as the core was made (a DataFolderError), or by a
 * handler that met the damage later. Its own exit status and sentence, in every front end.
 */
export function isDamagedDatabase(error: unknown): boolean {
  if (error instanceof DataFolderError) return error.kind === 'damaged';
  return error instanceof Refusal && error.code === 'damaged_database';
}

/**
 * A handler's result through `dispatch`, for a front end in the same process (the CLI, tests): the same
 * validation and answers as over IPC, a refusal thrown as a `Refusal`.
 */
export async function callHandler<C extends Channel>(
  dispatch: Dispatch,
  channel: C,
  args?: ArgsOf<C>,
): Promise<ResultOf<C>> {
  const reply = await dispatch(channel, args);
  if (!reply.ok) throw new Refusal(reply.error.code, reply.error.message);
  return reply.value as ResultOf<C>;
}
