import { type FormEvent, useEffect, useId, useState } from 'react';
import type { AccountView, BrandView } from '../../../../src-main/shared/models.ts';
import { capShare, sameAgency } from '../../agency.ts';
import { CreditsForm } from '../../components/CreditsForm.tsx';
import { Notice } from '../../components/Notice.tsx';
import { credits } from '../../format.ts';
import { useAccounts } from '../../stores/accounts.ts';
import { useBrands } from '../../stores/brands.ts';

// Settings' client brands (issue 15, point 1): per agency, its brands with the keys pinned to each, what this
// month committed against the monthly cap, the cap itself, and a form to create one (the plan's refusal in
// words).

/** What a monthly cap is, said once for every brand's cap field. */
const CAP_HINT = 'monthly-cap-hint';

const CAP_RULE = { what: 'A cap', min: 1, empty: 'no cap' };

function CapEditor({ brand }: { brand: BrandView }) {
  const setCap = useBrands((state) => state.setCap);
  return (
    <CreditsForm
      className="cap-editor"
      label={`Monthly cap of ${brand.name} (credits)`}
      current={brand.monthlyCap}
      rule={CAP_RULE}
      placeholder="No cap"
      describedBy={CAP_HINT}
      saveLabel="Save cap"
      save={(cap) => setCap(brand.id, cap)}
    />
  );
}

function BrandRow({ brand, accounts }: { brand: BrandView; accounts: AccountView[] }) {
  const share = capShare(brand);
  const keys = accounts.filter((account) => brand.accountIds.includes(account.id));
  return (
    <li className="brand-row" data-testid="brand-row">
      <div>
        <strong>{brand.name}</strong>
        {!brand.active && <span className="tag">inactive at the service</span>}
        <small>
          {keys.length === 0
            ? 'No key pinned to it here'
            : `Keys pinned to it: ${keys.map((account) => account.name).join(', ')}`}
        </small>
        <small data-testid="brand-month">
          This month: {credits(brand.committedThisMonth)}
          {brand.monthlyCap !== null && ` of a cap of ${credits(brand.monthlyCap)} (${share} %)`}
        </small>
        {brand.monthlyCap !== null && share >= 80 && (
          <Notice kind="warning">
            {brand.name} has used {share} % of its monthly cap: batches stop before they pass it.
          </Notice>
        )}
      </div>
      <CapEditor brand={brand} />
    </li>
  );
}

function AddBrand({ agency }: { agency: AccountView[] }) {
  const create = useBrands((state) => state.create);
  // The service refuses a pinned key: only an unpinned key of the agency creates brands.
  const creators = agency.filter((account) => account.brandId === null);
  const [accountId, setAccountId] = useState(creators[0]?.id ?? '');
  const [name, setName] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [created, setCreated] = useState<string | null>(null);
  const titleId = useId();
  if (creators.length === 0) {
    return (
      <p className="muted small">
        To create a client brand, add a key of this agency that is not pinned to a brand.
      </p>
    );
  }
  const chosen = creators.some((account) => account.id === accountId) ? accountId : creators[0]!.id;
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    setCreated(null);
    const failure = await create(chosen, name.trim());
    setBusy(false);
    if (failure) setError(failure);
    else {
      setCreated(name.trim());
      setName('');
    }
  };
  return (
    <form className="add-brand" onSubmit={(event) => void submit(event)} aria-labelledby={titleId}>
      <h4 id={titleId}>Add a client brand</h4>
      <label>
        Brand name
        <input required value={name} onChange={(event) => setName(event.target.value)} />
      </label>
      {creators.length > 1 && (
        <label>
          Created with the key
          <select value={chosen} onChange={(event) => setAccountId(event.target.value)}>
            {creators.map((account) => (
              <option key={account.id} value={account.id}>
                {account.name} ({account.keyHint})
              </option>
            ))}
          </select>
        </label>
      )}
      <button type="submit" disabled={busy || name.trim() === ''}>
        {busy ? 'Creating…' : 'Create brand'}
      </button>
      {created && (
        <small role="status" className="muted">
          {created} was created at the service.
        </small>
      )}
      {error && <Notice kind="error">{error}</Notice>}
    </form>
  );
}

/** One agency: the keys of it stored here, its brands. */
function Agency({ agency, brands }: { agency: AccountView[]; brands: BrandView[] }) {
  const refresh = useBrands((state) => state.refresh);
  const first = agency[0]!;
  const titleId = useId();
  const lister = agency.find((account) => account.brandId === null) ?? first;
  return (
    <section className="agency" aria-labelledby={titleId}>
      <div className="agency-head">
        <h3 id={titleId}>Client brands of {first.agencyName ?? first.name}</h3>
        <button type="button" onClick={() => void refresh(lister.id)}>
          List again
        </button>
      </div>
      {brands.length === 0 ? (
        <p className="muted">No client brand listed yet.</p>
      ) : (
        <ul className="brands" aria-label={`Client brands of ${first.agencyName ?? first.name}`}>
          {brands.map((brand) => (
            <BrandRow key={brand.id} brand={brand} accounts={agency} />
          ))}
        </ul>
      )}
      <AddBrand agency={agency} />
    </section>
  );
}

export function BrandsSection() {
  const accounts = useAccounts((state) => state.accounts);
  const { brands, error, load } = useBrands();
  useEffect(() => {
    void load();
  }, [load]);
  const agencyKeys = accounts.filter((account) => account.type === 'agency');
  if (agencyKeys.length === 0) return null;
  // Keys of the same agency at the same service are grouped; its brands are the ones listed there.
  const agencies: AccountView[][] = [];
  for (const account of agencyKeys) {
    const group = agencies.find((keys) => sameAgency(keys[0]!, account));
    if (group) group.push(account);
    else agencies.push([account]);
  }
  return (
    <section aria-labelledby="brands-title" className="brands-section">
      <h2 id="brands-title">Client brands</h2>
      <p className="muted" id={CAP_HINT}>
        Each batch on an agency key is billed to one of its client brands. A brand's monthly cap (a calendar
        month, counted in UTC) holds across every batch and key: batches stop before a shoot or video that
        would pass it.
      </p>
      {error && <Notice kind="error">{error}</Notice>}
      {agencies.map((agency) => (
        <Agency
          key={agency[0]!.id}
          agency={agency}
          brands={brands.filter((brand) => sameAgency(agency[0]!, brand))}
        />
      ))}
    </section>
  );
}
