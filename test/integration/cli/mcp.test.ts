import { existsSync, readdirSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult, Progress } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adbatch } from '../../support/cli.ts';
import { approveRequest, personalKeyOn, type StdioMcp, startStdioMcp } from '../../support/mcp-stdio.ts';
import { makeProductFolders } from '../../support/product-folders.ts';
import { type DefaultHarness, startDefaultHarness } from '../../support/sandbox-harness.ts';
import { untilValue } from '../../support/until.ts';

// `adbatch mcp` driven end to end by the MCP SDK's own client over stdio, as Claude Desktop runs it, against
// a real sandbox (the key in ADBATCH_API_KEY): scan, quote, submit (pending: the sandbox's log shows no
// create), the same client request id again (one request), `adbatch approve` from another process, the
// batch followed to its end; a declined request makes nothing; bad arguments get a schema error in words.

let service: DefaultHarness;
let dir: string;
let where: { dataDir: string; library: string };
let client: Client;
let stderr: StdioMcp['stderr'];
let tool: StdioMcp['tool'];

beforeAll(async () => {
  service = await startDefaultHarness({ timeScale: 0.002 });
  dir = await mkdtemp(join(tmpdir(), 'adbatch-mcp-'));
  where = { dataDir: join(dir, 'data'), library: join(dir, 'library') };
  ({ client, stderr, tool } = await startStdioMcp({
    where,
    service: personalKeyOn(service),
    exportFolder: join(dir, 'exports'),
    clientName: 'Test Desktop',
  }));
}, 60_000);
afterAll(async () => {
  await client?.close();
  await service?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

const creates = async () =>
  (await service.client.requestLog()).filter(
    (entry) => entry.method === 'POST' && entry.path === '/v1/shoots',
  ).length;

async function quoted(name: string, count: number, includeDone = false): Promise<Record<string, unknown>> {
  const folders = await makeProductFolders(join(dir, name), count);
  const scan = await tool('scan_inputs', { paths: folders });
  expect(scan.products).toHaveLength(count);
  return tool('quote_batch', {
    scanId: scan.scanId,
    name,
    style: 'classic',
    shots: 1,
    quality: 'standard',
    includeDone,
  });
}

describe('adbatch mcp', () => {
  it('offers its tools with schemas and honest annotations, and no tool that approves', async () => {
    const { tools } = await client.listTools();
    const byName = new Map(tools.map((one) => [one.name, one]));
    expect([...byName.keys()].sort()).toEqual([
      'balance',
      'batch_status',
      'check_batch_again',
      'export_batch',
      'export_status',
      'list_results',
      'make_videos',
      'quote_batch',
      'request_status',
      'review_decide',
      'scan_inputs',
      'submit_batch',
      'usage',
      'wait_batch',
    ]);
    // A decision replaces the one made before (issue 30): destructive, though it spends nothing.
    expect(byName.get('review_decide')!.annotations).toMatchObject({
      readOnlyHint: false,
      destructiveHint: true,
    });
    expect(byName.get('quote_batch')!.annotations).toMatchObject({ readOnlyHint: true });
    // Check all again spends nothing: it asks the service again, and may be asked twice.
    expect(byName.get('check_batch_again')!.annotations).toMatchObject({
      readOnlyHint: false,
      destructiveHint: false,
      idempotentHint: true,
    });
    expect(byName.get('submit_batch')!.annotations).toMatchObject({
      readOnlyHint: false,
      idempotentHint: true,
    });
    // Every tool says what it takes and what it answers.
    for (const one of tools) {
      expect(one.inputSchema.type, one.name).toBe('object');
      expect(one.outputSchema?.type, one.name).toBe('object');
      expect(one.description, one.name).toBeTruthy();
    }
  });

  it('quotes and submits, spends nothing until a person approves, then runs the batch', async () => {
    const quote = await quoted('agent-autumn', 2);
    expect(quote).toMatchObject({ credits: 2, shortfall: 0, balance: 500, promised: 0 });
    // How the price adds up, in the words the app and the CLI show (issue 31, point 5).
    expect(quote.priceWords).toEqual({ shoot: '1 shot x 1 credit a shot = 1 credit', video: null });
    const before = await creates();
    const submitted = await tool('submit_batch', { quoteId: quote.quoteId, clientRequestId: 'autumn-1' });
    expect(submitted).toMatchObject({
      state: 'pending',
      stateWords: 'waiting for approval',
      batchId: null,
      credits: 2,
    });
    const retried = await tool('submit_batch', { quoteId: quote.quoteId, clientRequestId: 'autumn-1' });
    expect(retried.requestId).toBe(submitted.requestId);
    expect(await creates()).toBe(before);

    // The person's yes, from another process on the same data folder; the agent's client is on the record.
    const listed = await adbatch(['requests', '--data-dir', where.dataDir]);
    expect(listed.stdout).toContain(`${submitted.requestId}  Test Desktop: "agent-autumn"`);
    expect(listed.stdout).toContain('waiting for approval');
    const approved = await approveRequest(submitted.requestId, where, personalKeyOn(service));
    expect(approved.code, approved.stderr).toBe(0);
    expect(approved.stdout).toMatch(/^Approved: batch b_[0-9a-f]+ for Test Desktop, 2 credits\.\n$/);
    const request = await tool('request_status', { requestId: submitted.requestId });
    expect(request).toMatchObject({ state: 'created' });
    // The MCP server holds the queue: it drives the batch the approval made, followed to its end by
    // wait_batch with progress notifications (over stdio, as a desktop agent sees them).
    const progress: Progress[] = [];
    await untilValue(async () => {
      const result = (await client.callTool(
        { name: 'wait_batch', arguments: { batchId: request.batchId } },
        undefined,
        {
          onprogress: (one) => progress.push(one),
        },
      )) as CallToolResult;
      // Until finished, not only stopped: a batch paused a moment (the service busy) runs on.
      return (result.structuredContent as { status: string }).status === 'finished' ? result : null;
    });
    // Seen, of the batch's 2 jobs, never past it. Not necessarily the last one: the SDK's client hands a
    // notification to its handler a microtask late, and drops it when the call's answer arrived in the same
    // read (protocol.js deletes the call's progress handler at once); the answer itself says what was done.
    expect(progress.length).toBeGreaterThan(0);
    for (const one of progress) expect(one.total, JSON.stringify(progress)).toBe(2);
    expect(Math.max(...progress.map((one) => one.progress))).toBeLessThanOrEqual(2);
    let status = await untilValue(async () => {
      const now = await tool('batch_status', { batchId: request.batchId });
      return now.status === 'finished' ? now : null;
    });
    expect(status).toMatchObject({ status: 'finished', done: 2, creditsSpent: 2 });
    expect(status).toMatchObject({
      outcomeWords: '2 shoots: 2 made',
      creditsCharged: 2,
      creditsRefunded: 0,
      moneyWords: '2 credits charged, 0 refunded, 2 net, of 2 quoted',
    });
    expect(await creates()).toBe(before + 2);

    // Its results, each a file on this computer and a resource link; a pick with stars, recorded.
    const listing = (await client.callTool({
      name: 'list_results',
      arguments: { batchId: request.batchId },
    })) as CallToolResult;
    const { results } = listing.structuredContent as {
      results: Array<{ resultId: number; path: string; kind: string; flag: string | null }>;
    };
    expect(results).toHaveLength(2);
    for (const result of results) expect(existsSync(result.path), result.path).toBe(true);
    const links = listing.content.filter((item) => item.type === 'resource_link');
    expect(links).toHaveLength(2);
    // Each link readable over MCP (issue 30): the shot as a JPEG, its original's path beside it.
    const shot = await client.readResource({ uri: links[0]!.uri });
    expect(shot.contents.map((content) => content.mimeType)).toEqual(['image/jpeg', 'application/json']);
    expect(JSON.stringify(shot.contents[1])).toContain(JSON.stringify(results[0]!.path).slice(1, -1));
    const decided = await tool('review_decide', {
      batchId: request.batchId,
      resultIds: [results[0]!.resultId],
      flag: 'picked',
      stars: 4,
    });
    expect(decided.results).toEqual([
      { resultId: results[0]!.resultId, flag: 'picked', stars: 4, label: null },
    ]);
    // A colour label, as the app's keys 6 to 9 set it; the pick and stars stay.
    const labelled = await tool('review_decide', {
      batchId: request.batchId,
      resultIds: [results[0]!.resultId],
      label: 'red',
    });
    expect(labelled.results).toEqual([
      { resultId: results[0]!.resultId, flag: 'picked', stars: 4, label: 'red' },
    ]);
    // The pick exported into a folder the user allowed: written once, identical the second time.
    const folder = join(dir, 'exports', 'autumn');
    // A 1024 px result under Shopify's 2048: held back with the reason until the agent accepts that warning.
    // With every file held back, the export is refused in those words, writing nothing: no manifest, no mark.
    const held = (await client.callTool({
      name: 'export_batch',
      arguments: { batchId: request.batchId, folder, recipes: ['Shopify'] },
    })) as CallToolResult;
    expect(held.isError).toBe(true);
    expect(JSON.stringify(held.content)).toContain(
      'Nothing would be written: the pre-flight holds back the only file: 1 under the channel recommended size (e.g. 1024 px of the result on the long side; Shopify wants 2048 px: choose Pro (2K)). To write what its warnings hold back anyway, accept them: below_recommended.',
    );
    expect(readdirSync(folder)).toEqual([]);
    const accept = { acceptWarnings: ['below_recommended'] };
    const exported = await tool('export_batch', {
      batchId: request.batchId,
      folder,
      recipes: ['Shopify'],
      ...accept,
    });
    expect(exported).toMatchObject({ state: 'done', written: 1, identical: 0, failed: 0, folder });
    const files = exported.files as Array<{ path: string }>;
    expect(files).toHaveLength(1);
    expect(existsSync(files[0]!.path)).toBe(true);
    for (const manifest of exported.manifests as string[]) expect(existsSync(manifest), manifest).toBe(true);
    // The manifests over MCP too, for a client that cannot read this computer's files.
    const { contents } = await client.readResource({ uri: exported.manifestUri as string });
    expect(contents.map((content) => content._meta?.path)).toEqual(exported.manifests);
    expect(
      await tool('export_batch', { batchId: request.batchId, folder, recipes: ['Shopify'], ...accept }),
    ).toMatchObject({
      state: 'done',
      written: 0,
      identical: 1,
    });
    // A name is taken inside the allowed folder (an agent's working folder means nothing here): the same
    // export, written nothing new. One that climbs out of it is refused as any folder outside.
    expect(
      await tool('export_batch', {
        batchId: request.batchId,
        folder: 'autumn',
        recipes: ['Shopify'],
        ...accept,
      }),
    ).toMatchObject({ state: 'done', written: 0, identical: 1, folder });
    const climbing = (await client.callTool({
      name: 'export_batch',
      arguments: { batchId: request.batchId, folder: '../not-allowed' },
    })) as CallToolResult;
    expect(climbing.isError).toBe(true);
    expect(JSON.stringify(climbing.content)).toContain('is not a folder the user allowed for agents');
    const elsewhere = (await client.callTool({
      name: 'export_batch',
      arguments: { batchId: request.batchId, folder: join(dir, 'not-allowed') },
    })) as CallToolResult;
    expect(elsewhere.isError).toBe(true);
    expect(JSON.stringify(elsewhere.content)).toContain('is not a folder the user allowed for agents');
    expect(existsSync(join(dir, 'not-allowed'))).toBe(false);

    // Videos from the pick: a new quote, a request, nothing sent before the yes.
    const videoPosts = async () =>
      (await service.client.requestLog()).filter(
        (entry) => entry.method === 'POST' && entry.path === '/v1/videos',
      ).length;
    const videoQuote = await tool('make_videos', {
      batchId: request.batchId,
      duration: 5,
      resolution: '480p',
    });
    expect(videoQuote.products).toEqual([
      expect.objectContaining({ picks: 1 }),
      expect.objectContaining({ picks: 0, credits: 0 }),
    ]);
    const videoCredits = videoQuote.credits as number;
    expect(videoCredits).toBeGreaterThan(0);
    expect(videoQuote.priceWords).toBe(
      '5 s x 2 credits a second = 10 - 1 (15 % off without a model, rounded down to whole credits) = 9 credits',
    );
    expect(videoCredits).toBe(9);
    const videoRequest = await tool('submit_batch', {
      quoteId: videoQuote.quoteId,
      clientRequestId: 'autumn-videos',
    });
    expect(videoRequest).toMatchObject({ state: 'pending', credits: videoCredits });
    expect(await videoPosts()).toBe(0);
    const yes = await approveRequest(videoRequest.requestId, where, personalKeyOn(service));
    expect(yes.code, yes.stderr).toBe(0);
    status = await untilValue(async () => {
      const now = await tool('batch_status', { batchId: request.batchId });
      return now.status === 'finished' && now.jobs === 3 ? now : null;
    });
    expect(status).toMatchObject({ status: 'finished', jobs: 3, done: 3, creditsSpent: 2 + videoCredits });
    expect(status).toMatchObject({
      outcomeWords: '3 shoots and videos: 3 made',
      moneyWords: `${2 + videoCredits} credits charged, 0 refunded, ${2 + videoCredits} net, of ${2 + videoCredits} quoted`,
    });
    expect(await videoPosts()).toBe(1);

    const usage = await tool('usage', {});
    expect(usage.totals).toMatchObject({ charged: 2 + videoCredits, net: 2 + videoCredits });
  }, 90_000);

  it('lists no request where nothing ran, creating nothing', async () => {
    const empty = join(dir, 'never-used');
    const listed = await adbatch(['requests', '--data-dir', empty]);
    expect(listed).toMatchObject({ code: 0, stdout: `No agent has asked for anything in ${empty}.\n` });
    expect(existsSync(empty)).toBe(false);
  });

  it("says which folders it passed over as Adbatch's own, and scans the rest", async () => {
    const [ordinary] = await makeProductFolders(join(dir, 'agent-ordinary'), 1);
    const scan = await tool('scan_inputs', { paths: [where.library, ordinary!] });
    expect(scan.products).toEqual([{ name: 'product-01', photos: 1 }]);
    expect(scan.skipped).toEqual([{ folder: where.library, reason: "Adbatch's own library" }]);
  });

  it('makes nothing when a person declines', async () => {
    // The fixture's photos were shot by the first test's batch: shot again, so the quote has something to make.
    const quote = await quoted('agent-declined', 1, true);
    expect(quote.credits).toBe(1);
    const submitted = await tool('submit_batch', { quoteId: quote.quoteId, clientRequestId: 'declined-1' });
    const before = await creates();
    const declined = await adbatch([
      'decline',
      String(submitted.requestId),
      '--data-dir',
      where.dataDir,
      '--reason',
      'Not for this client',
    ]);
    expect(declined.code, declined.stderr).toBe(0);
    expect(await tool('request_status', { requestId: submitted.requestId })).toMatchObject({
      state: 'declined',
      batchId: null,
      reason: 'Not for this client',
    });
    expect(await creates()).toBe(before);
  });

  it('answers bad arguments with a schema error, and a refusal in the core’s words', async () => {
    const bad = (await client
      .callTool({ name: 'quote_batch', arguments: { scanId: 42, name: 'x' } })
      .catch((error: Error) => ({
        isError: true,
        content: [{ type: 'text', text: error.message }],
      }))) as CallToolResult;
    expect(bad.isError).toBe(true);
    expect(JSON.stringify(bad.content)).toMatch(/scanId/);
    expect(JSON.stringify(bad.content)).toMatch(/expected string/i);
    const unknown = (await client.callTool({
      name: 'submit_batch',
      arguments: { quoteId: 'q_none', clientRequestId: 'nothing' },
    })) as CallToolResult;
    expect(unknown.isError).toBe(true);
    expect(JSON.stringify(unknown.content)).toContain('There is no quote q_none for Test Desktop here');
    const noRequest = (await client.callTool({
      name: 'request_status',
      arguments: { requestId: 'ar_none' },
    })) as CallToolResult;
    expect(noRequest.isError).toBe(true);
    expect(JSON.stringify(noRequest.content)).toContain(
      'There is no request from an agent with the id ar_none.',
    );
    const badDay = (await client.callTool({
      name: 'usage',
      arguments: { from: '26/11/2026' },
    })) as CallToolResult;
    expect(badDay.isError).toBe(true);
    expect(JSON.stringify(badDay.content)).toContain('from is not a day: give it as YYYY-MM-DD.');
    expect(stderr()).toBe('');
  });
});
