import type { ScannedProductView, ScanView } from '../../shared/models.ts';
import type { FileGateway } from '../app/files.ts';
import type { IngestPlan, PlannedProduct } from './types.ts';

// Scans as the renderer sees them: local files as gateway URLs, never as paths to open.

export function scannedProductView(
  product: PlannedProduct,
  files: FileGateway,
  leftOut: boolean,
): ScannedProductView {
  return {
    name: product.name,
    path: product.path,
    leftOut,
    photos: product.photos.map((photo) => ({
      file: photo.file,
      width: photo.width,
      height: photo.height,
      thumbnailUrl: photo.thumbnail ? files.url(photo.thumbnail) : photo.url,
      converted: photo.converted,
      hash: photo.hash,
      url: photo.url,
      realPath: photo.realPath,
    })),
  };
}

export function scanView(
  scanId: string,
  plan: IngestPlan,
  files: FileGateway,
  leftOut: (product: PlannedProduct) => boolean,
): ScanView {
  return {
    scanId,
    products: plan.products.map((product) => scannedProductView(product, files, leftOut(product))),
    problems: plan.problems,
    skipped: plan.skipped.filter((skipped) => !skipped.adbatchFolder).length,
    nested: plan.nested,
    dropped: plan.dropped,
    skippedFiles: plan.skipped,
  };
}
