import { productFingerprint } from '../queue/fingerprint.ts';
import type { QueueStore } from '../queue/store.ts';
import type { NewProduct, ShootSettings, VideoSettings } from '../queue/types.ts';
import type { Problem } from './types.ts';

/**
 * Products already shot (or being shot) from the same photos with the same settings in an earlier batch
 * are set aside, so credits are not spent twice on the same results, unless the user asks to shoot them
 * again. Each one set aside is a warning that names the earlier batch.
 */
export function setAsideEarlierShots(
  store: QueueStore,
  products: readonly NewProduct[],
  shoot: ShootSettings,
  video: VideoSettings | null,
  shootAgain = false,
): { fresh: NewProduct[]; setAside: Problem[] } {
  const fingerprints = products.map((product) => productFingerprint(product.photos, shoot, video));
  const earlier = store.batches.earlierShots(fingerprints);
  const fresh: NewProduct[] = [];
  const setAside: Problem[] = [];
  products.forEach((product, index) => {
    const match = earlier.get(fingerprints[index]!);
    if (!match || shootAgain) {
      fresh.push(product);
      return;
    }
    const done = match.state === 'done';
    setAside.push({
      file: product.name,
      reason: `${done ? 'already shot' : 'being shot'} from these photos with these settings in "${match.batchName}": skipped`,
      severity: 'warning',
      code: done ? 'already_done' : 'in_progress',
    });
  });
  return { fresh, setAside };
}
