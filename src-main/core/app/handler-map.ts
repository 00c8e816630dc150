import type { Channel, ParsedArgsOf, ResultOf } from '../../shared/ipc.ts';

/**
 * Every channel's handler, typed by the contract: given the argument as main's schema parsed it, it answers
 * the channel's result. Each domain returns its part (`HandlersOf<typeof itsChannels>`); `createCore`
 * merges them and gives the whole to `createDispatch`. A type of its own module, below the domains, so that
 * a domain names it without importing the dispatcher that sits above them.
 */
export type HandlerMap = { [C in Channel]: (args: ParsedArgsOf<C>) => Promise<ResultOf<C>> };

/** The handlers of a group of channels: a domain's part of the map, named by its contract module. */
export type HandlersOf<Channels> = Pick<HandlerMap, keyof Channels & Channel>;
