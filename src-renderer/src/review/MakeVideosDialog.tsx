import { useEffect, useRef, useState } from 'react';
import { counted } from '../../../src-main/shared/counted.ts';
import type { PickedVideoQuote, PickedVideosRequest } from '../../../src-main/shared/models.ts';
import { api, messageOf } from '../api/index.ts';
import { PriceLine } from '../components/PriceLine.tsx';
import { VideoChoices } from '../components/VideoChoices.tsx';
import { credits } from '../format.ts';
import { useCatalog } from '../stores/catalog.ts';
import { useReview } from '../stores/review.ts';
import { LogoChoice } from './LogoChoice.tsx';
import { CostTable, PricedDialog, usePriced } from './PricedDialog.tsx';
import { movePick, pickStepOf } from './pick-order.ts';

// "Make videos" from the picks: the video's settings (those chosen in New batch for a batch whose videos are
// made after review, else the catalog's defaults), then per product its picks in the order the video uses
// them, which the designer sets by keyboard or drag, and what it costs, against the balance, before a credit
// is spent (review/PricedDialog.tsx).

type VideoChoice = PickedVideosRequest['video'];
type PickOrder = Record<string, number[]>;
type QuotedProduct = PickedVideoQuote['products'][number];

/** One product's picks in order, the ones its video uses marked; moved by Alt or Ctrl/⌘ with ← →, or dragged. */
function PicksInOrder({
  product,
  picks,
  duration,
  onMove,
}: {
  product: QuotedProduct;
  /** In the designer's order, which the quote follows a moment later. */
  picks: number[];
  duration: number;
  onMove: (id: number, to: number) => void;
}) {
  const items = useReview((state) => state.items);
  const dragged = useRef<number | null>(null);
  return (
    <div className="pick-order-cell">
      <ol
        className="pick-order"
        aria-label={`${product.productName}: picks, in the order the video uses them`}
      >
        {picks.map((id, place) => {
          const used = product.used.includes(id);
          const item = items.find((candidate) => candidate.id === id);
          const name = `shot ${item?.index ?? '?'}`;
          return (
            <li key={id}>
              <button
                type="button"
                draggable
                data-pick={id}
                className={`pick${used ? ' pick-used' : ' pick-unused'}`}
                aria-label={`${product.productName}, ${name}: place ${place + 1} of ${picks.length}, ${used ? 'used' : `not used at ${duration} s`}`}
                aria-describedby="pick-order-hint"
                onKeyDown={(event) => {
                  const step = pickStepOf(event);
                  if (step === 0) return;
                  // Alt+← is also the browser's Back: the pick moves, the page stays.
                  event.preventDefault();
                  event.stopPropagation();
                  onMove(id, place + step);
                }}
                onDragStart={(event) => {
                  dragged.current = id;
                  event.dataTransfer.effectAllowed = 'move';
                  event.dataTransfer.setData('text/plain', String(id));
                }}
                onDragOver={(event) => {
                  if (dragged.current !== null) event.preventDefault();
                }}
                onDrop={(event) => {
                  event.preventDefault();
                  if (dragged.current !== null) onMove(dragged.current, place);
                  dragged.current = null;
                }}
                onDragEnd={() => {
                  dragged.current = null;
                }}
              >
                {item?.gridUrl || item?.url ? (
                  <img
                    className="pick-thumb"
                    src={item.gridUrl ?? item.url}
                    alt=""
                    width={48}
                    height={48}
                    draggable={false}
                  />
                ) : (
                  <span className="thumb-placeholder" />
                )}
                <span className="pick-place">{place + 1}</span>
              </button>
            </li>
          );
        })}
      </ol>
      <small>
        {product.used.length > 0
          ? `used: ${product.used.length} of ${product.picks.length}`
          : 'no picks: no video'}
        {product.used.length < product.picks.length && product.used.length > 0
          ? ` · the rest not used at ${duration} s`
          : ''}
      </small>
    </div>
  );
}

export function MakeVideosDialog({
  batchId,
  onClose,
  onMade,
}: {
  batchId: string;
  onClose: () => void;
  onMade: () => void;
}) {
  const catalog = useCatalog((state) => state.catalog);
  const [video, setVideo] = useState<VideoChoice | null>(null);
  const [fromBatch, setFromBatch] = useState(false);
  /** The designer's order, once a pick is moved; until then the quote's (shot order), which core also takes. */
  const [chosen, setChosen] = useState<PickOrder | null>(null);
  const [announcement, setAnnouncement] = useState('');
  const request = video && { batchId, video, ...(chosen ? { order: chosen } : {}) };
  const { quote, error, setError, busy, make } = usePriced(
    request,
    {
      quote: (asked) => api.call('videos:quote', asked),
      make: (asked) => api.call('videos:create', asked),
    },
    onMade,
  );

  useEffect(() => {
    Promise.all([useCatalog.getState().ready(), api.call('batches:get', { id: batchId })])
      .then(([loaded, batch]) => {
        const settings = batch.videosAfterReview?.video;
        setFromBatch(settings !== undefined);
        // The videos last made from the picks give the logo and note typed then, whatever became of them.
        setVideo(batch.lastPickedVideo ?? { ...(settings ?? loaded.defaults.video), music: true });
      })
      .catch((failure: unknown) => setError(messageOf(failure)));
  }, [batchId, setError]);

  const picksOf = (product: QuotedProduct) => chosen?.[product.productId] ?? product.picks;

  const move = (product: QuotedProduct, id: number, to: number) => {
    if (!quote) return;
    const current = picksOf(product);
    const moved = movePick(current, id, to);
    const place = moved.indexOf(id);
    if (place === current.indexOf(id)) return;
    const base =
      chosen ??
      Object.fromEntries(
        quote.products.filter((each) => each.picks.length > 0).map((each) => [each.productId, each.picks]),
      );
    setChosen({ ...base, [product.productId]: moved });
    // A moved pick keeps the focus (React may move its node, which drops it), so the next key moves it again.
    requestAnimationFrame(() =>
      document.querySelector<HTMLElement>(`.make-videos [data-pick="${id}"]`)?.focus(),
    );
    const shot = useReview.getState().items.find((item) => item.id === id);
    setAnnouncement(
      `${product.productName}, shot ${shot?.index ?? ''} moved to place ${place + 1} of ${moved.length}.`,
    );
  };

  const count = quote?.products.filter((product) => product.credits > 0).length ?? 0;
  return (
    <PricedDialog
      id="make-videos"
      title="Make videos from the picks"
      description={fromBatch ? 'Starting from the settings chosen when the batch was made.' : undefined}
      settings={
        catalog &&
        video && (
          <div className="row">
            <VideoChoices
              catalog={catalog}
              video={video}
              madeFrom="pick"
              onChange={(choices) => setVideo({ ...video, ...choices })}
            />
            <label className="checkbox">
              <input
                type="checkbox"
                checked={video.music !== false}
                onChange={(event) => setVideo({ ...video, music: event.target.checked })}
              />
              Music
            </label>
            <label>
              Note for the service
              <input
                type="text"
                value={video.note ?? ''}
                maxLength={2000}
                onChange={(event) => {
                  const { note: _note, ...rest } = video;
                  setVideo(event.target.value ? { ...rest, note: event.target.value } : rest);
                }}
              />
            </label>
            <LogoChoice
              logo={video}
              onChange={(logo) => {
                const { logoUrl: _url, logoFile: _file, ...rest } = video;
                setVideo({ ...rest, ...logo });
              }}
            />
          </div>
        )
      }
      error={error}
      action={{
        label:
          quote && count > 0
            ? `Make ${counted(count, 'video')} for ${credits(quote.credits)}`
            : 'Make videos',
        disabled: !quote || count === 0 || quote.shortfall > 0 || busy,
        onClick: () => void make(),
      }}
      onClose={onClose}
    >
      {quote && video && (
        <p id="pick-order-hint" className="muted">
          The video uses a product's picks from the left. To reorder, drag a pick, or focus it and press Alt+←
          / Alt+→ (or Ctrl/⌘+← / →).
        </p>
      )}
      <p className="visually-hidden" aria-live="polite" data-testid="pick-order-announcement">
        {announcement}
      </p>
      {quote && video && <PriceLine label="Each video" price={quote.price} testId="video-price" />}
      {quote && video && (
        <CostTable columns={['Product', 'Picks, in order']} quote={quote}>
          {quote.products.map((product) => (
            <tr key={product.productId}>
              <td>{product.productName}</td>
              <td>
                <PicksInOrder
                  product={product}
                  picks={picksOf(product)}
                  duration={video.duration}
                  onMove={(id, to) => move(product, id, to)}
                />
              </td>
              <td>{product.credits > 0 ? credits(product.credits) : '–'}</td>
            </tr>
          ))}
        </CostTable>
      )}
    </PricedDialog>
  );
}
