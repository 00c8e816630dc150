import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import sharp from 'sharp';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ADBATCH_BIN, sandboxRunArgs } from '../../support/cli.ts';
import { PRODUCT_FIXTURES_DIR } from '../../support/static-server.ts';

// A large catalog's scan is stopped from every front end that starts one (issue 28, point 3): Ctrl+C in
// `adbatch scan` and `adbatch run` ends the command with a sentence and the exit status of an interruption,
// and an MCP client that gives up on scan_inputs (the SDK's AbortSignal, sent as notifications/cancelled)
// stops the scan. The photo host holds every answer until the test lets go, so each scan is surely under
// way when it is stopped; a stopped scan asks for no photo beyond those it had already started.

const ROWS = 200;
/** The checks a scan starts at once (the scan's default, twice the cores). */
const CONCURRENCY = Math.max(2, availableParallelism() * 2);

let dir: string;
let server: ReturnType<typeof createServer>;
let base: string;
let png: Buffer;
const held: ServerResponse[] = [];
let holding = true;
/** The photo paths asked for, in order. */
let asked: string[] = [];

const answerHeld = () => {
  for (const response of held.splice(0)) {
    response.writeHead(200, { 'content-type': 'image/png', 'content-length': png.length }).end(png);
  }
};

/** A catalog of ROWS products, one photo each on the photo host, its paths starting with `/name-`. */
async function catalogOf(name: string): Promise<string> {
  const file = join(dir, `${name}.csv`);
  const rows = Array.from({ length: ROWS }, (_, i) => `${name} ${i},${base}/${name}-${i}.png`);
  await writeFile(file, `product,url\n${rows.join('\n')}\n`);
  return file;
}

const askedFor = (name: string) => asked.filter((path) => path.startsWith(`/${name}-`)).length;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'adbatch-cli-scan-cancel-'));
  png = await sharp({ create: { width: 800, height: 800, channels: 3, background: '#8090a0' } })
    .png()
    .toBuffer();
  server = createServer((request, response) => {
    asked.push(request.url ?? '');
    held.push(response);
    if (!holding) answerHeld();
    server.emit('asked');
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}, 60_000);

afterAll(async () => {
  server?.closeAllConnections();
  server?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

beforeEach(() => {
  holding = true;
  asked = [];
});

/** The photo host is on this computer: allowed by name, as a designer allows their own. */
const ALLOW_PHOTO_HOST = ['--allow-host', '127.0.0.1'];

describe('Ctrl+C while the CLI scans', () => {
  const commands: Array<{ name: string; args: (catalog: string) => string[] }> = [
    {
      name: 'scan',
      args: (catalog) => [
        'scan',
        catalog,
        '--library',
        join(dir, 'library'),
        '--data-dir',
        join(dir, 'scan-data'),
        ...ALLOW_PHOTO_HOST,
      ],
    },
    {
      name: 'run',
      args: (catalog) =>
        sandboxRunArgs(
          [catalog],
          { dataDir: join(dir, 'run-data'), library: join(dir, 'library') },
          ALLOW_PHOTO_HOST,
        ),
    },
  ];
  for (const { name, args } of commands) {
    it(`stops adbatch ${name} with a sentence and exit status 130`, async () => {
      const catalog = await catalogOf(name);
      const child = spawn(process.execPath, [ADBATCH_BIN, ...args(catalog)], {
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk) => {
        stdout += chunk;
      });
      child.stderr.on('data', (chunk) => {
        stderr += chunk;
      });
      const exited = once(child, 'exit');
      await once(server, 'asked');
      child.kill('SIGINT');
      // Answered once the signal is sent: the checks under way end, and nothing more is asked for.
      holding = false;
      answerHeld();
      const [code, signal] = await exited;
      expect({ code, signal, stderr }).toEqual({
        code: 130,
        signal: null,
        // The library line every scanning command says first (issue 30), then the sentence.
        stderr: `adbatch: library: ${join(dir, 'library')} (as --library says)\nadbatch: Scan cancelled (Ctrl+C): nothing was planned, and nothing was spent.\n`,
      });
      expect(stdout).toBe('');
      expect(askedFor(name)).toBeLessThanOrEqual(CONCURRENCY);
    }, 60_000);
  }
});

describe('scan_inputs cancelled by the MCP client', () => {
  let client: Client;
  beforeAll(async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [
        ADBATCH_BIN,
        'mcp',
        '--data-dir',
        join(dir, 'mcp-data'),
        '--library',
        join(dir, 'library'),
        ...ALLOW_PHOTO_HOST,
      ],
      stderr: 'pipe',
    });
    client = new Client({ name: 'Cancelling Agent', version: '1.0.0' });
    await client.connect(transport);
  }, 60_000);
  afterAll(async () => {
    await client?.close();
  });

  it('stops the scan: no photo is asked for beyond those under way, and the next scan runs', async () => {
    const catalog = await catalogOf('mcp');
    const controller = new AbortController();
    const call = client.callTool({ name: 'scan_inputs', arguments: { paths: [catalog] } }, undefined, {
      signal: controller.signal,
    });
    await once(server, 'asked');
    controller.abort(new Error('the agent gave up'));
    await expect(call).rejects.toThrow('the agent gave up');
    // Requests over stdio are handled in order: by the time this one is, the cancel has stopped the scan.
    const next = await client.callTool({
      name: 'scan_inputs',
      arguments: { paths: [join(PRODUCT_FIXTURES_DIR, 'hat')] },
    });
    expect(next.structuredContent).toMatchObject({ products: [{ name: 'hat', photos: expect.any(Number) }] });
    holding = false;
    answerHeld();
    // A scan left running would now ask for all its photos; another catalog's scan of as many rows, answered
    // at once, ends only after the cancelled one would have asked for more.
    const after = await client.callTool({
      name: 'scan_inputs',
      arguments: { paths: [await catalogOf('after')] },
    });
    expect((after.structuredContent as { products: unknown[] }).products).toHaveLength(ROWS);
    expect(askedFor('mcp')).toBeLessThanOrEqual(CONCURRENCY);
  }, 60_000);
});
