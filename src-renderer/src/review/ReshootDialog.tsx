import { useEffect, useRef, useState } from 'react';
import type {
  CatalogView,
  ReshootQuote,
  ReviewItemView,
  ShootSettingsView,
} from '../../../src-main/shared/models.ts';
import { allRejectedProducts } from '../../../src-main/shared/reshoot.ts';
import { api, messageOf } from '../api/index.ts';
import { ChoiceSelect } from '../components/ChoiceSelect.tsx';
import { Notice } from '../components/Notice.tsx';
import { StylePicker } from '../components/StylePicker.tsx';
import { credits } from '../format.ts';
import { ModelPicker } from '../screens/NewBatchScreen.tsx';
import { useCatalog } from '../stores/catalog.ts';

// Reshoot (issue 12, point 7): "Reshoot N products…" in Review once every shot of some product is rejected,
// and its dialog: the New batch screen's choices, starting from the batch's own settings, and per product
// what the new shoot costs against the balance, asked of core again as the settings change; what is shown
// is what the service will charge. The count on the button follows each decision at once (the same rule as
// core's); core's quote is the truth (it also leaves out products whose new shots are on their way).

const DEFAULT_BACKGROUND = '#f4efe6';

export function ReshootButton({
  batchId,
  items,
  onMade,
}: {
  batchId: string;
  items: readonly ReviewItemView[];
  onMade: () => void;
}) {
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const count = allRejectedProducts(items).length;
  if (count === 0 && !open) return null;
  return (
    <>
      <button type="button" ref={button} onClick={() => setOpen(true)}>
        Reshoot {count} product{count === 1 ? '' : 's'}…
      </button>
      {open && (
        <ReshootDialog
          batchId={batchId}
          onClose={() => {
            setOpen(false);
            // Back where the keyboard was, as a closed dialog should leave it.
            requestAnimationFrame(() => button.current?.focus());
          }}
          onMade={onMade}
        />
      )}
    </>
  );
}

export function ReshootDialog({
  batchId,
  onClose,
  onMade,
}: {
  batchId: string;
  onClose: () => void;
  onMade: () => void;
}) {
  const catalog = useCatalog((state) => state.catalog);
  const dialog = useRef<HTMLDialogElement>(null);
  const [shoot, setShoot] = useState<ShootSettingsView | null>(null);
  const [quote, setQuote] = useState<ReshootQuote | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    // Modal: the results behind it are inert, the keyboard and a screen reader stay in the dialog.
    if (!dialog.current?.open) dialog.current?.showModal();
    void useCatalog
      .getState()
      .ready()
      .catch((failure: unknown) => setError(messageOf(failure)));
    api.call('batches:get', { id: batchId }).then(
      (batch) => setShoot(batch.shoot),
      (failure: unknown) => setError(messageOf(failure)),
    );
  }, [batchId]);

  const needsModel = shoot?.mode === 'with_model' && !shoot.modelUrl;
  useEffect(() => {
    if (!shoot || needsModel) return;
    let current = true;
    api.call('reshoot:quote', { batchId, shoot }).then(
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
  }, [batchId, shoot, needsModel]);

  const reshoot = async () => {
    if (!shoot) return;
    setBusy(true);
    try {
      await api.call('reshoot:create', { batchId, shoot });
      onMade();
    } catch (failure) {
      setError(messageOf(failure));
      setBusy(false);
    }
  };

  const count = quote?.products.length ?? 0;
  return (
    <dialog
      ref={dialog}
      className="sheet reshoot"
      aria-labelledby="reshoot-title"
      aria-describedby="reshoot-why"
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
      // Review's keys (P, X, arrows…) are for the results behind: none of them acts while this is open.
      onKeyDown={(event) => event.stopPropagation()}
    >
      <h2 id="reshoot-title">Shoot again</h2>
      <p id="reshoot-why" className="muted">
        The products whose shots are all rejected, shot again with these settings in the same batch. The new
        shots join each product in Review, after the rejected ones.
      </p>
      {catalog && shoot && (
        <ShootChoices
          catalog={catalog}
          accountId={quote?.accountId ?? null}
          shoot={shoot}
          onChange={(change) => setShoot({ ...shoot, ...change })}
        />
      )}
      {needsModel && <Notice kind="info">Choose a model to see what this costs.</Notice>}
      {error && <Notice kind="error">{error}</Notice>}
      {quote && !needsModel && (
        <table className="quote">
          <thead>
            <tr>
              <th scope="col">Product</th>
              <th scope="col">Rejected</th>
              <th scope="col">New shots</th>
              <th scope="col">Credits</th>
            </tr>
          </thead>
          <tbody>
            {quote.products.map((product) => (
              <tr key={product.productId}>
                <td>{product.productName}</td>
                <td>{product.rejected}</td>
                <td>{product.shots}</td>
                <td>{credits(product.credits)}</td>
              </tr>
            ))}
            {quote.underway.map((product) => (
              <tr key={product.productId}>
                <td>{product.productName}</td>
                <td colSpan={3}>being shot already: its new shots join Review as they land</td>
              </tr>
            ))}
          </tbody>
          <tfoot>
            <tr>
              <th scope="row">Total</th>
              <td colSpan={2}>Balance {credits(quote.balance)}</td>
              <td>{credits(quote.credits)}</td>
            </tr>
          </tfoot>
        </table>
      )}
      {quote && quote.shortfall > 0 && (
        <Notice kind="error">
          {credits(quote.shortfall)} short: top up, or shoot fewer shots or at a lower quality.
        </Notice>
      )}
      <div className="actions">
        <button type="button" onClick={onClose}>
          Cancel
        </button>
        <button
          type="button"
          className="primary"
          disabled={!quote || needsModel || count === 0 || quote.shortfall > 0 || busy}
          onClick={() => void reshoot()}
        >
          {quote && count > 0
            ? `Reshoot ${count} product${count === 1 ? '' : 's'} for ${credits(quote.credits)}`
            : 'Reshoot'}
        </button>
      </div>
    </dialog>
  );
}

/** The shoot's choices, as New batch offers them: style, mode and model, shots, aspect ratio, quality, background. */
function ShootChoices({
  catalog,
  accountId,
  shoot,
  onChange,
}: {
  catalog: CatalogView;
  /** Whose models to choose from: the batch's account, known once the first quote came. */
  accountId: string | null;
  shoot: ShootSettingsView;
  onChange: (change: Partial<ShootSettingsView>) => void;
}) {
  const style = catalog.styles.find((choice) => choice.id === shoot.style);
  return (
    <div className="reshoot-choices">
      <StylePicker styles={catalog.styles} value={shoot.style} onChange={(id) => onChange({ style: id })} />
      <div className="row">
        <ChoiceSelect
          label="Mode"
          value={shoot.mode}
          options={catalog.modes.map((mode) => ({ value: mode.id, text: mode.label }))}
          onChange={(mode) => onChange(mode === 'with_model' ? { mode } : { mode, modelUrl: null })}
        />
        <ChoiceSelect
          label="Shots"
          value={shoot.shots}
          options={catalog.shotCounts.map((count) => ({ value: count, text: String(count) }))}
          onChange={(shots) => onChange({ shots })}
        />
        <ChoiceSelect
          label="Aspect ratio"
          value={shoot.aspectRatio}
          options={catalog.shootAspectRatios.map((ratio) => ({ value: ratio, text: ratio }))}
          onChange={(aspectRatio) => onChange({ aspectRatio })}
        />
        <ChoiceSelect
          label="Quality"
          value={shoot.quality}
          options={catalog.qualities.map((quality) => ({
            value: quality.id,
            text: `${quality.label} (${credits(quality.creditsPerImage)} a shot)`,
          }))}
          onChange={(quality) => onChange({ quality })}
        />
        <label className="checkbox">
          <input
            type="checkbox"
            checked={shoot.backgroundColor !== null}
            onChange={(event) =>
              onChange({ backgroundColor: event.target.checked ? DEFAULT_BACKGROUND : null })
            }
          />
          Background colour
        </label>
        {shoot.backgroundColor !== null && (
          <input
            type="color"
            aria-label="Background colour"
            value={shoot.backgroundColor}
            onChange={(event) => onChange({ backgroundColor: event.target.value })}
          />
        )}
      </div>
      {shoot.mode === 'with_model' && accountId && (
        <ModelPicker
          accountId={accountId}
          value={shoot.modelUrl}
          onChange={(url) => onChange({ modelUrl: url })}
        />
      )}
      {shoot.shots > catalog.clampedShots && style && !style.sixShots && (
        <Notice kind="info">
          {style.label} makes {catalog.clampedShots} shots, and is charged for {catalog.clampedShots}.
        </Notice>
      )}
    </div>
  );
}
