import { CHANNELS } from '../shared/ipc.ts';

// The core refuses an argument its channel's schema does not take in the dispatch's words, prefixed with the
// channel and the path in the channel's request ("agents:quote: request.shoot.style: Invalid option…"). An
// agent knows its tool's arguments, not Adbatch's channels: the MCP tools check their own arguments first
// (mcp/schemas.ts), and what still reaches the core is answered here naming the argument alone.

/** `domain:verb: path: message`, the dispatch's refusal of an argument (core/app/dispatch.ts). */
const CHANNEL_REFUSAL = /^([a-zA-Z]+:[a-zA-Z]+): (?:([\w.]+): )?([\s\S]*)$/;

/** A refusal's message in the agent's terms: the channel dropped, the path reduced to the argument. */
export function agentWords(message: string): string {
  const match = CHANNEL_REFUSAL.exec(message);
  if (!match || !(CHANNELS as readonly string[]).includes(match[1]!)) return message;
  const [, , path, reason] = match;
  if (!path) return reason!;
  // The request's own nesting (`request.shoot.style`) is the core's; the tool's argument is the last name
  // (`resultIds`, not the index `resultIds.3` points into it with).
  const names = path.split('.').filter((segment) => !/^\d+$/.test(segment));
  return `${names.at(-1) ?? path}: ${reason}`;
}
