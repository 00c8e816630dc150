import { useEffect, useId, useState } from 'react';
import type { AccountView, CapPreview, QuoteView } from '../../../../src-main/shared/models.ts';
import { brandsOf } from '../../agency.ts';
import { typedCredits } from '../../components/CreditsForm.tsx';
import { Notice } from '../../components/Notice.tsx';
import { credits } from '../../format.ts';
import { useBrands } from '../../stores/brands.ts';
import { useNewBatch } from '../../stores/new-batch.ts';

// Who a new batch is billed to and what it may spend (issue 15, points 2 and 3): on an agency key, the client
// brand (a pinned key's own, or the user's choice), and an optional cap of the batch's own; beside the quote,
// each cap it runs under with what is left, and the service's attribution when the key is not pinned.

const NO_BRAND = 'none';

/** The batch's client brand: chosen on an unpinned agency key, said on a pinned one. */
export function BrandChoice({ account }: { account: AccountView }) {
  const { brandId, setBrand } = useNewBatch();
  const { brands, load } = useBrands();
  useEffect(() => {
    void load();
  }, [load]);
  if (account.brandId !== null) {
    return (
      <p className="field-note" data-testid="batch-brand">
        Client brand: <strong>{account.brandName}</strong>{' '}
        <span className="muted">(the key is pinned to it)</span>
      </p>
    );
  }
  const choices = brandsOf(account, brands);
  const value = brandId === undefined ? '' : (brandId ?? NO_BRAND);
  return (
    <label>
      Client brand
      <select
        value={value}
        onChange={(event) => setBrand(event.target.value === NO_BRAND ? null : event.target.value)}
      >
        <option value="" disabled>
          Choose a client brand…
        </option>
        {choices.map((brand) => (
          <option key={brand.id} value={brand.id}>
            {brand.name}
          </option>
        ))}
        <option value={NO_BRAND}>No client brand (the agency's own work)</option>
      </select>
      {choices.length === 0 && (
        <small className="muted">No client brand is listed yet: list or add them in Settings.</small>
      )}
    </label>
  );
}

/** The batch's own cap, in whole credits; empty for none. */
export function BatchCap() {
  const { creditCap, setCreditCap } = useNewBatch();
  const [text, setText] = useState(creditCap === null ? '' : String(creditCap));
  const [error, setError] = useState<string | null>(null);
  const hint = useId();
  useEffect(() => setText(creditCap === null ? '' : String(creditCap)), [creditCap]);
  const commit = () => {
    const typed = typedCredits(text, { what: 'A cap', min: 1, empty: 'none' });
    setError('error' in typed ? typed.error : null);
    if ('value' in typed && typed.value !== creditCap) setCreditCap(typed.value);
  };
  return (
    <label className="batch-cap">
      Cap for this batch (credits)
      <input
        inputMode="numeric"
        value={text}
        placeholder="No cap"
        aria-describedby={hint}
        onChange={(event) => setText(event.target.value)}
        onBlur={commit}
        onKeyDown={(event) => {
          if (event.key === 'Enter') commit();
        }}
      />
      <small id={hint} className="muted">
        Optional. The batch stops before a shoot or video that would pass it.
      </small>
      {error && <Notice kind="error">{error}</Notice>}
    </label>
  );
}

function capLine(cap: CapPreview, quoted: number): string {
  const after = cap.committed + quoted;
  const committed = cap.scope === 'brand' ? `${credits(cap.committed)} committed this month, ` : '';
  return `${cap.label}: ${committed}${credits(cap.left)} left; this batch ${credits(quoted)} (${Math.floor((after * 100) / cap.cap)} % after it).`;
}

/** Each cap the batch runs under, and the service's attribution, beside the quote. */
export function CapsPreview({ quote }: { quote: QuoteView }) {
  if (quote.caps.length === 0 && !quote.attributionWarning) return null;
  return (
    <div className="caps-preview" data-testid="caps-preview">
      {quote.caps.map((cap) =>
        cap.passes ? (
          <Notice key={cap.scope} kind="error">
            {capLine(cap, quote.credits)} The batch cannot start: it would pass the cap.
          </Notice>
        ) : cap.warns ? (
          <Notice key={cap.scope} kind="warning">
            {capLine(cap, quote.credits)} It takes the cap past 80 %.
          </Notice>
        ) : (
          <p key={cap.scope} className="muted">
            {capLine(cap, quote.credits)}
          </p>
        ),
      )}
      {quote.attributionWarning && <Notice kind="warning">{quote.attributionWarning}</Notice>}
    </div>
  );
}
