import { z } from 'zod';
import type {
  AgentAllowanceView,
  AgentQuoteView,
  AgentRequestView,
  AgentServerView,
  AgentVideoQuoteView,
  ScanView,
} from '../models.ts';
import { absolutePath, channel, creditAmount, none } from './channel.ts';
import { ingestChannels } from './ingest.ts';
import { newBatchRequest } from './queue.ts';
import { pickedVideosRequest } from './review.ts';

// Agents' requests to spend, and the person's answer; the allowance; the app's MCP server (core/agents/).

/** An agent's name as its MCP client gives it, shown to the person who approves. */
const agentClient = z.string().trim().min(1).max(100);
/** Who decided an agent's request: "Adbatch" (the app), "adbatch approve". */
const decider = z.string().trim().min(1).max(100);
const requestId = z.string().min(1).max(100);

export const agentsChannels = {
  /** An agent's scan: as `ingest:scan`, its products kept 30 minutes for `agents:quote` in any process. */
  'agents:scan': channel<ScanView>()(ingestChannels['ingest:scan'].input),
  /** An agent's quote: kept by id for `agents:submit`; `client` is the agent's name. */
  'agents:quote': channel<AgentQuoteView>()(
    z.object({ client: agentClient, request: newBatchRequest }).strict(),
  ),
  /** An agent's quote of videos from a batch's picks (what Make videos would add), kept for `agents:submit`. */
  'agents:quoteVideos': channel<AgentVideoQuoteView>()(
    z.object({ client: agentClient, request: pickedVideosRequest }).strict(),
  ),
  /**
   * An agent's request to run a quoted batch (or videos): created at once when the allowance covers it, else
   * pending a person's yes. The same client request id twice answers the first request: never a second batch.
   */
  'agents:submit': channel<AgentRequestView>()(
    z
      .object({
        client: agentClient,
        quoteId: z.string().min(1).max(100),
        clientRequestId: z.string().trim().min(1).max(200),
      })
      .strict(),
  ),
  /** Agents' requests, newest first. */
  'agents:requests': channel<AgentRequestView[]>()(none),
  /** One request, as an agent follows it. */
  'agents:request': channel<AgentRequestView>()(z.object({ id: requestId }).strict()),
  /** A person's yes: the batch is made, unless the balance or the prices changed since the quote. */
  'agents:approve': channel<AgentRequestView>()(z.object({ id: requestId, by: decider.optional() }).strict()),
  /** A person's no. */
  'agents:decline': channel<AgentRequestView>()(
    z
      .object({ id: requestId, by: decider.optional(), reason: z.string().trim().max(500).optional() })
      .strict(),
  ),
  'agents:allowance': channel<AgentAllowanceView>()(none),
  /** Sets what agents may spend a UTC day without asking: in all, or for one brand; null removes it. */
  'agents:setAllowance': channel<AgentAllowanceView>()(
    z.object({ brandId: z.string().min(1).max(100).nullable(), credits: creditAmount.nullable() }).strict(),
  ),
};

export const agentServerChannels = {
  /** The app's MCP server over HTTP on this computer: on or off, its address and token. */
  'agents:server': channel<AgentServerView>()(none),
  /** Turns the app's MCP server on or off; `newToken` replaces the token (clients must be given the new one). */
  'agents:setServer': channel<AgentServerView>()(
    z
      .object({
        enabled: z.boolean(),
        newToken: z.boolean().optional(),
        exportFolder: absolutePath.optional(),
      })
      .strict(),
  ),
};
