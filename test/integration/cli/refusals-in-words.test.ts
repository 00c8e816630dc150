import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADBATCH_BIN, adbatch, sandboxRunArgs } from '../../support/cli.ts';
import { PRODUCT_FIXTURES_DIR } from '../../support/static-server.ts';

// Every refusal in words (issue 28, point 7): the file-system failures a designer meets through the CLI and
// MCP (a file where a folder is wanted, a path through a file, a name too long) are said with what is
// wrong, where, and what to do; never "a handler failed", "Something went wrong", or Node's bare errno.

let dir: string;
let where: { dataDir: string; library: string };
/** A plain file, given where a folder is wanted. */
let aFile: string;
let batchId: string;

/** What must never reach the user once a failure has a sentence. */
function expectInWords(text: string, sentence: RegExp): void {
  expect(text).toMatch(sentence);
  expect(text).not.toMatch(/handler failed|went wrong|\bE[A-Z]{3,}\b|errno|syscall/);
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'adbatch-refusals-'));
  where = { dataDir: join(dir, 'data'), library: join(dir, 'library') };
  aFile = join(dir, 'a-file.txt');
  await writeFile(aFile, 'not a folder\n');
  await mkdir(join(dir, 'exports'));
  const run = await adbatch(sandboxRunArgs([join(PRODUCT_FIXTURES_DIR, 'hat')], where));
  expect(run.code, run.stderr).toBe(0);
  const status = await adbatch(['status', '--json', '--data-dir', where.dataDir]);
  batchId = (JSON.parse(status.stdout) as Array<{ id: string }>)[0]!.id;
}, 120_000);

afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

const tooLong = () => join(dir, 'n'.repeat(300));

describe('the CLI', () => {
  const failures: Array<{ what: string; args: () => string[]; sentence: RegExp }> = [
    {
      what: 'export --to an existing file',
      args: () => ['export', '--all', '--not-rejected', '--to', aFile, '--data-dir', where.dataDir],
      sentence: /a-file\.txt is a file, not a folder: choose a folder .*or move the file away\./,
    },
    {
      what: 'export --to a path through a file',
      args: () => [
        'export',
        '--all',
        '--not-rejected',
        '--to',
        join(aFile, 'sub'),
        '--data-dir',
        where.dataDir,
      ],
      sentence: /a-file\.txt\/sub is not a folder: part of the path is a file\. Choose a folder instead\./,
    },
    {
      what: 'export --to a name too long',
      args: () => ['export', '--all', '--not-rejected', '--to', tooLong(), '--data-dir', where.dataDir],
      sentence: /The path is too long for this disk \(.*n{300}\): choose a shorter folder or name\./,
    },
    {
      // Node's own recursive mkdir asks /proc for ever (100 % CPU, no answer): this must answer at once.
      what: 'export --to a place that takes no new folders (/proc)',
      args: () => [
        'export',
        '--all',
        '--not-rejected',
        '--to',
        '/proc/adbatch-x',
        '--data-dir',
        where.dataDir,
      ],
      sentence:
        /Adbatch may not write in the export folder \(\/proc\/adbatch-x\): allow it, or choose another folder\./,
    },
    {
      what: 'scan --library an existing file',
      args: () => [
        'scan',
        join(PRODUCT_FIXTURES_DIR, 'hat'),
        '--library',
        aFile,
        '--data-dir',
        where.dataDir,
      ],
      sentence: /a-file\.txt is a file, not a folder/,
    },
  ];
  for (const { what, args, sentence } of failures) {
    it(`says in words: ${what}`, async () => {
      const result = await adbatch(args());
      expect(result.code).toBe(1);
      expectInWords(result.stderr, sentence);
    }, 60_000);
  }
});

describe('MCP', () => {
  let client: Client;
  beforeAll(async () => {
    // The library is a file: a scan's cache cannot be made there.
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [ADBATCH_BIN, 'mcp', '--data-dir', where.dataDir, '--library', aFile, '--export-folder', dir],
      stderr: 'pipe',
    });
    client = new Client({ name: 'Refusals', version: '1.0.0' });
    await client.connect(transport);
  }, 60_000);
  afterAll(async () => {
    await client?.close();
  });

  const refusal = async (name: string, args: Record<string, unknown>) => {
    const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
    expect(result.isError).toBe(true);
    return result.content.map((part) => (part.type === 'text' ? part.text : '')).join('\n');
  };

  it('says in words: scan_inputs with the library a file', async () => {
    expectInWords(
      await refusal('scan_inputs', { paths: [join(PRODUCT_FIXTURES_DIR, 'hat')] }),
      /a-file\.txt is a file, not a folder/,
    );
  });

  it('says in words: export_batch into an existing file', async () => {
    expectInWords(
      await refusal('export_batch', { batchId, folder: aFile, rule: 'not-rejected' }),
      /a-file\.txt is a file, not a folder: choose a folder/,
    );
  });

  it('says in words: export_batch into a path through a file', async () => {
    expectInWords(
      await refusal('export_batch', { batchId, folder: join(aFile, 'sub'), rule: 'not-rejected' }),
      /a-file\.txt\/sub is not a folder: part of the path is a file/,
    );
  });

  it('says in words: export_batch into a name too long', async () => {
    expectInWords(
      await refusal('export_batch', { batchId, folder: tooLong(), rule: 'not-rejected' }),
      /The path is too long for this disk/,
    );
  });
});
