import { join } from 'node:path';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import type { ExportDetail } from '../shared/models.ts';
import { EXPORT_STATES } from '../shared/vocabulary.ts';
import { exportStateWords } from '../shared/words.ts';
import { LONG_WAIT_MS, type ToolExtra, waitForWork, waitMs } from './long-work.ts';
import { exportManifestUri } from './resources.ts';
import { orNull } from './schemas.ts';
import { type CoreCall, tool } from './server.ts';

// An export as an agent sees it (issue 30, point 3): `export_batch` starts it and waits for its files at
// most LONG_WAIT_MS, reporting each file as progress; an export still running past that is answered at once
// with `export_status` to poll, and one the client cancelled while it waited is stopped (the tool started
// it: no one else is waiting for it). `export_status` reads any export again, free.

/** What export_batch and export_status answer. */
export const exportShape = {
  exportId: z.string(),
  state: z.enum(EXPORT_STATES),
  stateWords: z.string(),
  folder: z.string(),
  done: z.number().describe('Files done so far, of total.'),
  total: z.number().describe('Files planned; 0 while the export is still planning them.'),
  written: z.number(),
  identical: z.number(),
  failed: z.number(),
  message: orNull(z.string()),
  files: z.array(z.object({ path: z.string(), warnings: z.array(z.string()), error: z.string().optional() })),
  manifests: z.array(z.string()),
  manifestUri: z.string().describe('The manifests over MCP, with resources/read.'),
  notes: z.array(z.string()),
  leftOut: z
    .array(z.string())
    .optional()
    .describe(
      'What the batch holds that this export leaves out, and why ("11 videos not picked are not exported"); export_batch only.',
    ),
  notices: z
    .array(z.string())
    .optional()
    .describe(
      "What the export's plan says before writing, as the app's export dialog and the CLI say it: SKUs written without their dashes or shared by two products, an 11-digit SKU that reads as a UPC with its leading zero dropped, where the Shopify files will be uploaded; export_batch only.",
    ),
  poll: z
    .object({ tool: z.literal('export_status'), arguments: z.object({ exportId: z.string() }) })
    .optional()
    .describe('Present while the export runs: call this tool with these arguments to follow it.'),
};

/** How long a tool may be asked to wait: the agent's choice, within the cap that keeps it under a timeout. */
export const waitSecondsInput = z
  .number()
  .int()
  .min(0)
  .max(LONG_WAIT_MS / 1000)
  .optional()
  .describe('The most seconds to wait before answering (45 when absent); 0 answers at once.');

export function exportAnswer(view: ExportDetail): Record<string, unknown> {
  return {
    exportId: view.id,
    state: view.state,
    stateWords: exportStateWords(view),
    folder: view.destination,
    done: view.state === 'running' ? (view.progress?.done ?? 0) : view.total,
    total: view.progress?.total ?? view.total,
    written: view.written,
    identical: view.identical,
    failed: view.failed,
    message: view.message,
    files: view.files.slice(0, 200).map((file) => ({
      path: join(view.destination, file.path),
      warnings: file.warnings,
      ...(file.error ? { error: file.error } : {}),
    })),
    manifests: view.manifests.map((manifest) => join(view.destination, manifest)),
    manifestUri: exportManifestUri(view.id),
    notes: view.notes,
    ...(view.state === 'running'
      ? { poll: { tool: 'export_status', arguments: { exportId: view.id } } }
      : {}),
  };
}

/**
 * The `export_batch` calls following each export they started or joined: a cancelled call stops the export
 * only when it was the last (a retry answered the export under way by `export:start` keeps it going).
 */
export type ExportCallers = Map<string, number>;

const callersByCore = new WeakMap<CoreCall, ExportCallers>();

/** The callers of one core's exports, shared by every session served on it (each HTTP client has its own server). */
export function exportCallersOf(call: CoreCall): ExportCallers {
  let callers = callersByCore.get(call);
  if (!callers) {
    callers = new Map();
    callersByCore.set(call, callers);
  }
  return callers;
}

/**
 * Follows an export until it has ended, the wait is over (answered running, with what to poll) or the
 * client cancels. `callers`: the call started (or was answered) this export, and counts among those that
 * follow it; when cancelled as the last of them, the export is cancelled too. Without (`export_status`),
 * a cancelled call only stops waiting.
 */
export async function followExport(
  call: CoreCall,
  exportId: string,
  extra: ToolExtra,
  options: { waitSeconds?: number; callers?: ExportCallers },
): Promise<Record<string, unknown>> {
  const { callers } = options;
  callers?.set(exportId, (callers.get(exportId) ?? 0) + 1);
  let waited: Awaited<ReturnType<typeof waitForExport>>;
  try {
    waited = await waitForExport(call, exportId, extra, options.waitSeconds);
  } finally {
    const left = (callers?.get(exportId) ?? 1) - 1;
    if (left > 0) callers?.set(exportId, left);
    else callers?.delete(exportId);
  }
  if (
    waited.outcome === 'cancelled' &&
    callers &&
    !callers.has(exportId) &&
    waited.value.state === 'running'
  ) {
    await call('export:cancel', { id: exportId });
    return exportAnswer(await call('export:get', { id: exportId }));
  }
  return exportAnswer(waited.value);
}

function waitForExport(call: CoreCall, exportId: string, extra: ToolExtra, waitSeconds: number | undefined) {
  return waitForWork({
    read: () => call('export:get', { id: exportId }),
    ended: (view) => view.state !== 'running',
    progress: (view) => {
      const { done, total } = view.progress ?? { done: 0, total: view.total };
      return {
        done,
        total: total > 0 ? total : null,
        message: total > 0 ? `${done} of ${total} files exported` : 'planning the files',
      };
    },
    extra,
    limitMs: waitMs(waitSeconds),
  });
}

export function registerExportStatus(server: McpServer, call: CoreCall): void {
  server.registerTool(
    'export_status',
    {
      title: 'Follow an export',
      description:
        'Where an export stands (one export_batch answered still running): files done of total, written, identical and failed, and when it has ended its files and manifests. Waits for it to end up to waitSeconds, sending progress when asked.',
      inputSchema: { exportId: z.string().min(1), waitSeconds: waitSecondsInput },
      outputSchema: exportShape,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    ({ exportId, waitSeconds }, extra) =>
      tool(() => followExport(call, exportId, extra, { waitSeconds: waitSeconds ?? 0 })),
  );
}
