import { useEffect, useMemo, useState } from 'react';
import { counted } from '../../../src-main/shared/counted.ts';
import type { CatalogView, ReviewItemView, ShootSettingsView } from '../../../src-main/shared/models.ts';
import { allRejectedProducts } from '../../../src-main/shared/reshoot.ts';
import { api, messageOf } from '../api/index.ts';
import { ChoiceSelect } from '../components/ChoiceSelect.tsx';
import { ModelPicker } from '../components/ModelPicker.tsx';
import { Notice } from '../components/Notice.tsx';
import { PriceLine } from '../components/PriceLine.tsx';
import { BackgroundChoice, ShotChoices } from '../components/ShotChoices.tsx';
import { StylePicker } from '../components/StylePicker.tsx';
import { credits } from '../format.ts';
import { useCatalog } from '../stores/catalog.ts';
import { CostTable, PricedDialog, usePriced } from './PricedDialog.tsx';

// Reshoot (issue 12, point 7): "Reshoot N products…" in Review once every shot of some product is rejected,
// and its dialog: the New batch screen's choices, starting from the batch's own settings, and per product
// what the new shoot costs against the balance (review/PricedDialog.tsx). The count on the button follows each decision at once (the same rule as
// core's); core's quote is the truth (it also leaves out products whose new shots are on their way).

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
  // A pass over the batch's results: only when they change, not on every render of Review.
  const count = useMemo(() => allRejectedProducts(items).length, [items]);
  if (count === 0 && !open) return null;
  return (
    <>
      <button type="button" onClick={() => setOpen(true)}>
        Reshoot {counted(count, 'product')}…
      </button>
      {open && <ReshootDialog batchId={batchId} onClose={() => setOpen(false)} onMade={onMade} />}
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
  const [shoot, setShoot] = useState<ShootSettingsView | null>(null);
  const needsModel = shoot?.mode === 'with_model' && !shoot.modelUrl;
  const { quote, error, setError, busy, make } = usePriced(
    shoot && !needsModel ? { batchId, shoot } : null,
    {
      quote: (asked) => api.call('reshoot:quote', asked),
      make: (asked) => api.call('reshoot:create', asked),
    },
    onMade,
  );

  useEffect(() => {
    void useCatalog
      .getState()
      .ready()
      .catch((failure: unknown) => setError(messageOf(failure)));
    api.call('batches:get', { id: batchId }).then(
      (batch) => setShoot(batch.shoot),
      (failure: unknown) => setError(messageOf(failure)),
    );
  }, [batchId, setError]);

  const count = quote?.products.length ?? 0;
  return (
    <PricedDialog
      id="reshoot"
      title="Shoot again"
      description="The products whose shots are all rejected, shot again with these settings in the same batch. The new shots join each product in Review, after the rejected ones."
      settings={
        <>
          {catalog && shoot && (
            <ShootChoices
              catalog={catalog}
              accountId={quote?.accountId ?? null}
              shoot={shoot}
              onChange={(change) => setShoot({ ...shoot, ...change })}
            />
          )}
          {needsModel && <Notice kind="info">Choose a model to see what this costs.</Notice>}
        </>
      }
      error={error}
      action={{
        label:
          quote && count > 0
            ? `Reshoot ${counted(count, 'product')} for ${credits(quote.credits)}`
            : 'Reshoot',
        disabled: !quote || needsModel || count === 0 || quote.shortfall > 0 || busy,
        onClick: () => void make(),
      }}
      onClose={onClose}
    >
      {quote && !needsModel && (
        <CostTable columns={['Product', 'Rejected', 'New shots']} quote={quote}>
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
        </CostTable>
      )}
      {quote && !needsModel && quote.products.length > 0 && (
        <PriceLine label="Each shoot" price={quote.price} testId="reshoot-price" />
      )}
      {quote && quote.shortfall > 0 && (
        <Notice kind="error">
          {credits(quote.shortfall)} short: top up, or shoot fewer shots or at a lower quality.
        </Notice>
      )}
    </PricedDialog>
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
        <ShotChoices catalog={catalog} shoot={shoot} onChange={onChange} />
        <BackgroundChoice value={shoot.backgroundColor} onChange={onChange} />
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
