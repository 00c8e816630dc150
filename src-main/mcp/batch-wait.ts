import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { BATCH_VIEW_STATUSES } from '../shared/vocabulary.ts';
import { batchStatusWords, SERVICE_TROUBLE_BADGE } from '../shared/words.ts';
import { waitSecondsInput } from './export-work.ts';
import { waitForWork, waitMs } from './long-work.ts';
import { batchIdArgument } from './schemas.ts';
import { type CoreCall, tool } from './server.ts';

// A batch followed to its end in one call (issue 30, point 3), without outlasting the client: `wait_batch`
// waits while the batch runs, at most LONG_WAIT_MS, reporting its jobs done as progress when asked. It
// answers when the batch is no longer running (finished, needs you, paused, cancelled) or when the wait is
// over, then with `batch_status` to poll. A client that cancels only stops the wait: the batch is the
// person's (or the allowance's), not this call's, and runs on.

export function registerWaitBatch(server: McpServer, call: CoreCall): void {
  server.registerTool(
    'wait_batch',
    {
      title: 'Wait for a batch',
      description:
        'Waits while a batch runs, up to waitSeconds (45 at most), sending its jobs done as progress when the client asks for progress; answers when it stops running (finished, needs_you, paused, cancelled) or when the wait is over, with batch_status to call for the details. Cancelling the call stops the wait, never the batch.',
      inputSchema: { batchId: batchIdArgument, waitSeconds: waitSecondsInput },
      outputSchema: {
        batchId: z.string(),
        status: z.enum(BATCH_VIEW_STATUSES),
        statusWords: z.string(),
        running: z.boolean().describe('Still running: call wait_batch or batch_status again.'),
        jobs: z.number(),
        done: z.number(),
        failed: z.number(),
        poll: z
          .object({ tool: z.literal('batch_status'), arguments: z.object({ batchId: z.string() }) })
          .describe('What to call next: the batch’s details, or its progress while it runs.'),
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    ({ batchId, waitSeconds }, extra) =>
      tool(async () => {
        const { value: batch } = await waitForWork({
          read: () => call('batches:get', { id: batchId }),
          ended: (batch) => batch.status !== 'running',
          progress: (batch) => ({
            done: batch.done + batch.failed,
            total: batch.jobs,
            // Its service's trouble in words that do not change each second: a progress is sent when they do.
            message: `${batch.done} of ${batch.jobs} jobs done${batch.failed > 0 ? `, ${batch.failed} failed` : ''}${batch.serviceTrouble ? `; ${SERVICE_TROUBLE_BADGE[batch.serviceTrouble.kind]} (${batch.serviceTrouble.reason})` : ''}`,
          }),
          extra,
          limitMs: waitMs(waitSeconds),
        });
        return {
          batchId: batch.id,
          status: batch.status,
          statusWords: batchStatusWords(batch),
          running: batch.status === 'running',
          jobs: batch.jobs,
          done: batch.done,
          failed: batch.failed,
          poll: { tool: 'batch_status', arguments: { batchId: batch.id } },
        };
      }),
  );
}
