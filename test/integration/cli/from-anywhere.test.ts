import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult, Progress } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rememberedLibrary } from '../../../src-main/core/app/library-choice.ts';
import { builtInRecipe } from '../../../src-main/core/export/recipes.ts';
import { adbatch, collected } from '../../support/cli.ts';
import { exportItem } from '../../support/export-item.ts';
import { makeSources } from '../../support/export-sources.ts';
import { approveRequest, personalKeyOn, type StdioMcp, startStdioMcp } from '../../support/mcp-stdio.ts';
import { makeProductFolders } from '../../support/product-folders.ts';
import { type DefaultHarness, startDefaultHarness } from '../../support/sandbox-harness.ts';
import { untilValue } from '../../support/until.ts';

// Adbatch run from a folder that is not the checkout, as desktop agents start `adbatch mcp` (they set no
// working folder) and as a designer types `adbatch export` from anywhere: the MCP SDK's client starts the
// server with cwd a temp folder and goes through scan, quote, submit, `adbatch approve` from another
// process (no --library: the data folder's own), the batch to its end and an export; `adbatch export` and
// the app's export worker (the sources' under tsx, and the built out/main one) run from the same temp
// folder. The export folder is held to where it really is: a symbolic link out of it is refused.

const ROOT = resolve(__dirname, '../../..');
const TSX_LOADER = createRequire(import.meta.url).resolve('tsx');
const BUILT_APP_WORKER = join(ROOT, 'out/main/export-worker.js');

let service: DefaultHarness;
let dir: string;
/** The working folder every process here starts in: empty, nowhere near the checkout. */
let cwd: string;
let where: { dataDir: string; library: string };
let exports: string;
let outside: string;
let client: Client;
let stderr: StdioMcp['stderr'];
let tool: StdioMcp['tool'];

beforeAll(async () => {
  service = await startDefaultHarness({ timeScale: 0.002 });
  // Real, so that paths compare as the server answers them (macOS's /tmp is a link).
  dir = await realpath(await mkdtemp(join(tmpdir(), 'adbatch-anywhere-')));
  cwd = join(dir, 'elsewhere');
  await mkdir(cwd);
  where = { dataDir: join(dir, 'data'), library: join(dir, 'library') };
  exports = join(dir, 'exports');
  outside = join(dir, 'outside');
  await mkdir(exports);
  await mkdir(outside);
  ({ client, stderr, tool } = await startStdioMcp({
    where,
    service: personalKeyOn(service),
    exportFolder: exports,
    clientName: 'Desktop Agent',
    cwd,
  }));
}, 60_000);
afterAll(async () => {
  await client?.close();
  await service?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

async function call(name: string, args: Record<string, unknown>): Promise<CallToolResult> {
  return (await client.callTool({ name, arguments: args })) as CallToolResult;
}

/** Every file under `folder`, relative, sorted. */
async function filesUnder(folder: string): Promise<string[]> {
  const entries = await readdir(folder, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name).slice(folder.length + 1))
    .sort();
}

let batchId: string;

describe('adbatch mcp started with a working folder that is not the checkout', () => {
  it('says which library it uses, and the data folder remembers it', () => {
    expect(client.getInstructions()).toContain(`library: ${where.library} (as --library says)`);
    expect(rememberedLibrary(where.dataDir)).toBe(where.library);
  });

  it('quotes, is approved from another process into the same library, runs, and exports', async () => {
    const folders = await makeProductFolders(join(dir, 'products'), 1);
    // Quoted by its paths, as a client that starts a server per call would (no scan held in between).
    const quote = await tool('quote_batch', {
      paths: folders,
      name: 'anywhere',
      style: 'classic',
      shots: 1,
      quality: 'standard',
    });
    const submitted = await tool('submit_batch', { quoteId: quote.quoteId, clientRequestId: 'anywhere-1' });
    expect(submitted).toMatchObject({ state: 'pending' });

    // No --library: the data folder's own, said on stderr (before, ~/Pictures/Adbatch).
    const approved = await approveRequest(submitted.requestId, where, personalKeyOn(service), cwd);
    expect(approved.code, approved.stderr).toBe(0);
    expect(approved.stderr).toBe(`adbatch: library: ${where.library} (this data folder's library)\n`);
    const request = await tool('request_status', { requestId: submitted.requestId });
    batchId = String(request.batchId);
    // Followed to its end by wait_batch, with the progress notifications a desktop agent asks for.
    const progress: Progress[] = [];
    await untilValue(async () => {
      const result = (await client.callTool({ name: 'wait_batch', arguments: { batchId } }, undefined, {
        onprogress: (one) => progress.push(one),
      })) as CallToolResult;
      // Until finished, not only stopped: a batch paused a moment (the service busy) runs on.
      return (result.structuredContent as { status: string }).status === 'finished' ? result : null;
    });
    // Seen, of the batch's 1 job, never past it. Not necessarily the last one: the SDK's client hands a
    // notification to its handler a microtask late, and drops it when the call's answer arrived in the same
    // read (protocol.js deletes the call's progress handler at once); the answer itself says what was done.
    expect(progress.length).toBeGreaterThan(0);
    for (const one of progress) expect(one.total, JSON.stringify(progress)).toBe(1);
    expect(Math.max(...progress.map((one) => one.progress))).toBeLessThanOrEqual(1);
    const { results } = (await tool('list_results', { batchId })) as {
      results: Array<{ resultId: number; path: string }>;
    };
    expect(results).toHaveLength(1);
    expect(results[0]!.path.startsWith(`${where.library}/`), results[0]!.path).toBe(true);
    await tool('review_decide', { batchId, resultIds: [results[0]!.resultId], flag: 'picked' });

    const exported = await tool('export_batch', {
      batchId,
      folder: join(exports, 'a'),
      recipes: ['Shopify'],
      // The sandbox's 1024 px result is under Shopify's recommended 2048 px: written anyway, as asked.
      acceptWarnings: ['below_recommended'],
    });
    expect(exported).toMatchObject({ state: 'done', written: 1, failed: 0, folder: join(exports, 'a') });
    expect(await filesUnder(join(exports, 'a'))).toEqual(
      expect.arrayContaining(['manifest.csv', 'manifest.json', expect.stringMatching(/^Shopify\//)]),
    );
    // Again: nothing rewritten.
    const again = await tool('export_batch', {
      batchId,
      folder: join(exports, 'a'),
      recipes: ['Shopify'],
      acceptWarnings: ['below_recommended'],
    });
    expect(again).toMatchObject({ state: 'done', written: 0, identical: 1, failed: 0 });
    // The result read over MCP, by the link list_results gave.
    const listing = await call('list_results', { batchId });
    const link = listing.content.find((item) => item.type === 'resource_link');
    const read = await client.readResource({ uri: link!.uri });
    expect(read.contents.map((content) => content.mimeType)).toEqual(['image/jpeg', 'application/json']);
    expect(stderr()).not.toMatch(/tsx|Cannot find/);
  }, 90_000);

  it('refuses a link inside the allowed folder that points out of it, writing nothing outside', async () => {
    await symlink(outside, join(exports, 'link'));
    const refused = await call('export_batch', { batchId, folder: join(exports, 'link', 'b') });
    expect(refused.isError).toBe(true);
    expect(JSON.stringify(refused.content)).toContain(
      `is not a folder the user allowed for agents (it leads to ${join(outside, 'b')} through a link)`,
    );
    // A link made where the export's folder is to be made (the folder checked, then a link put there).
    await symlink(join(outside, 'later'), join(exports, 'dangling'));
    const dangling = await call('export_batch', { batchId, folder: join(exports, 'dangling') });
    expect(dangling.isError).toBe(true);
    expect(JSON.stringify(dangling.content)).toContain('is a link');
    // A folder the export makes inside the allowed one is a link out: the export stops, saying so, and
    // nothing lands outside, not even a folder.
    await mkdir(join(exports, 'c'));
    await symlink(outside, join(exports, 'c', 'Original'));
    const inner = await tool('export_batch', { batchId, folder: join(exports, 'c') });
    expect(inner).toMatchObject({ state: 'failed', written: 0 });
    expect(inner.message).toContain(
      `Original/product-01 leads out of ${join(exports, 'c')} through a link (to ${join(outside, 'product-01')})`,
    );
    expect(await readdir(outside)).toEqual([]);
  });

  it('passes over the library reached through a link, as its own', async () => {
    await symlink(where.library, join(dir, 'library-link'));
    const scan = await tool('scan_inputs', { paths: [join(dir, 'library-link')] });
    expect(scan.products).toEqual([]);
    expect(scan.skipped).toEqual([expect.objectContaining({ reason: "Adbatch's own library" })]);
  });
});

describe('exports from a working folder that is not the checkout', () => {
  it('adbatch export writes the files', async () => {
    const to = join(dir, 'cli-export');
    const result = await adbatch(['export', batchId, '--to', to, '--data-dir', where.dataDir], { cwd });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain(`done: 1 written, 0 already there, 0 failed, into ${to}`);
    expect(await filesUnder(to)).toEqual(expect.arrayContaining(['manifest.csv', 'manifest.json']));
  });

  it("the app's export worker runs, from the sources under tsx and built", async () => {
    const sources = await makeSources(join(dir, 'sources'));
    for (const [name, worker] of [
      ['sources', []],
      ['built', [BUILT_APP_WORKER]],
    ] as const) {
      const destination = join(dir, `worker-${name}`);
      const request = join(dir, `worker-${name}.json`);
      await writeFile(
        request,
        JSON.stringify({
          items: [exportItem({ key: 'cap-1', file: sources.aiShot })],
          recipes: [builtInRecipe('web')],
          date: '2026-11-27',
          destination,
        }),
      );
      const child = await collected(
        process.execPath,
        ['--import', TSX_LOADER, join(ROOT, 'test/support/worker-export-child.ts'), request, ...worker],
        { cwd },
      );
      expect(child.code, child.stderr).toBe(0);
      expect(JSON.parse(child.stdout)).toMatchObject({ status: 'done', written: 1, failed: 0 });
      expect(existsSync(destination)).toBe(true);
    }
  }, 60_000);
});
