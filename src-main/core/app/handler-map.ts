import type { ArgsOf, Channel, ResultOf } from '../../shared/ipc.ts';

/**
 * Every channel's handler, typed by the contract. Each domain returns its part of it; `createCore` merges
 * them and gives the whole to `createDispatch`. A type of its own module, below the domains, so that a
 * domain names it without importing the dispatcher that sits above them.
 */
export type HandlerMap = { [C in Channel]: (args: ArgsOf<C>) => Promise<ResultOf<C>> };
