import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { Refusal } from '../core/app/dispatch.ts';
import type { ArgsOf, Channel, ResultOf } from '../shared/ipc.ts';
import type { CatalogView } from '../shared/models.ts';

// Adbatch's tools for agents (issue 16, docs/agents.md), over the one handler map every front end calls: an
// agent scans, quotes and submits batches, follows them, reads and decides results, and reads the balance
// and the usage. Spending is never a tool's own decision: `submit_batch` goes through `agents:submit`, which
// makes a batch only within the allowance the user set, and otherwise leaves a request for a person. No
// tool approves, declines or sets the allowance: those are a person's, in the app or with `adbatch approve`.
//
// Annotations are hints for clients (the MCP specification says a server must not rely on them): the rule
// is in the handlers, not here.

export type CoreCall = <C extends Channel>(
  channel: C,
  ...args: ArgsOf<C> extends undefined ? [] : [ArgsOf<C>]
) => Promise<ResultOf<C>>;

export interface McpOptions {
  call: CoreCall;
  /** The account an agent's batches use when it names none: the CLI's key, or the Sandbox. */
  defaultAccountId: string;
  version: string;
}

/** A tool's answer: the data as structured content, and the same as JSON text for clients that read text. */
function answer(data: Record<string, unknown>): CallToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(data, null, 2) }], structuredContent: data };
}

/** A refusal in the core's own words: the agent reads why, and nothing was done. */
function refused(error: unknown): CallToolResult {
  const message =
    error instanceof Refusal ? error.message : `Adbatch could not do it: ${(error as Error).message}`;
  return { content: [{ type: 'text', text: message }], isError: true };
}

async function tool(run: () => Promise<Record<string, unknown>>): Promise<CallToolResult> {
  try {
    return answer(await run());
  } catch (error) {
    return refused(error);
  }
}

function choices(catalog: CatalogView): string {
  return [
    `styles ${catalog.styles.map((style) => style.id).join(', ')}`,
    `shots ${catalog.shotCounts.join(', ')} (6 only in ${catalog.styles
      .filter((style) => style.sixShots)
      .map((style) => style.id)
      .join(', ')})`,
    `qualities ${catalog.qualities.map((quality) => `${quality.id} (${quality.creditsPerImage} credits a shot)`).join(', ')}`,
    `aspect ratios ${catalog.shootAspectRatios.join(', ')}`,
  ].join('; ');
}

const batchSettings = {
  style: z.string().optional().describe('The shoot style; the catalog default when absent.'),
  shots: z.number().int().optional().describe('Shots per product.'),
  quality: z.string().optional(),
  aspectRatio: z.string().optional(),
  video: z
    .object({
      duration: z.number().int(),
      resolution: z.string(),
    })
    .optional()
    .describe('A video ad of each product from its first shots; none when absent.'),
};

export async function createMcpServer(options: McpOptions): Promise<McpServer> {
  const { call } = options;
  const catalog = await call('catalog:get');
  const server = new McpServer(
    { name: 'adbatch', title: 'Adbatch', version: options.version },
    {
      instructions:
        'Adbatch turns folders of product photos into priced batches of AI product shoots and video ads. Scan the folders, quote the batch, then submit the quote: a person approves spending in Adbatch unless it fits the allowance they set for agents. Follow the batch, read and decide its results.',
    },
  );
  /** The agent, as its client named itself when it connected: every request and batch is recorded under it. */
  const client = () => server.server.getClientVersion()?.name ?? 'an MCP client';

  server.registerTool(
    'scan_inputs',
    {
      title: 'Scan product folders',
      description:
        'Reads folders of product photos (one folder per product), photos, or a catalog file (CSV, JSON) on this computer into products, with every problem found. Returns a scan id for quote_batch.',
      inputSchema: { paths: z.array(z.string().min(1)).min(1).describe('Absolute paths.') },
      outputSchema: {
        scanId: z.string(),
        products: z.array(z.object({ name: z.string(), photos: z.number() })),
        problems: z.array(z.object({ file: z.string(), severity: z.string(), reason: z.string() })),
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    ({ paths }) =>
      tool(async () => {
        const scan = await call('ingest:scan', { inputs: paths });
        return {
          scanId: scan.scanId,
          products: scan.products.map((product) => ({ name: product.name, photos: product.photos.length })),
          problems: scan.problems.map((problem) => ({
            file: problem.file,
            severity: problem.severity,
            reason: problem.reason,
          })),
        };
      }),
  );

  server.registerTool(
    'quote_batch',
    {
      title: 'Quote a batch',
      description: `What a batch of the scanned products costs, per product and in all, against the balance and the brand's budget. Nothing is spent. Returns a quote id for submit_batch (valid 30 minutes, and only while the balance and prices hold). Choices: ${choices(catalog)}.`,
      inputSchema: {
        scanId: z.string().min(1),
        name: z.string().min(1).max(200).describe('The batch name people see.'),
        accountId: z.string().optional().describe('The account; the server’s default when absent.'),
        brandId: z.string().optional().describe('The client brand billed (agency keys).'),
        ...batchSettings,
      },
      outputSchema: {
        quoteId: z.string(),
        credits: z.number(),
        balance: z.number().nullable(),
        shortfall: z.number(),
        expiresAt: z.string(),
        products: z.array(z.object({ product: z.string(), credits: z.number() })),
        caps: z.array(z.object({ label: z.string(), left: z.number(), passes: z.boolean() })),
      },
      annotations: { readOnlyHint: true, openWorldHint: true },
    },
    (input) =>
      tool(async () => {
        const shoot = {
          ...catalog.defaults.shoot,
          ...(input.style ? { style: input.style } : {}),
          ...(input.shots ? { shots: input.shots } : {}),
          ...(input.quality ? { quality: input.quality } : {}),
          ...(input.aspectRatio ? { aspectRatio: input.aspectRatio } : {}),
        } as ArgsOf<'agents:quote'>['request']['shoot'];
        const video = input.video
          ? ({ ...catalog.defaults.video, ...input.video } as ArgsOf<'agents:quote'>['request']['video'])
          : null;
        const quote = await call('agents:quote', {
          client: client(),
          request: {
            scanId: input.scanId,
            accountId: input.accountId ?? options.defaultAccountId,
            ...(input.brandId ? { brandId: input.brandId } : {}),
            shoot,
            video,
            includeDone: false,
            name: input.name,
          },
        });
        return {
          quoteId: quote.quoteId,
          credits: quote.credits,
          balance: quote.balance,
          shortfall: quote.shortfall,
          expiresAt: new Date(quote.expiresAt).toISOString(),
          products: quote.products.map((row) => ({ product: row.product, credits: row.credits })),
          caps: quote.caps.map((cap) => ({ label: cap.label, left: cap.left, passes: cap.passes })),
        };
      }),
  );

  server.registerTool(
    'submit_batch',
    {
      title: 'Submit a quoted batch',
      description:
        'Asks to run a quoted batch. It runs at once only when it fits the allowance the user set for agents; otherwise it waits for a person to approve it in Adbatch ("pending_approval"): tell the user, and follow it with request_status. Retrying with the same clientRequestId never makes a second batch.',
      inputSchema: {
        quoteId: z.string().min(1),
        clientRequestId: z
          .string()
          .min(1)
          .max(200)
          .describe('Your own id for this request: the same id again answers the first request.'),
      },
      outputSchema: {
        requestId: z.string(),
        state: z.enum(['pending_approval', 'created', 'declined', 'expired']),
        batchId: z.string().nullable(),
        credits: z.number(),
        reason: z.string().nullable(),
      },
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
    },
    ({ quoteId, clientRequestId }) =>
      tool(async () =>
        requestAnswer(await call('agents:submit', { client: client(), quoteId, clientRequestId })),
      ),
  );

  server.registerTool(
    'request_status',
    {
      title: 'Follow a request',
      description:
        'Where a submitted request stands: pending approval, created (with its batch), declined or expired.',
      inputSchema: { requestId: z.string().min(1) },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    ({ requestId }) =>
      tool(async () => {
        const request = (await call('agents:requests')).find((one) => one.id === requestId);
        if (!request) throw new Refusal('not_found', `There is no request ${requestId}.`);
        return requestAnswer(request);
      }),
  );

  server.registerTool(
    'batch_status',
    {
      title: 'Follow a batch',
      description: 'A batch’s progress: its status, jobs done and failed, credits charged and refunded.',
      inputSchema: { batchId: z.string().min(1) },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    ({ batchId }) =>
      tool(async () => {
        const batch = await call('batches:get', { id: batchId });
        return {
          batchId: batch.id,
          name: batch.name,
          status: batch.status,
          statusReason: batch.statusReason,
          jobs: batch.jobs,
          done: batch.done,
          failed: batch.failed,
          creditsSpent: batch.creditsSpent,
          creditsRefunded: batch.creditsRefunded,
          resultsFolder: batch.resultsFolder,
        };
      }),
  );

  server.registerTool(
    'balance',
    {
      title: 'Balances',
      description: 'The credits each account has, as the service last reported them.',
      inputSchema: {},
      annotations: { readOnlyHint: true, openWorldHint: true },
    },
    () =>
      tool(async () => ({
        accounts: (await call('accounts:list')).map((account) => ({
          accountId: account.id,
          name: account.name,
          balance: account.balance,
          brand: account.brandName,
        })),
      })),
  );

  return server;
}

function requestAnswer(request: ResultOf<'agents:submit'>): Record<string, unknown> {
  return {
    requestId: request.id,
    state: request.state === 'pending' ? 'pending_approval' : request.state,
    batchId: request.batchId,
    credits: request.credits,
    reason: request.reason,
  };
}
