import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { Refusal } from '../core/app/dispatch.ts';
import { refusalWords } from '../core/app/fs-refusal.ts';
import { type LibraryChoice, libraryLine } from '../core/app/library-choice.ts';
import { resultId, stars } from '../shared/contract/review.ts';
import type { ArgsOf, Channel, ResultOf } from '../shared/ipc.ts';
import type { BatchDetail, CatalogView, UsagePeriod } from '../shared/models.ts';
import {
  batchMoney,
  countedJobs,
  moneyWords,
  outcomeWords,
  priceWords,
  rateWords,
} from '../shared/money-words.ts';
import { daysPeriod, ownerName, utcDay } from '../shared/usage-period.ts';
import {
  AGENT_REQUEST_STATES,
  BATCH_DECISIONS,
  BATCH_VIEW_STATUSES,
  JOB_DECISIONS,
  JOB_KINDS,
  JOB_STATES,
  PAUSE_REASONS,
  PREFLIGHT_WARNINGS,
  RESULT_KINDS,
  REVIEW_FLAGS,
  REVIEW_LABELS,
  SHOOT_STYLES,
} from '../shared/vocabulary.ts';
import {
  AGENT_REQUEST_STATE_WORDS,
  BATCH_DECISION_WORDS,
  batchStatusWords,
  decisionWords,
  jobWords,
  needsYouWords,
  TAKING_LONGER_WORDS,
  timeLeftWords,
} from '../shared/words.ts';
import { allowedFolder } from './allowed-folder.ts';
import { registerWaitBatch } from './batch-wait.ts';
import { agentWords } from './errors.ts';
import {
  exportCallersOf,
  exportShape,
  followExport,
  registerExportStatus,
  waitSecondsInput,
} from './export-work.ts';
import { registerResources, resultUri } from './resources.ts';
import {
  batchIdArgument,
  choice,
  exportRuleChoice,
  flagChoice,
  labelChoice,
  orNull,
  requestIdArgument,
  shootChoices,
  videoChoices,
} from './schemas.ts';
import { adbatchSkipped, alreadyShot, scanOf } from './stateless-quote.ts';

// Adbatch's tools for agents (issue 16, docs/agents.md), over the one handler map every front end calls: an
// agent scans, quotes and submits batches, follows them, reads and decides results, and reads the balance
// and the usage. Spending is never a tool's own decision: `submit_batch` goes through `agents:submit`, which
// makes a batch only within the allowance the user set, and otherwise leaves a request for a person. No
// tool approves, declines or sets the allowance: those are a person's, in the app or with `adbatch approve`.
//
// Annotations are hints for clients (the MCP specification says a server must not rely on them): the rule
// is in the handlers, not here. Answers name states, reasons and kinds by the contract's ids
// (shared/vocabulary.ts), each with its words for people beside it (shared/words.ts): an agent matches on
// the one and tells the user the other.

export type CoreCall = <C extends Channel>(
  channel: C,
  ...args: ArgsOf<C> extends undefined ? [] : [ArgsOf<C>]
) => Promise<ResultOf<C>>;

export interface McpOptions {
  call: CoreCall;
  /**
   * The folders the user allowed agents to export into (an export folder must be one of them or inside
   * one); none: `export_batch` refuses, saying how to allow one.
   */
  exportFolders: () => string[];
  /** The account an agent's batches use when it names none: the CLI's key, or the Sandbox. */
  defaultAccountId: string;
  version: string;
  /** The library batches go to (the data folder's, or the one the server was told): said in the instructions. */
  library?: () => LibraryChoice;
}

/** A tool's answer: the data as structured content, and the same as JSON text for clients that read text. */
function answer(data: Record<string, unknown>): CallToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(data, null, 2) }], structuredContent: data };
}

/** A refusal in the core's own words: the agent reads why, and nothing was done. */
function refused(error: unknown): CallToolResult {
  const message =
    error instanceof Refusal
      ? agentWords(error.message)
      : `Adbatch could not do it: ${agentWords(refusalWords(error))}`;
  return { content: [{ type: 'text', text: message }], isError: true };
}

export async function tool(run: () => Promise<Record<string, unknown>>): Promise<CallToolResult> {
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
    `qualities ${catalog.qualities.map((quality) => `${quality.id} (${rateWords('shot', quality.creditsPerImage)})`).join(', ')}`,
    `aspect ratios ${catalog.shootAspectRatios.join(', ')}`,
  ].join('; ');
}

/** What submit_batch and request_status answer about a request. */
const requestShape = {
  requestId: z.string(),
  state: z.enum(AGENT_REQUEST_STATES),
  stateWords: z.string(),
  batchId: orNull(z.string()),
  credits: z.number(),
  reason: orNull(z.string()),
};

const batchSettings = {
  ...shootChoices,
  video: z
    .object(videoChoices)
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
        'Adbatch turns folders of product photos into priced batches of AI product shoots and video ads. Scan the folders, quote the batch, then submit the quote: a person approves spending in Adbatch unless it fits the allowance they set for agents. Follow the batch, read and decide its results.' +
        (options.library ? ` Results are saved in the ${libraryLine(options.library())}.` : ''),
    },
  );
  /** The agent, as its client named itself when it connected: every request and batch is recorded under it. */
  const client = () => server.server.getClientVersion()?.name ?? 'an MCP client';

  server.registerTool(
    'scan_inputs',
    {
      title: 'Scan product folders',
      description:
        'Reads folders of product photos (one folder per product), photos, or a catalog file (CSV, JSON) on this computer into products, with every problem found. Returns a scan id for quote_batch, kept 30 minutes (quote_batch also takes the paths directly).',
      inputSchema: { paths: z.array(z.string().min(1)).min(1).describe('Absolute paths.') },
      outputSchema: {
        scanId: z.string(),
        products: z.array(
          z.object({
            name: z.string(),
            photos: z.number(),
            fromOutside: z
              .array(z.string())
              .optional()
              .describe('Where its photos reached through links out of the dropped folder really are.'),
          }),
        ),
        problems: z.array(
          z.object({
            file: z.string(),
            place: z
              .string()
              .optional()
              .describe('For a catalog\'s URL, where the catalog names it: "products.csv, row 12".'),
            severity: z.string(),
            reason: z.string(),
          }),
        ),
        skipped: z
          .array(z.object({ folder: z.string(), reason: z.string() }))
          .describe(
            'What Adbatch wrote, never scanned as products: its folders (library, results, exports, data), and copies of its results or exported images found by their bytes (`folder` is then the file).',
          ),
      },
      // A catalog file may name its photos by URL: scanning fetches them.
      annotations: { readOnlyHint: true, openWorldHint: true },
    },
    ({ paths }, { signal }) =>
      tool(async () => {
        // The agent gave up on the call (notifications/cancelled): this scan stops rather than run on unread;
        // another agent's scan, or the same agent's next one, runs on.
        const scanToken = randomUUID();
        const cancel = () => void call('ingest:cancelScan', { scanToken }).catch(() => {});
        signal.addEventListener('abort', cancel, { once: true });
        const scan = await call('agents:scan', { inputs: paths, scanToken }).finally(() =>
          signal.removeEventListener('abort', cancel),
        );
        return {
          scanId: scan.scanId,
          products: scan.products.map((product) => {
            const fromOutside = product.photos.flatMap((photo) => (photo.realPath ? [photo.realPath] : []));
            return {
              name: product.name,
              photos: product.photos.length,
              ...(fromOutside.length > 0 ? { fromOutside } : {}),
            };
          }),
          problems: scan.problems.map((problem) => ({
            file: problem.file,
            ...(problem.place ? { place: problem.place } : {}),
            severity: problem.severity,
            reason: problem.reason,
          })),
          skipped: adbatchSkipped(scan.skippedFiles),
        };
      }),
  );

  server.registerTool(
    'quote_batch',
    {
      title: 'Quote a batch',
      description: `What a batch of the products in these paths (or of a scan_inputs scan) costs, per product and in all, against the balance and the brand's budget. Nothing is spent. Products already shot from the same photos with the same settings are left out and listed in alreadyShot with why; includeDone shoots them again (charged again). Returns a quote id for submit_batch (valid 30 minutes, and only while the balance and prices hold). Choices: ${choices(catalog)}.`,
      inputSchema: {
        paths: z
          .array(z.string().min(1))
          .min(1)
          .optional()
          .describe('Absolute paths of product folders, photos or a catalog file: scanned, then quoted.'),
        scanId: z.string().min(1).optional().describe('A scan_inputs scan id, instead of the paths.'),
        includeDone: z
          .boolean()
          .optional()
          .describe(
            'Shoot again the products already shot with these settings (charged again); false when absent.',
          ),
        name: z.string().min(1).max(200).describe('The batch name people see.'),
        accountId: z.string().optional().describe('The account; the server’s default when absent.'),
        brandId: z.string().optional().describe('The client brand billed (agency keys).'),
        ...batchSettings,
      },
      outputSchema: {
        quoteId: z.string(),
        credits: z.number(),
        balance: orNull(z.number()),
        promised: z
          .number()
          .describe(
            'Of the balance, what this key’s jobs not yet charged will take (batches running whose jobs wait their turn); shortfall counts it.',
          ),
        shortfall: z.number(),
        expiresAt: z.string(),
        products: z.array(z.object({ product: z.string(), credits: z.number() })),
        priceWords: z
          .object({ shoot: z.string(), video: orNull(z.string()) })
          .describe('How one shoot’s price and one video’s add up, in the words Adbatch shows people.'),
        alreadyShot: z
          .array(z.object({ product: z.string(), reason: z.string() }))
          .describe(
            'Products left out: already shot (or being shot) with these settings; includeDone shoots them again.',
          ),
        skipped: z
          .array(z.object({ folder: z.string(), reason: z.string() }))
          .describe(
            'What Adbatch wrote, found in the paths and never quoted (as scan_inputs answers it); empty for a scanId.',
          ),
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
        const scan = await scanOf(call, input);
        const quote = await call('agents:quote', {
          client: client(),
          request: {
            scanId: scan.scanId,
            accountId: input.accountId ?? options.defaultAccountId,
            ...(input.brandId ? { brandId: input.brandId } : {}),
            shoot,
            video,
            includeDone: input.includeDone ?? false,
            name: input.name,
          },
        });
        return {
          quoteId: quote.quoteId,
          credits: quote.credits,
          balance: quote.balance,
          promised: quote.promised,
          shortfall: quote.shortfall,
          expiresAt: new Date(quote.expiresAt).toISOString(),
          products: quote.products.map((row) => ({ product: row.product, credits: row.credits })),
          priceWords: {
            shoot: priceWords(quote.prices.shoot),
            video: quote.prices.video ? priceWords(quote.prices.video) : null,
          },
          alreadyShot: alreadyShot(quote.setAside),
          skipped: scan.skipped,
          caps: quote.caps.map((cap) => ({ label: cap.label, left: cap.left, passes: cap.passes })),
        };
      }),
  );

  server.registerTool(
    'submit_batch',
    {
      title: 'Submit a quoted batch',
      description:
        'Asks to run a quoted batch (or the videos make_videos quoted). It runs at once only when it fits the allowance the user set for agents; otherwise it waits for a person to approve it in Adbatch ("pending"): tell the user, and follow it with request_status. Retrying with the same clientRequestId never makes a second batch.',
      inputSchema: {
        quoteId: z.string().min(1),
        clientRequestId: z
          .string()
          .min(1)
          .max(200)
          .describe('Your own id for this request: the same id again answers the first request.'),
      },
      outputSchema: requestShape,
      // It spends credits when the batch fits the allowance: the spending is the allowance's rule, not this hint.
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: true },
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
        'Where a submitted request stands: pending (waiting for a person’s approval), created (with its batch), declined or expired.',
      inputSchema: { requestId: requestIdArgument },
      outputSchema: requestShape,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    ({ requestId }) => tool(async () => requestAnswer(await call('agents:request', { id: requestId }))),
  );

  server.registerTool(
    'batch_status',
    {
      title: 'Follow a batch',
      description:
        'A batch’s progress: its status (and why it is paused, in words when the reason is not enough), its shoots and videos by outcome (only a success is “made”), credits charged, refunded and net, the time left while it runs, the shoots and videos taking longer than usual (still followed), and the shoots and videos that wait for a person’s decision in Adbatch (check again, retry, abandon, download again: a person’s, not a tool’s), with what each decision costs. A batch whose credits are in doubt is `needs_you`, never `finished`: `needsYou` says what is at stake; check_batch_again asks the service again, free.',
      inputSchema: { batchId: batchIdArgument },
      outputSchema: {
        batchId: z.string(),
        name: z.string(),
        status: z.enum(BATCH_VIEW_STATUSES),
        statusReason: orNull(z.enum(PAUSE_REASONS)),
        statusWords: z.string(),
        statusMessage: orNull(z.string()),
        needsYou: orNull(z.string()),
        creditsInDoubt: z.number(),
        decisions: z.array(z.object({ decision: z.enum(BATCH_DECISIONS), words: z.string() })),
        jobs: z.number(),
        done: z.number(),
        failed: z.number(),
        outcomeWords: z
          .string()
          .describe('Its shoots and videos by outcome ("6 shoots and videos: 5 made, 1 failed").'),
        creditsCharged: z.number(),
        creditsRefunded: z.number(),
        creditsSpent: z.number().describe('Net: charged less refunded.'),
        moneyWords: z.string().describe('Charged, refunded and net, in the words the app and the CLI use.'),
        resultsFolder: z.string(),
        waitingForDecision: z.array(
          z.object({
            jobId: z.string(),
            product: z.string(),
            kind: z.enum(JOB_KINDS),
            state: z.enum(JOB_STATES),
            stateWords: z.string(),
            creditsAtStake: z.number(),
            // Why it waits, in words: what the service no longer serves and what it was paid, for one.
            why: orNull(z.string()),
            decisions: z.array(z.object({ decision: z.enum(JOB_DECISIONS), words: z.string() })),
          }),
        ),
        timeLeft: orNull(z.string()),
        takingLonger: z.array(
          z.object({ jobId: z.string(), product: z.string(), kind: z.enum(JOB_KINDS), words: z.string() }),
        ),
      },
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
          statusWords: batchStatusWords(batch),
          // Why it is paused in full, where the reason is not enough: what resuming a restored batch may pay twice.
          statusMessage: batch.status === 'paused' ? batch.statusMessage : null,
          needsYou: needsYouWords(batch),
          creditsInDoubt: batch.creditsInDoubt,
          decisions: batch.decisions.map((decision) => ({ decision, words: BATCH_DECISION_WORDS[decision] })),
          jobs: batch.jobs,
          done: batch.done,
          failed: batch.failed,
          outcomeWords: outcomeWords(batch.states, countedJobs(batch)),
          creditsCharged: batchMoney(batch).charged,
          creditsRefunded: batch.creditsRefunded,
          creditsSpent: batch.creditsSpent,
          moneyWords: moneyWords(batchMoney(batch), batch.quotedCredits),
          resultsFolder: batch.resultsFolder,
          waitingForDecision: waitingForDecision(batch),
          // How long it has left while it runs ("about 3 min left", "waiting on the service for 4 min"), or
          // that its service does not answer ("the service has not answered for 2 min (…): Adbatch keeps asking").
          timeLeft: timeLeftWords(batch, Date.now()),
          takingLonger: takingLonger(batch),
        };
      }),
  );

  server.registerTool(
    'check_batch_again',
    {
      title: 'Check a batch’s doubts again',
      description:
        'Check all again, free: every shoot and video of a batch in doubt is asked about once more (one past its deadline is followed again, results paid for are downloaded again, a create whose answer was lost is looked for in the service’s usage report). Nothing is sent again and nothing is charged. Answers the batch as batch_status does; what the check found is in each job’s words.',
      inputSchema: { batchId: batchIdArgument },
      outputSchema: { batchId: z.string(), status: z.enum(BATCH_VIEW_STATUSES), statusWords: z.string() },
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
    },
    ({ batchId }) =>
      tool(async () => {
        const batch = await call('batches:recheck', { id: batchId });
        return { batchId: batch.id, status: batch.status, statusWords: batchStatusWords(batch) };
      }),
  );

  server.registerTool(
    'balance',
    {
      title: 'Balances',
      description: 'The credits each account has, as the service last reported them.',
      inputSchema: {},
      outputSchema: {
        accounts: z.array(
          z.object({
            accountId: z.string(),
            name: z.string(),
            balance: orNull(z.number()),
            brand: orNull(z.string()),
          }),
        ),
      },
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

  server.registerTool(
    'list_results',
    {
      title: 'List a batch’s results',
      description:
        'The shots and videos a batch made, each with its file on this computer (also as a resource link), its product and style, and the decision on it (picked, rejected, stars 0 to 5, a colour label: red, yellow, green or blue).',
      inputSchema: { batchId: batchIdArgument },
      outputSchema: {
        batchId: z.string(),
        results: z.array(
          z.object({
            resultId: z.number(),
            product: z.string(),
            kind: z.enum(RESULT_KINDS),
            style: orNull(z.enum(SHOOT_STYLES)),
            index: z.number(),
            path: z.string(),
            flag: orNull(z.enum(REVIEW_FLAGS)),
            stars: z.number(),
            label: orNull(z.enum(REVIEW_LABELS)),
          }),
        ),
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async ({ batchId }) => {
      try {
        const [batch, review] = await Promise.all([
          call('batches:get', { id: batchId }),
          call('review:get', { batchId }),
        ]);
        const results = review.items.map((item) => ({
          resultId: item.id,
          product: item.productName,
          kind: item.kind,
          style: item.style,
          index: item.index,
          path: join(batch.resultsFolder, item.file),
          flag: item.flag,
          stars: item.stars,
          label: item.label,
        }));
        return {
          content: [
            { type: 'text', text: JSON.stringify({ batchId, results }, null, 2) },
            // Readable with resources/read by any client (mcp/resources.ts): a shot as a JPEG an agent can look at.
            ...results.map((result) => ({
              type: 'resource_link' as const,
              uri: resultUri(batchId, result.resultId),
              name: `${result.product} ${result.kind} ${result.index}`,
              mimeType: result.kind === 'video' ? 'application/json' : 'image/jpeg',
            })),
          ],
          structuredContent: { batchId, results },
        };
      } catch (error) {
        return refused(error);
      }
    },
  );

  server.registerTool(
    'review_decide',
    {
      title: 'Pick, reject or rate results',
      description:
        'Records a decision on results of a batch, as a designer does in Review: pick or reject (null clears it), stars 0 to 5, and a colour label (red, yellow, green or blue; null removes it). Picks are what videos are made from and what is exported.',
      inputSchema: {
        batchId: batchIdArgument,
        resultIds: z.array(resultId).min(1),
        flag: flagChoice.optional(),
        stars: stars.optional(),
        label: labelChoice.optional(),
      },
      outputSchema: {
        results: z.array(
          z.object({
            resultId: z.number(),
            flag: orNull(z.enum(REVIEW_FLAGS)),
            stars: z.number(),
            label: orNull(z.enum(REVIEW_LABELS)),
          }),
        ),
      },
      // A decision replaces the one the designer made before.
      annotations: {
        readOnlyHint: false,
        destructiveHint: true,
        idempotentHint: true,
        openWorldHint: false,
      },
    },
    ({ batchId, resultIds, flag, stars, label }) =>
      tool(async () => {
        if (flag === undefined && stars === undefined && label === undefined) {
          throw new Refusal(
            'bad_request',
            'Say what to record: a flag (picked, rejected or null), stars, a colour label (or null), or several.',
          );
        }
        const decided = await call('review:decide', {
          batchId,
          resultIds,
          change: {
            ...(flag !== undefined ? { flag } : {}),
            ...(stars !== undefined ? { stars } : {}),
            ...(label !== undefined ? { label } : {}),
          },
        });
        return {
          results: decided.items.map((item) => ({
            resultId: item.id,
            flag: item.flag,
            stars: item.stars,
            label: item.label,
          })),
        };
      }),
  );

  server.registerTool(
    'make_videos',
    {
      title: 'Quote videos from the picks',
      description:
        'What a video ad of each product of a batch, made from its picked shots, would cost: a new quote, nothing spent. Submit its quote id with submit_batch, like a batch: a person approves it unless it fits the allowance.',
      inputSchema: {
        batchId: batchIdArgument,
        duration: videoChoices.duration
          .optional()
          .describe('Seconds; the batch’s video settings or the catalog default when absent.'),
        resolution: videoChoices.resolution.optional(),
      },
      outputSchema: {
        quoteId: z.string(),
        credits: z.number(),
        balance: z.number(),
        shortfall: z.number(),
        expiresAt: z.string(),
        products: z.array(z.object({ product: z.string(), picks: z.number(), credits: z.number() })),
        priceWords: z.string().describe('How one video’s price adds up, in the words Adbatch shows people.'),
      },
      annotations: { readOnlyHint: true, openWorldHint: true },
    },
    ({ batchId, duration, resolution }) =>
      tool(async () => {
        const batch = await call('batches:get', { id: batchId });
        const base = batch.videosAfterReview?.video ?? batch.video ?? catalog.defaults.video;
        const quote = await call('agents:quoteVideos', {
          client: client(),
          request: {
            batchId,
            video: {
              ...base,
              ...(duration ? { duration } : {}),
              ...(resolution ? { resolution } : {}),
            } as ArgsOf<'agents:quoteVideos'>['request']['video'],
          },
        });
        return {
          quoteId: quote.quoteId,
          credits: quote.credits,
          balance: quote.balance,
          shortfall: quote.shortfall,
          expiresAt: new Date(quote.expiresAt).toISOString(),
          products: quote.products.map((row) => ({
            product: row.productName,
            picks: row.picks.length,
            credits: row.credits,
          })),
          priceWords: priceWords(quote.price),
        };
      }),
  );

  server.registerTool(
    'export_batch',
    {
      title: 'Export a batch',
      description: `Writes a batch's picked results (or more) as the files a channel wants, with export recipes (built in: Original, Shopify, Amazon main, Amazon additional, Instagram feed, Story/Reels, Web; or the designer's own), and a manifest, into a folder the user allowed for agents${options.exportFolders().length > 0 ? ` (${options.exportFolders().join(', ')}, or a folder inside one)` : ' (none is allowed yet)'}. A second identical export writes nothing. Waits for the files up to waitSeconds (45 at most), sending progress when asked; an export still running then is answered with export_status to poll, and one whose call is cancelled is stopped.`,
      inputSchema: {
        batchId: batchIdArgument,
        folder: z
          .string()
          .min(1)
          .describe(
            'One of the allowed folders or a folder inside one: an absolute path, ~/… in the home folder, or a name taken inside the first allowed folder ("spring" is <first allowed>/spring).',
          ),
        recipes: z.array(z.string().min(1)).min(1).optional().describe('Recipe names; Original when absent.'),
        rule: exportRuleChoice.optional(),
        minStars: z.number().int().min(0).max(5).optional(),
        acceptWarnings: z
          .array(choice('acceptWarnings', PREFLIGHT_WARNINGS))
          .optional()
          .describe(
            'Pre-flight warning kinds to write anyway (below_recommended, upscaled, not_white, low_fill, not_srgb); a file with another warning is held back with the reason.',
          ),
        waitSeconds: waitSecondsInput,
      },
      outputSchema: exportShape,
      // Destructive: a re-export replaces the files an earlier export placed there when their sources changed.
      annotations: {
        readOnlyHint: false,
        destructiveHint: true,
        idempotentHint: true,
        openWorldHint: false,
      },
    },
    ({ batchId, folder, recipes, rule, minStars, acceptWarnings, waitSeconds }, extra) =>
      tool(async () => {
        const destination = await allowedFolder(folder, options.exportFolders());
        const started = await call('export:start', {
          scope: { batchIds: [batchId] },
          recipes: recipes ?? ['Original'],
          destination,
          selection: { rule: rule ?? 'picked', minStars: minStars ?? 0 },
          manifest: { csv: true, json: true },
          acceptWarnings: acceptWarnings ?? [],
        });
        // Cancelling this call stops the export only if no other call that started or joined it follows it.
        const answer = await followExport(call, started.id, extra, {
          waitSeconds,
          callers: exportCallersOf(call),
        });
        return { ...answer, leftOut: started.leftOut, notices: started.notices };
      }),
  );
  registerExportStatus(server, call);
  registerWaitBatch(server, call);

  server.registerTool(
    'usage',
    {
      title: 'Usage',
      description:
        'Credits charged, refunded and net per client brand (or account) in a period, from Adbatch’s ledger; this calendar month (UTC) when no period is given.',
      inputSchema: {
        from: z.string().optional().describe('First day, YYYY-MM-DD (UTC).'),
        to: z.string().optional().describe('Last day, YYYY-MM-DD (UTC), included.'),
      },
      outputSchema: {
        from: z.string(),
        to: z.string(),
        lines: z.array(
          z.object({
            billedTo: z.string(),
            images: z.number(),
            videos: z.number(),
            charged: z.number(),
            refunded: z.number(),
            net: z.number(),
            cap: orNull(z.number()),
            left: orNull(z.number()),
          }),
        ),
        totals: z.object({
          images: z.number(),
          videos: z.number(),
          charged: z.number(),
          refunded: z.number(),
          pending: z.number(),
          net: z.number(),
        }),
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    ({ from, to }) =>
      tool(async () => {
        const view = await call('usage:get', periodOf(from, to));
        return {
          from: new Date(view.period.from).toISOString(),
          to: new Date(view.period.to).toISOString(),
          lines: view.lines.map((line) => ({
            billedTo: ownerName(line.owner),
            images: line.images,
            videos: line.videos,
            charged: line.charged,
            refunded: line.refunded,
            net: line.net,
            cap: line.cap,
            left: line.left,
          })),
          totals: view.totals,
        };
      }),
  );

  registerResources(server, call);
  return server;
}

/** [from, to) from days given as YYYY-MM-DD (UTC), either left out: this month by default. */
function periodOf(from?: string, to?: string): UsagePeriod {
  const day = (text: string, what: string) => {
    const at = utcDay(text);
    if (at === null) throw new Refusal('bad_request', `${what} is not a day: give it as YYYY-MM-DD.`);
    return at;
  };
  const period = daysPeriod(
    { ...(from ? { from: day(from, 'from') } : {}), ...(to ? { to: day(to, 'to') } : {}) },
    Date.now(),
  );
  if (typeof period === 'string') throw new Refusal('bad_request', period);
  return period;
}

/** The jobs core offers decisions on, each with the decisions in words (a person's to make, in Adbatch). */
function waitingForDecision(batch: BatchDetail): Array<Record<string, unknown>> {
  return batch.items.flatMap((product) =>
    product.jobs
      .filter((job) => job.decisions.length > 0)
      .map((job) => ({
        jobId: job.id,
        product: product.name,
        kind: job.kind,
        state: job.state,
        stateWords: jobWords(job),
        creditsAtStake: job.creditsAtStake,
        why: job.failureMessage,
        decisions: job.decisions.map((decision) => ({ decision, words: decisionWords(decision, job) })),
      })),
  );
}

/** The running jobs past their deadline: still followed, only slow. */
function takingLonger(batch: BatchDetail): Array<Record<string, unknown>> {
  return batch.items.flatMap((product) =>
    product.jobs
      .filter((job) => job.late)
      .map((job) => ({ jobId: job.id, product: product.name, kind: job.kind, words: TAKING_LONGER_WORDS })),
  );
}

function requestAnswer(request: ResultOf<'agents:submit'>): Record<string, unknown> {
  return {
    requestId: request.id,
    state: request.state,
    stateWords: AGENT_REQUEST_STATE_WORDS[request.state],
    batchId: request.batchId,
    credits: request.credits,
    reason: request.reason,
  };
}
