import { copyFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CoreHarness, callCore, startCoreHarness } from '../../support/core-harness.ts';
import { type McpInProcess, startMcpInProcess } from '../../support/mcp-in-process.ts';
import { makeProductFolders } from '../../support/product-folders.ts';
import { untilValue } from '../../support/until.ts';

// quote_batch for an agent that holds nothing between calls (issue 30, point 2), the SDK's client on a real
// core: it quotes paths directly; products already shot are listed with why, never a silent zero, and
// includeDone quotes them again; an unknown scan id is answered with what to do in the agent's terms.

let h: CoreHarness;
let mcp: McpInProcess;

beforeAll(async () => {
  h = await startCoreHarness();
  mcp = await startMcpInProcess(h, 'Stateless agent');
  // The allowance lets the agent's first batch run without a person, so it can be shot and quoted again.
  await callCore(h.core, 'agents:setAllowance', { brandId: null, credits: 100 });
}, 30_000);
afterAll(async () => {
  await mcp?.client.close();
  await h?.close();
});

const settings = { style: 'classic', shots: 1, quality: 'standard' };

describe('quote_batch without a scan held', () => {
  it('quotes paths, then lists what was shot already with why, and quotes it again with includeDone', async () => {
    const paths = await makeProductFolders(join(h.dir, 'shot-once'), 2);
    const first = await mcp.tool('quote_batch', { paths, name: 'Shot once', ...settings });
    expect(first).toMatchObject({ credits: 2, alreadyShot: [] });
    expect(first.products).toHaveLength(2);
    const submitted = await mcp.tool('submit_batch', { quoteId: first.quoteId, clientRequestId: 'once' });
    expect(submitted).toMatchObject({ state: 'created' });
    await untilValue(async () => {
      const waited = await mcp.tool('wait_batch', { batchId: submitted.batchId });
      return waited.status === 'finished' ? waited : null;
    });

    const again = await mcp.tool('quote_batch', { paths, name: 'Shot twice', ...settings });
    expect(again).toMatchObject({ credits: 0, products: [] });
    expect(again.alreadyShot).toEqual(
      ['product-01', 'product-02'].map((product) => ({
        product,
        reason: expect.stringContaining('already shot from these photos with these settings in "Shot once"'),
      })),
    );
    // Nothing to shoot is refused at the submit, saying what to do, rather than left to expire later.
    const empty = (await mcp.client.callTool({
      name: 'submit_batch',
      arguments: { quoteId: again.quoteId, clientRequestId: 'twice' },
    })) as CallToolResult;
    expect(empty.isError).toBe(true);
    expect(JSON.stringify(empty.content)).toContain(
      `The quote ${again.quoteId} has nothing to shoot: its products were shot already with these settings. Quote again with includeDone`,
    );
    expect(await callCore(h.core, 'agents:requests')).toHaveLength(1);
    const reshoot = await mcp.tool('quote_batch', {
      paths,
      name: 'Shot twice',
      includeDone: true,
      ...settings,
    });
    expect(reshoot).toMatchObject({ credits: 2, alreadyShot: [] });
    expect(reshoot.products).toHaveLength(2);

    // A shot of that batch copied in beside a new product's photo: never quoted, and said so.
    const [fresh] = await makeProductFolders(join(h.dir, 'new'), 1, 2);
    const { resultsFolder } = await callCore(h.core, 'batches:get', { id: submitted.batchId as string });
    const shot = (await readdir(join(resultsFolder, '001 product-01'))).find((name) =>
      /\.(png|jpe?g|webp)$/.test(name),
    )!;
    await copyFile(join(resultsFolder, '001 product-01', shot), join(fresh!, 'ai.png'));
    const copied = await mcp.tool('quote_batch', {
      paths: [fresh!],
      name: 'New',
      includeDone: true,
      ...settings,
    });
    expect(copied).toMatchObject({ credits: 1, products: [{ product: 'product-01' }] });
    expect(copied.skipped).toEqual([
      {
        folder: join(fresh!, 'ai.png'),
        reason: 'a result Adbatch downloaded (product-01, in batch “Shot once”)',
      },
    ]);
  }, 120_000);

  it('answers an unknown scan id, and a quote of nothing, with what to do', async () => {
    const unknown = (await mcp.client.callTool({
      name: 'quote_batch',
      arguments: { scanId: 'sc_gone', name: 'Gone', ...settings },
    })) as CallToolResult;
    expect(unknown.isError).toBe(true);
    expect(JSON.stringify(unknown.content)).toContain(
      'Scan sc_gone expired or is unknown (scans are kept 30 minutes): quote again with the paths instead of the scan id.',
    );
    const nothing = (await mcp.client.callTool({
      name: 'quote_batch',
      arguments: { name: 'Nothing', ...settings },
    })) as CallToolResult;
    expect(nothing.isError).toBe(true);
    expect(JSON.stringify(nothing.content)).toContain('Give the paths to quote');
  });
});
