import { mkdir, mkdtemp, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADBATCH_BIN, adbatch } from '../../support/cli.ts';
import { makeProductFolders } from '../../support/product-folders.ts';

// Links say where they lead (issue 28, point 4), in the CLI's and MCP's scan results: a product whose photo
// a link brought from outside the dropped folder says, on that product, where the photo really is.

let dir: string;
let dropped: string;
let real: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'adbatch-outside-links-'));
  const [outside] = await makeProductFolders(join(dir, 'elsewhere'), 1, 2);
  dropped = join(dir, 'dropped');
  await mkdir(dropped);
  await symlink(outside!, join(dropped, 'shirt'));
  real = join(outside!, '1.png');
}, 60_000);

afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

const where = () => ['--library', join(dir, 'library'), '--data-dir', join(dir, 'data')];

describe('adbatch scan', () => {
  it('shows where each linked photo really is, on its product, and warns', async () => {
    const result = await adbatch(['scan', dropped, ...where()]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain(`${join(dropped, 'shirt', '1.png')}  `);
    expect(result.stdout).toMatch(new RegExp(`shirt/1\\.png  \\d+ x \\d+  \\(a link: really ${real}\\)`));
    expect(result.stdout).toContain(
      `warning  ${join(dropped, 'shirt', '1.png')}: reached through a link that leaves the dropped folder: the photo really is ${real}`,
    );
  });

  it('gives the real path in --json', async () => {
    const result = await adbatch(['scan', dropped, '--json', ...where()]);
    const plan = JSON.parse(result.stdout) as { products: Array<{ photos: Array<{ realPath?: string }> }> };
    expect(plan.products[0]!.photos.map((photo) => photo.realPath)).toEqual([
      real,
      join(dir, 'elsewhere', 'product-01', '2.png'),
    ]);
  });
});

describe('scan_inputs', () => {
  it('lists, on the product, where its linked photos really are', async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [ADBATCH_BIN, 'mcp', ...where()],
      stderr: 'pipe',
    });
    const client = new Client({ name: 'Links Agent', version: '1.0.0' });
    await client.connect(transport);
    try {
      const result = await client.callTool({ name: 'scan_inputs', arguments: { paths: [dropped] } });
      expect(result.structuredContent).toMatchObject({
        products: [
          { name: 'shirt', photos: 2, fromOutside: [real, join(dir, 'elsewhere', 'product-01', '2.png')] },
        ],
        problems: expect.arrayContaining([
          expect.objectContaining({ file: join(dropped, 'shirt', '1.png'), severity: 'warning' }),
        ]),
      });
    } finally {
      await client.close();
    }
  }, 60_000);
});
