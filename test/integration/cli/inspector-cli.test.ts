import { mkdir, mkdtemp, realpath, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import {
  type CallToolResult,
  CallToolResultSchema,
  ListToolsResultSchema,
  ReadResourceResultSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type CliResult, collected } from '../../support/cli.ts';
import { approveRequest, mcpServerArgs, personalKeyOn } from '../../support/mcp-stdio.ts';
import { makeProductFolders } from '../../support/product-folders.ts';
import { type DefaultHarness, startDefaultHarness } from '../../support/sandbox-harness.ts';
import { untilValue } from '../../support/until.ts';

// `adbatch mcp` driven by a client nobody here wrote (issue 30 point 7 b): the MCP Inspector's CLI
// (@modelcontextprotocol/inspector, a dev dependency), which starts the server for each call and closes it
// after, from a temp working folder, against the real sandbox on 127.0.0.1. Its `--strict` lint of the
// tools' schemas must find nothing; then scan, quote (by paths: no scan is held between processes),
// submit, approval by `adbatch approve` from yet another process, the batch to its end, its results, a
// result read through `resources/read`, an export and its manifests (and the same export again, writing
// nothing), each call a process of its own.

const INSPECTOR = (() => {
  const manifest = createRequire(import.meta.url).resolve('@modelcontextprotocol/inspector/package.json');
  return join(dirname(manifest), 'clients/launcher/build/index.js');
})();

let service: DefaultHarness;
let dir: string;
/** The working folder every process starts in: empty, nowhere near the checkout. */
let cwd: string;
let where: { dataDir: string; library: string };
/** The Inspector's home: whatever it keeps (a catalog, secrets) stays in the test's folder. */
let home: string;
let exports: string;

beforeAll(async () => {
  service = await startDefaultHarness({ timeScale: 0.002 });
  dir = await realpath(await mkdtemp(join(tmpdir(), 'adbatch-inspector-')));
  cwd = join(dir, 'elsewhere');
  home = join(dir, 'home');
  exports = join(dir, 'exports');
  where = { dataDir: join(dir, 'data'), library: join(dir, 'library') };
  await Promise.all([cwd, home, exports].map((folder) => mkdir(folder)));
}, 60_000);
afterAll(async () => {
  await service?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** One Inspector CLI run: its own options, then the server it starts, as a desktop config names it. */
function inspector(options: string[]): Promise<CliResult> {
  return collected(
    process.execPath,
    [
      INSPECTOR,
      '--cli',
      ...options,
      '--format',
      'json',
      '-e',
      `ADBATCH_API_KEY=${service.keys.personal}`,
      '--',
      process.execPath,
      ...mcpServerArgs(where, personalKeyOn(service), exports),
    ],
    { cwd, env: { ...process.env, HOME: home } },
  );
}

/** What a call that succeeded printed (`{ result }` in the JSON format), read as the MCP result it is. */
async function answered<T>(options: string[], schema: { parse(data: unknown): T }): Promise<T> {
  const run = await inspector(options);
  expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(0);
  return schema.parse(z.object({ result: z.unknown() }).parse(JSON.parse(run.stdout)).result);
}

/** A tool called in a process of its own; the call must not be an error. */
async function tool(name: string, args: Record<string, unknown>): Promise<CallToolResult> {
  const result = await answered(
    ['--method', 'tools/call', '--tool-name', name, '--tool-args-json', JSON.stringify(args)],
    CallToolResultSchema,
  );
  expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
  return result;
}

/** A tool's structured answer. */
async function data(name: string, args: Record<string, unknown>): Promise<Record<string, unknown>> {
  const { structuredContent } = await tool(name, args);
  expect(structuredContent).toBeDefined();
  return structuredContent ?? {};
}

describe('adbatch mcp through the MCP Inspector CLI, one process per call', () => {
  it('lists its tools, and the strict lint finds no unportable schema', async () => {
    const run = await inspector(['--method', 'tools/list', '--strict']);
    expect(run.code, run.stderr).toBe(0);
    // The findings, when there are any, ride in the JSON envelope beside the result (and on stderr).
    const printed = z
      .object({ result: ListToolsResultSchema, schemaFindings: z.array(z.unknown()).optional() })
      .parse(JSON.parse(run.stdout));
    expect(printed.schemaFindings, run.stderr).toBeUndefined();
    expect(run.stderr).not.toMatch(/Warning|Error|portability/i);
    expect(printed.result.tools.map((listed) => listed.name)).toEqual(
      expect.arrayContaining([
        'scan_inputs',
        'quote_batch',
        'submit_batch',
        'request_status',
        'wait_batch',
        'batch_status',
        'list_results',
        'export_batch',
      ]),
    );
  });

  it('scans, quotes by paths, submits, is approved elsewhere, runs, reads a result and exports', async () => {
    const paths = await makeProductFolders(join(dir, 'products'), 2);
    const scan = await data('scan_inputs', { paths });
    expect(scan.products).toEqual([
      expect.objectContaining({ name: 'product-01', photos: 1 }),
      expect.objectContaining({ name: 'product-02', photos: 1 }),
    ]);

    // A server started for this call alone: it never held the scan above, so it is given the paths.
    const quote = await data('quote_batch', {
      paths,
      name: 'Inspector',
      style: 'classic',
      shots: 1,
      quality: 'standard',
    });
    expect(quote).toMatchObject({ credits: 2, alreadyShot: [] });

    const submitted = await data('submit_batch', { quoteId: quote.quoteId, clientRequestId: 'inspector-1' });
    expect(submitted).toMatchObject({ state: 'pending', credits: 2 });

    const approved = await approveRequest(submitted.requestId, where, personalKeyOn(service), cwd);
    expect(approved.code, approved.stderr).toBe(0);
    const request = await data('request_status', { requestId: submitted.requestId });
    expect(request).toMatchObject({ state: 'created' });
    const batchId = String(request.batchId);

    // A server lives only as long as its call: wait_batch keeps one up while the batch runs (up to its own
    // limit), called again until the batch is finished, not only stopped (a batch paused a moment while the
    // service is busy runs on), and batch_status, in the next process, says so too.
    await untilValue(async () => {
      const waited = await data('wait_batch', { batchId });
      return waited.status === 'finished' ? waited : null;
    });
    const status = await data('batch_status', { batchId });
    expect(status).toMatchObject({ batchId, status: 'finished' });

    const listed = await tool('list_results', { batchId });
    const { results } = z
      .object({ results: z.array(z.object({ resultId: z.number(), path: z.string() })) })
      .parse(listed.structuredContent);
    expect(results).toHaveLength(2);
    for (const result of results) expect(result.path.startsWith(`${where.library}/`), result.path).toBe(true);
    const links = listed.content.flatMap((part) => (part.type === 'resource_link' ? [part] : []));
    expect(links).toHaveLength(2);

    // A result, read through its link by a process that never listed it: the shot as a JPEG, and beside it
    // which result it is and where its original lies.
    const read = await answered(
      ['--method', 'resources/read', '--uri', links[0]!.uri],
      ReadResourceResultSchema,
    );
    const image = read.contents.flatMap((content) => ('blob' in content ? [content] : []))[0];
    expect(image?.mimeType, JSON.stringify(read).slice(0, 500)).toBe('image/jpeg');
    expect([...Buffer.from(image?.blob ?? '', 'base64').subarray(0, 3)]).toEqual([0xff, 0xd8, 0xff]);
    const about = read.contents.flatMap((content) => ('text' in content ? [content.text] : []))[0];
    expect(JSON.parse(about ?? '{}')).toMatchObject({
      resultId: results[0]!.resultId,
      path: results[0]!.path,
    });

    // An export into the allowed folder, its manifests read over MCP, and the same export again writes nothing.
    const exportArgs = { batchId, folder: join(exports, 'a'), rule: 'not-rejected' };
    const exported = await data('export_batch', exportArgs);
    expect(exported).toMatchObject({ state: 'done', written: 2, identical: 0, failed: 0 });
    const manifests = await answered(
      ['--method', 'resources/read', '--uri', String(exported.manifestUri)],
      ReadResourceResultSchema,
    );
    expect(manifests.contents.map((content) => content.mimeType).sort()).toEqual([
      'application/json',
      'text/csv',
    ]);
    expect(await data('export_batch', exportArgs)).toMatchObject({ state: 'done', written: 0, identical: 2 });
  }, 240_000);
});
