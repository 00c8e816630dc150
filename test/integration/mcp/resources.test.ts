import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { type CallToolResult, ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXAMPLES_DIR } from '../../harness/app-server.ts';
import { type CoreHarness, callCore, finishedBatch, startCoreHarness } from '../../support/core-harness.ts';
import { QUICK_SHOOT } from '../../support/job-settings.ts';
import { connectMcpClient } from '../../support/mcp-client.ts';
import { until } from '../../support/until.ts';

// A batch's results and an export's manifests readable over MCP (issue 30), on a real core with the embedded
// Sandbox: the links list_results answers are read with resources/read, a shot as a JPEG at most 1024 px
// with its original's path and size; a manifest as its text; an unknown id is a clear resource error.

let h: CoreHarness;
let client: Client;
let batchId: string;

beforeAll(async () => {
  h = await startCoreHarness();
  client = await connectMcpClient(h.core);
  // Pro shots are 2048 px on their long side: the resource serves them at most 1024.
  batchId = await finishedBatch(h.core, {
    inputs: [join(EXAMPLES_DIR, 'hat')],
    name: 'Readable',
    shoot: { ...QUICK_SHOOT, quality: 'pro', aspectRatio: '4:5' },
  });
}, 120_000);
afterAll(async () => {
  await client?.close();
  await h?.close();
});

/** A resources/read that must fail: the MCP error the client gets. */
async function readError(uri: string): Promise<McpError> {
  const error = await client.readResource({ uri }).then(
    () => null,
    (thrown: unknown) => thrown,
  );
  expect(error, uri).toBeInstanceOf(McpError);
  return error as McpError;
}

describe('resources over MCP', () => {
  it('declares a template per result and per export manifest', async () => {
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates.map((template) => template.uriTemplate).sort()).toEqual([
      'adbatch://export/{exportId}/manifest',
      'adbatch://result/{batchId}/{resultId}',
    ]);
  });

  it('serves each result list_results links, resized for an agent, with its original’s path', async () => {
    const listing = (await client.callTool({
      name: 'list_results',
      arguments: { batchId },
    })) as CallToolResult;
    const { results } = listing.structuredContent as { results: Array<{ resultId: number; path: string }> };
    const links = listing.content.filter((item) => item.type === 'resource_link');
    expect(links).toHaveLength(1);
    const [link] = links;
    expect(link).toMatchObject({
      uri: `adbatch://result/${batchId}/${results[0]!.resultId}`,
      mimeType: 'image/jpeg',
    });

    const { contents } = await client.readResource({ uri: link!.uri });
    const image = contents.find((content) => 'blob' in content);
    expect(image).toMatchObject({ uri: link!.uri, mimeType: 'image/jpeg' });
    const served = await sharp(Buffer.from((image as { blob: string }).blob, 'base64')).metadata();
    expect(served).toMatchObject({ format: 'jpeg', width: 819, height: 1024 });
    const original = await sharp(results[0]!.path).metadata();
    expect(original).toMatchObject({ width: 1638, height: 2048 });
    const about = contents.find((content) => 'text' in content) as { text: string; mimeType: string };
    expect(about.mimeType).toBe('application/json');
    expect(JSON.parse(about.text)).toMatchObject({
      resultId: results[0]!.resultId,
      kind: 'shot',
      path: results[0]!.path,
      original: { width: 1638, height: 2048 },
      served: { width: 819, height: 1024 },
    });
  });

  it('serves an export’s manifests as their text', async () => {
    const destination = join(h.dir, 'exports', 'readable');
    const started = await callCore(h.core, 'export:start', {
      scope: { batchIds: [batchId] },
      recipes: ['Original'],
      destination,
      selection: { rule: 'not-rejected' },
      manifest: { csv: true, json: true },
    });
    await until(async () => (await callCore(h.core, 'export:get', { id: started.id })).state !== 'running');
    const view = await callCore(h.core, 'export:get', { id: started.id });
    expect(view).toMatchObject({ state: 'done', written: 1, manifests: ['manifest.csv', 'manifest.json'] });

    const uri = `adbatch://export/${started.id}/manifest`;
    const { contents } = await client.readResource({ uri });
    const manifest = async (file: string, mimeType: string) => ({
      uri,
      mimeType,
      text: await readFile(join(destination, file), 'utf8'),
      _meta: { path: join(destination, file) },
    });
    expect(contents).toEqual([
      await manifest('manifest.csv', 'text/csv'),
      await manifest('manifest.json', 'application/json'),
    ]);
  }, 60_000);

  it('answers an unknown result, batch or export with a resource error that says which', async () => {
    const noResult = await readError(`adbatch://result/${batchId}/999999`);
    expect(noResult.code).toBe(-32002);
    expect(noResult.message).toContain(
      `Batch ${batchId} has no result 999999: list_results names its results.`,
    );
    const noBatch = await readError('adbatch://result/b_none/1');
    expect(noBatch.code).toBe(-32002);
    expect(noBatch.message).toMatch(/b_none/);
    const noExport = await readError('adbatch://export/x_none/manifest');
    expect(noExport.code).toBe(-32002);
    expect(noExport.message).toMatch(/x_none/);
    for (const error of [noResult, noBatch, noExport])
      expect(error.message).not.toMatch(/\b[a-z]+:[a-z]+\b/i);
    // A link of no template Adbatch declares: the SDK's own refusal.
    expect((await readError('adbatch://elsewhere/1')).code).toBe(ErrorCode.InvalidParams);
  });
});
