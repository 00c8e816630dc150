import { useEffect, useState } from 'react';
import type { PickedVideoQuote, PickedVideosRequest } from '../../../src-main/shared/models.ts';
import { api, messageOf } from '../api/index.ts';
import { Notice } from '../components/Notice.tsx';
import { VideoChoices } from '../components/VideoChoices.tsx';
import { credits } from '../format.ts';
import { useCatalog } from '../stores/catalog.ts';
import { LogoChoice } from './LogoChoice.tsx';

// "Make videos" from the picks: the video's settings, then per product which picks it is made from and what
// it costs, against the balance, before a credit is spent. The quote is asked again as the settings change;
// what is shown is what the service will charge.

type VideoChoice = PickedVideosRequest['video'];

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
  const [quote, setQuote] = useState<PickedVideoQuote | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    void useCatalog
      .getState()
      .ready()
      .then((loaded) => setVideo({ ...loaded.defaults.video, music: true }))
      .catch((failure: unknown) => setError(messageOf(failure)));
  }, []);

  useEffect(() => {
    if (!video) return;
    let current = true;
    api.call('videos:quote', { batchId, video }).then(
      (answer) => {
        if (!current) return;
        setQuote(answer);
        setError(null);
      },
      (failure: unknown) => {
        if (current) setError(messageOf(failure));
      },
    );
    return () => {
      current = false;
    };
  }, [batchId, video]);

  const make = async () => {
    if (!video) return;
    setBusy(true);
    try {
      await api.call('videos:create', { batchId, video });
      onMade();
    } catch (failure) {
      setError(messageOf(failure));
      setBusy(false);
    }
  };

  const count = quote?.products.filter((product) => product.credits > 0).length ?? 0;
  return (
    <div className="sheet-backdrop">
      <dialog open className="sheet make-videos" aria-labelledby="make-videos-title">
        <h2 id="make-videos-title">Make videos from the picks</h2>
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
        {quote && (
          <table className="quote">
            <thead>
              <tr>
                <th scope="col">Product</th>
                <th scope="col">Picks used</th>
                <th scope="col">Credits</th>
              </tr>
            </thead>
            <tbody>
              {quote.products.map((product) => (
                <tr key={product.productId}>
                  <td>{product.productName}</td>
                  <td>
                    {product.used.length > 0
                      ? `${product.used.length} of ${product.picks.length}`
                      : 'no picks: no video'}
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
