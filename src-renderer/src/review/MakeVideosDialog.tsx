import { useEffect, useRef, useState } from 'react';
import type { PickedVideoQuote, PickedVideosRequest } from '../../../src-main/shared/models.ts';
import { api, messageOf } from '../api/index.ts';
import { Notice } from '../components/Notice.tsx';
import { VideoChoices } from '../components/VideoChoices.tsx';
import { credits } from '../format.ts';
import { useCatalog } from '../stores/catalog.ts';
import { useReview } from '../stores/review.ts';
import { LogoChoice } from './LogoChoice.tsx';
import { movePick, pickStepOf } from './pick-order.ts';

// "Make videos" from the picks: the video's settings (those chosen in New batch for a batch whose videos are
// made after review, else the catalog's defaults), then per product its picks in the order the video uses
// them, which the designer sets by keyboard or drag, and what it costs, against the balance, before a credit
// is spent. The quote is asked again as the settings or the order change; what is shown is what the service
// will charge.

type VideoChoice = PickedVideosRequest['video'];
type PickOrder = Record<string, number[]>;

/** One product's picks in order, the ones its video uses marked; moved by Alt or Ctrl/⌘ with ← →, or dragged. */
function PicksInOrder({
  product,
  picks,
  duration,
  onMove,
}: {
  product: PickedVideoQuote['products'][number];
  /** In the designer's order, which the quote follows a moment later. */
  picks: number[];
  duration: number;
  onMove: (id: number, to: number) => void;
}) {
  const items = useReview((state) => state.items);
  const dragged = useRef<number | null>(null);
  const nameOf = (id: number) => `shot ${items.find((item) => item.id === id)?.index ?? '?'}`;
  return (
    <div className="pick-order-cell">
      <ol
        className="pick-order"
        aria-label={`${product.productName}: picks, in the order the video uses them`}
      >
        {picks.map((id, place) => {
          const used = product.used.includes(id);
          const item = items.find((candidate) => candidate.id === id);
          return (
            <li key={id}>
              <button
                type="button"
                draggable
                data-pick={id}
                className={`pick${used ? ' pick-used' : ' pick-unused'}`}
                aria-label={`${product.productName}, ${nameOf(id)}: place ${place + 1} of ${picks.length}, ${used ? 'used' : `not used at ${duration} s`}`}
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
  const [order, setOrder] = useState<PickOrder | null>(null);
  const [quote, setQuote] = useState<PickedVideoQuote | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [announcement, setAnnouncement] = useState('');
  const dialog = useRef<HTMLDialogElement>(null);

  useEffect(() => {
    Promise.all([useCatalog.getState().ready(), api.call('batches:get', { id: batchId })])
      .then(([loaded, batch]) => {
        const chosen = batch.videosAfterReview?.video;
        setFromBatch(chosen !== undefined);
        setVideo({ ...(chosen ?? loaded.defaults.video), music: true });
      })
      .catch((failure: unknown) => setError(messageOf(failure)));
  }, [batchId]);

  useEffect(() => {
    if (!video) return;
    let current = true;
    api.call('videos:quote', { batchId, video, ...(order ? { order } : {}) }).then(
      (answer) => {
        if (!current) return;
        setQuote(answer);
        setError(null);
        // The picks' first order is the quote's (shot order); from then on the designer's goes with every request.
        if (!order) {
          setOrder(
            Object.fromEntries(
              answer.products
                .filter((product) => product.picks.length > 0)
                .map((product) => [product.productId, product.picks]),
            ),
          );
        }
      },
      (failure: unknown) => {
        if (current) setError(messageOf(failure));
      },
    );
    return () => {
      current = false;
    };
  }, [batchId, video, order]);

  const move = (product: PickedVideoQuote['products'][number], id: number, to: number) => {
    if (!order || !video) return;
    const current = order[product.productId] ?? product.picks;
    const moved = movePick(current, id, to);
    const place = moved.indexOf(id);
    if (place === current.indexOf(id)) return;
    setOrder({ ...order, [product.productId]: moved });
    // A moved pick keeps the focus (React may move its node, which drops it), so the next key moves it again.
    requestAnimationFrame(() => dialog.current?.querySelector<HTMLElement>(`[data-pick="${id}"]`)?.focus());
    const shot = useReview.getState().items.find((item) => item.id === id);
    setAnnouncement(
      `${product.productName}, shot ${shot?.index ?? ''} moved to place ${place + 1} of ${moved.length}.`,
    );
  };

  const make = async () => {
    if (!video) return;
    setBusy(true);
    try {
      await api.call('videos:create', { batchId, video, ...(order ? { order } : {}) });
      onMade();
    } catch (failure) {
      setError(messageOf(failure));
      setBusy(false);
    }
  };

  const count = quote?.products.filter((product) => product.credits > 0).length ?? 0;
  return (
    <div className="sheet-backdrop">
      <dialog open className="sheet make-videos" aria-labelledby="make-videos-title" ref={dialog}>
        <h2 id="make-videos-title">Make videos from the picks</h2>
        {fromBatch && <p className="muted">Starting from the settings chosen when the batch was made.</p>}
        {catalog && video && (
          <div className="row">
            <VideoChoices
              catalog={catalog}
              video={video}
              madeFrom="pick"
              onChange={(choices) => setVideo({ ...video, ...choices })}
            />
            <label className="check">
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
        )}
        {error && <Notice kind="error">{error}</Notice>}
        {quote && video && (
          <p id="pick-order-hint" className="muted">
            The video uses a product's picks from the left. To reorder, drag a pick, or focus it and press
            Alt+← / Alt+→ (or Ctrl/⌘+← / →).
          </p>
        )}
        <p className="visually-hidden" aria-live="polite" data-testid="pick-order-announcement">
          {announcement}
        </p>
        {quote && video && (
          <table className="quote">
            <thead>
              <tr>
                <th scope="col">Product</th>
                <th scope="col">Picks, in order</th>
                <th scope="col">Credits</th>
              </tr>
            </thead>
            <tbody>
              {quote.products.map((product) => (
                <tr key={product.productId}>
                  <td>{product.productName}</td>
                  <td>
                    <PicksInOrder
                      product={product}
                      picks={order?.[product.productId] ?? product.picks}
                      duration={video.duration}
                      onMove={(id, to) => move(product, id, to)}
                    />
                  </td>
                  <td>{product.credits > 0 ? credits(product.credits) : '–'}</td>
                </tr>
              ))}
            </tbody>
            <tfoot>
              <tr>
                <th scope="row">Total</th>
                <td>Balance {credits(quote.balance)}</td>
                <td>{credits(quote.credits)}</td>
              </tr>
            </tfoot>
          </table>
        )}
        <div className="actions">
          <button type="button" onClick={onClose}>
            Cancel
          </button>
          <button
            type="button"
            className="primary"
            disabled={!quote || count === 0 || quote.shortfall > 0 || busy}
            onClick={() => void make()}
          >
            {quote && count > 0
              ? `Make ${count} video${count === 1 ? '' : 's'} for ${credits(quote.credits)}`
              : 'Make videos'}
          </button>
        </div>
      </dialog>
    </div>
  );
}
