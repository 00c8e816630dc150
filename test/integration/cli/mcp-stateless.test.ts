import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADBATCH_BIN } from '../../support/cli.ts';
import { makeProductFolders } from '../../support/product-folders.ts';
import { type DefaultHarness, startDefaultHarness } from '../../support/sandbox-harness.ts';

// A client that starts `adbatch mcp` for each call (as the MCP Inspector's CLI does, issue 30 point 2),
// against a real sandbox: a scan in one process, its quote in a second, the submit in a third, each a
// fresh server on the same data folder, answer as one long-lived server would; so does a quote of paths.

let service: DefaultHarness;
let dir: string;

beforeAll(async () => {
  service = await startDefaultHarness({ timeScale: 0.002 });
  dir = await mkdtemp(join(tmpdir(), 'adbatch-mcp-stateless-'));
}, 60_000);
afterAll(async () => {
  await service?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** One tool call in a server of its own, started for it and closed after it, as a per-call client does. */
async function oneCall(name: string, args: Record<string, unknown>): Promise<CallToolResult> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [
      ADBATCH_BIN,
      'mcp',
      '--data-dir',
      join(dir, 'data'),
      '--library',
      join(dir, 'library'),
      '--base-url',
      service.sandbox.url,
    ],
    cwd: dir,
    env: { ...(process.env as Record<string, string>), ADBATCH_API_KEY: service.keys.personal },
    stderr: 'pipe',
  });
  const client = new Client({ name: 'Per-call agent', version: '1.0.0' });
  await client.connect(transport);
  try {
    return (await client.callTool({ name, arguments: args })) as CallToolResult;
  } finally {
    await client.close();
  }
}

async function answered(name: string, args: Record<string, unknown>): Promise<Record<string, unknown>> {
  const result = await oneCall(name, args);
  expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
  return result.structuredContent as Record<string, unknown>;
}

const settings = { style: 'classic', shots: 1, quality: 'standard' };

describe('adbatch mcp started per call', () => {
  it('scans in one process, quotes in a second, submits in a third', async () => {
    const paths = await makeProductFolders(join(dir, 'per-call'), 2);
    const scan = await answered('scan_inputs', { paths });
    expect(scan.products).toHaveLength(2);
    const quote = await answered('quote_batch', { scanId: scan.scanId, name: 'Per call', ...settings });
    expect(quote).toMatchObject({ credits: 2, alreadyShot: [] });
    const submitted = await answered('submit_batch', {
      quoteId: quote.quoteId,
      clientRequestId: 'per-call-1',
    });
    expect(submitted).toMatchObject({ state: 'pending', credits: 2, batchId: null });
    const followed = await answered('request_status', { requestId: submitted.requestId });
    expect(followed).toMatchObject({ requestId: submitted.requestId, state: 'pending' });
  }, 120_000);

  it('quotes paths in one process and submits in another', async () => {
    const paths = await makeProductFolders(join(dir, 'by-paths'), 1);
    const quote = await answered('quote_batch', { paths, name: 'By paths', ...settings });
    expect(quote).toMatchObject({ credits: 1 });
    const submitted = await answered('submit_batch', {
      quoteId: quote.quoteId,
      clientRequestId: 'by-paths-1',
    });
    expect(submitted).toMatchObject({ state: 'pending', credits: 1 });
  }, 120_000);
});
