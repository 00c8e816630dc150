import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { createS3Host, type S3HostingConfig, S3HostingError } from '../hosting/s3.ts';
import { NameClaims } from '../util/safe-names.ts';
import { type Placed, placeFile } from './place-file.ts';
import type { PlannedFile } from './plan.ts';
import type { FileOutcome } from './run.ts';
import {
  SHOPIFY_IMPORT_FILE,
  SHOPIFY_RECIPE_ID,
  type ShopifyImage,
  shopifyImportCsv,
} from './shopify-import.ts';

// A finished export with Shopify files gets Shopify's import file beside them (shopify-import.ts). Where
// photo storage is set up (Settings, or the CLI's --s3-* flags), the Shopify files are uploaded to it first
// (keyed by their content: a re-export uploads nothing new) and the file lists their addresses; without
// storage it lists where each file is in the export folder, and the export says what Shopify needs.

/** What the plan and the export say when there is no storage: Shopify needs addresses, and how to get them. */
export const SHOPIFY_NEEDS_URLS = `Shopify imports images only from public web addresses: without photo storage, ${SHOPIFY_IMPORT_FILE} names each Shopify file by its place in the export folder, which Shopify cannot fetch. Set up photo storage in Settings (S3, R2, B2 or MinIO, with a public address) and export again to have the files uploaded and their addresses filled in; or upload them in Shopify admin (Content › Files) and put each file's link in its Image Src.`;

/** The plan's word on the Shopify files it will list. */
export function shopifyPlanNotice(
  files: readonly PlannedFile[],
  storage: S3HostingConfig | null,
): string | null {
  const count = files.filter(isShopifyImage).length;
  if (count === 0) return null;
  if (!storage) return SHOPIFY_NEEDS_URLS;
  return `The ${count} Shopify file${count === 1 ? '' : 's'} will be uploaded to the photo storage (bucket ${storage.bucket}) once written, and ${SHOPIFY_IMPORT_FILE} will list their addresses.${signedLinks(storage)}`;
}

function isShopifyImage(file: PlannedFile): boolean {
  return file.recipe.id === SHOPIFY_RECIPE_ID && file.item.kind !== 'video';
}

/** Presigned links expire: said whenever the storage has no public address. */
function signedLinks(storage: S3HostingConfig): string {
  if (storage.publicBaseUrl) return '';
  const hours = Math.round((storage.urlTtlSeconds ?? 24 * 3600) / 3600);
  return ` The storage has no public address, so these are signed links that stop working after ${hours} hours: import within that time, or give the storage a public address in Settings and export again.`;
}

export interface ShopifyImportWritten extends Placed {
  sha256: string;
  bytes: number;
  /** What the export says of it, in words. */
  notes: string[];
}

/** The addresses of the files in the storage, or why they could not be had. */
async function uploaded(storage: S3HostingConfig, paths: readonly string[]): Promise<string[] | string> {
  const host = createS3Host(storage);
  try {
    await host.prepare(paths);
    return await Promise.all(paths.map((path) => host.urlFor(path)));
  } catch (error) {
    if (error instanceof S3HostingError) return error.message;
    throw error;
  } finally {
    await host.close();
  }
}

/**
 * Writes `shopify-import.csv` at the top of the export folder (never over a stranger's file, skipped when
 * the same), after uploading the Shopify files where storage is set up; null when the run has none.
 * `taken`: the run's other paths, which it keeps off.
 */
export async function writeShopifyImport(options: {
  destination: string;
  files: readonly FileOutcome[];
  taken: readonly string[];
  storage: S3HostingConfig | null;
  signal?: AbortSignal;
}): Promise<ShopifyImportWritten | null> {
  const { destination, storage } = options;
  const done = options.files.filter((file) => file.status !== 'failed' && isShopifyImage(file.planned));
  if (done.length === 0) return null;
  let sources = done.map((file) => file.relativePath);
  let uploadProblem: string | null = null;
  if (storage) {
    const addresses = await uploaded(
      storage,
      done.map((file) => join(destination, file.relativePath)),
    );
    if (typeof addresses === 'string') uploadProblem = addresses;
    else sources = addresses;
  }
  options.signal?.throwIfAborted();
  const images: ShopifyImage[] = done.map((file, index) => ({
    item: file.planned.item,
    src: sources[index]!,
  }));
  const sheet = shopifyImportCsv(images);
  const bytes = Buffer.from(sheet.text, 'utf8');
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  const claims = new NameClaims();
  for (const path of options.taken) claims.tryClaim(path, 'file');
  const placed = await placeFile({
    root: destination,
    plannedPath: SHOPIFY_IMPORT_FILE,
    content: { bytes },
    size: bytes.length,
    sha256,
    claims,
    owner: SHOPIFY_IMPORT_FILE,
    ...(options.signal ? { signal: options.signal } : {}),
  });
  const listed = `${placed.relativePath} lists ${sheet.rows} image${sheet.rows === 1 ? '' : 's'} of ${sheet.products} product${sheet.products === 1 ? '' : 's'}`;
  const notes = [
    !storage
      ? `${listed}. ${SHOPIFY_NEEDS_URLS}`
      : uploadProblem
        ? `${listed} by their place in the export folder: they could not be uploaded to the photo storage (bucket ${storage.bucket}). ${uploadProblem} Export again once the storage works to have their addresses filled in.`
        : `${listed} by their addresses in the photo storage (bucket ${storage.bucket}): import it in Shopify admin, Products › Import (tick "Overwrite products with matching handles" to add them to products already in the shop).${signedLinks(storage)}`,
  ];
  for (const reason of sheet.skipped) notes.push(`Left out of ${placed.relativePath}: ${reason}.`);
  return { ...placed, sha256, bytes: bytes.length, notes };
}
