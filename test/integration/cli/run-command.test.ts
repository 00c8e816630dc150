import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adbatch } from '../../support/cli.ts';
import { listFiles } from '../../support/library-checks.ts';
import { makeProductFolders } from '../../support/product-folders.ts';

// `adbatch run --sandbox` as a user runs it: preview, refusal paths, a whole batch, the manifest, status.

let dir: string;
let products: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'adbatch-run-'));
  products = join(dir, 'products');
  await makeProductFolders(products, 3, 2);
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const common = () => [
  '--sandbox',
  '--time-scale',
  '0.02',
  '--data-dir',
  join(dir, 'data'),
  '--library',
  join(dir, 'library'),
];

describe('adbatch run --sandbox', () => {
  it('shows the cost preview and refuses a batch over --budget, starting nothing', async () => {
    const result = await adbatch([
      'run',
      products,
      '--style',
      'luxury',
      '--shots',
      '6',
      '--video',
      '10s/720p',
      '--budget',
      '50',
      '--yes',
      ...common(),
    ]);
    expect(result.code).toBe(1);
    // 6 shots are clamped to 4 in luxury: (4 + 34) x 3 products.
    expect(result.stdout).toMatch(/Total\s+114/);
    // Each column says what it counts: the shoot's credits, the video's, and both.
    expect(result.stdout.split('\n').slice(0, 3)).toEqual([
      'Product     Shots  Shoot credits  Video credits  Total credits',
      '-'.repeat(62),
      'product-01     4*              4             34             38',
    ]);
    expect(result.stdout).toMatch(/6 shots are made only in the classic and minimal styles/);
    expect(result.stderr).toMatch(/costs 114 credits, over the --budget of 50/);
    const status = await adbatch(['status', '--data-dir', join(dir, 'data')]);
    expect(status.stdout).toMatch(/No batches yet/);
  });

  it('refuses to start without a prompt when there is no terminal and no --yes', async () => {
    const result = await adbatch(['run', products, '--style', 'classic', ...common()]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/Pass --yes/);
  });

  it('runs a whole batch: results on disk, manifest, exit 0, status', async () => {
    const result = await adbatch([
      'run',
      products,
      '--style',
      'minimal',
      '--shots',
      '1',
      '--video',
      '5s/480p',
      '--yes',
      ...common(),
    ]);
    expect(result.code, result.stderr).toBe(0);
    const manifestPath = /Manifest: (.+)/.exec(result.stdout)?.[1];
    expect(manifestPath).toBeTruthy();
    const manifest = JSON.parse(await readFile(manifestPath!, 'utf8'));
    expect(manifest.products).toHaveLength(3);
    expect(manifest.credits).toMatchObject({ quoted: 30, charged: 30, refunded: 0, spent: 30 });
    for (const product of manifest.products) {
      expect(product.photos).toHaveLength(2);
      expect(product.jobs.map((job: { kind: string; state: string }) => `${job.kind} ${job.state}`)).toEqual([
        'shoot done',
        'video done',
      ]);
    }
    const files = await listFiles(join(dir, 'library'));
    expect(files.filter((file) => file.endsWith('video.mp4'))).toHaveLength(3);
    expect(files.filter((file) => /shot-1\.jpg$/.test(file))).toHaveLength(6);
    expect(files.filter((file) => file.endsWith('.part'))).toEqual([]);

    const status = await adbatch(['status', manifest.batch.id, '--data-dir', join(dir, 'data')]);
    expect(status.stdout).toMatch(/finished/);
    expect(status.stdout).toMatch(
      /6 shoots and videos: 6 made; 30 credits charged, 0 refunded, 30 net, of 30 quoted/,
    );
    const retry = await adbatch(['retry', manifest.products[0].jobs[0].id, '--data-dir', join(dir, 'data')]);
    expect(retry.code).toBe(1);
    expect(retry.stderr).toMatch(/only failed, lost and outcome-unknown jobs can be retried/);

    // Every file under Shopify's 2048 px: refused in words, with the flag that writes them anyway, before a
    // folder is made or a manifest written; not answered "done: 0 written" with a failure per file.
    const toShopify = ['export', manifest.batch.id, '--recipe', 'shopify', '--not-rejected'];
    const held = await adbatch([...toShopify, '--to', join(dir, 'exports'), '--data-dir', join(dir, 'data')]);
    expect(held.code).toBe(1);
    expect(held.stdout).toMatch(
      /^warning: (\d+) files under the channel recommended size \[--accept-warning below_recommended\]\n {2}e\.g\. .*Shopify wants 2048 px: choose Pro \(2K\)\.\n\1 of \1 files held back before writing\.\n$/,
    );
    expect(held.stderr).toMatch(
      /^adbatch: Nothing would be written: the pre-flight holds back all \d+ files: \d+ under the channel recommended size \(e\.g\. .*\)\. To write what its warnings hold back anyway, accept them: below_recommended\.\n$/,
    );
    expect(existsSync(join(dir, 'exports'))).toBe(false);
    // Beside Original, the Shopify files are held back, each said once, in its failed line with its reason.
    const mixed = await adbatch([
      ...toShopify,
      '--recipe',
      'original',
      '--to',
      join(dir, 'mixed'),
      '--data-dir',
      join(dir, 'data'),
    ]);
    expect(mixed.code).toBe(2);
    const failedLines = mixed.stderr.split('\n').filter((line) => line.startsWith('failed: Shopify/'));
    expect(failedLines.length).toBeGreaterThan(0);
    for (const line of failedLines) expect(line).toContain('Not written (pre-flight): 1024 px of the result');
    expect(mixed.stdout).not.toContain('warning: Shopify/');
    // Said as the app says it: some written, some held back.
    expect(mixed.stdout).toMatch(
      new RegExp(
        `^Partly exported: ${failedLines.length} written, 0 already there, ${failedLines.length} failed`,
        'm',
      ),
    );

    // Exported for Shopify, the next run at Standard says before the batch that Pro would be enough.
    const exported = await adbatch([
      'export',
      manifest.batch.id,
      '--recipe',
      'shopify',
      '--not-rejected',
      '--to',
      join(dir, 'exports'),
      '--accept-warning',
      'below_recommended',
      '--data-dir',
      join(dir, 'data'),
    ]);
    expect(exported.code, exported.stderr).toBe(0);
    const again = await adbatch([
      'run',
      products,
      '--style',
      'minimal',
      '--include-done',
      '--budget',
      '0',
      '--yes',
      ...common(),
    ]);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('note: Shopify wants 2048 px: choose Pro (2K).');
  }, 120_000);
});
