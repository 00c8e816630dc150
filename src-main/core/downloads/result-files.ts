import { extname } from 'node:path';
import type { RemoteShoot, RemoteVideo } from '../api/index.ts';
import { batchFolder, productFolder } from '../library.ts';
import type { Asset, Batch, Product } from '../queue/types.ts';

// Where a finished job's results go in the library: `<batch>/<NNN product>/shot-N.jpg`, its thumbnail under
// `thumbnails/`, and `video.mp4`. A product shot again (a reshoot) or given another video keeps its first
// files: the k-th reshoot's are `reshoot-k-shot-N.jpg` (grouped apart from the first shoot's in a folder
// listing), a second video `video-2.mp4`. The extension follows the result's URL when it names an image or
// video type, else the kind's usual one.

export type ResultFile = Pick<Asset, 'kind' | 'idx' | 'url' | 'path'>;

function extensionOf(url: string, fallback: string): string {
  try {
    const extension = extname(new URL(url).pathname).toLowerCase();
    return /^\.(jpe?g|png|webp|mp4)$/.test(extension) ? extension : fallback;
  } catch {
    return fallback;
  }
}

/**
 * The files to download for a job the service completed, with their paths relative to the library; `earlier`
 * is how many jobs of its kind its product had before it (`JobStore.earlierOfKind`).
 */
export function resultFiles(
  batch: Pick<Batch, 'id' | 'name'>,
  product: Pick<Product, 'name' | 'position'>,
  remote: RemoteShoot | RemoteVideo,
  earlier = 0,
): ResultFile[] {
  const dir = `${batchFolder(batch)}/${productFolder(product)}`;
  if ('videoUrl' in remote) {
    const name = earlier === 0 ? 'video' : `video-${earlier + 1}`;
    return remote.videoUrl
      ? [{ kind: 'video', idx: 0, url: remote.videoUrl, path: `${dir}/${name}.mp4` }]
      : [];
  }
  const prefix = earlier === 0 ? '' : `reshoot-${earlier}-`;
  return remote.images.flatMap((image, index) => {
    const files: ResultFile[] = [];
    const name = `${prefix}shot-${index + 1}`;
    if (image.url) {
      files.push({
        kind: 'image',
        idx: index,
        url: image.url,
        path: `${dir}/${name}${extensionOf(image.url, '.jpg')}`,
      });
    }
    if (image.thumbnailUrl) {
      const extension = extensionOf(image.thumbnailUrl, '.jpg');
      files.push({
        kind: 'thumbnail',
        idx: index,
        url: image.thumbnailUrl,
        path: `${dir}/thumbnails/${name}${extension}`,
      });
    }
    return files;
  });
}
