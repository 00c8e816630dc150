import type { AccountView } from '../../../../src-main/shared/models.ts';
import { brandsOf } from '../../agency.ts';
import { Notice } from '../../components/Notice.tsx';
import { SaveStatus, useSaveStatus } from '../../components/SaveStatus.tsx';
import { useBrands } from '../../stores/brands.ts';

// Which client brand an agency key is pinned to: the service does not say, so the user does (issue 15,
// point 1). A key just added that sees one brand only gets that brand proposed; the user confirms it.

export function KeyPin({ account }: { account: AccountView }) {
  const { brands, proposal, pin, dismissProposal } = useBrands();
  const saving = useSaveStatus();
  const status = `pin-saved-${account.id}`;
  const pinTo = (brandId: string | null) => void saving.track(() => pin(account.id, brandId));
  const choices = brandsOf(account, brands);
  const proposed = proposal?.accountId === account.id ? proposal : null;
  return (
    <div className="key-pin">
      <label>
        Client brand this key is pinned to
        <select
          value={account.brandId ?? ''}
          aria-describedby={status}
          onChange={(event) => pinTo(event.target.value === '' ? null : event.target.value)}
        >
          <option value="">Not pinned (the agency's key)</option>
          {choices.map((brand) => (
            <option key={brand.id} value={brand.id}>
              {brand.name}
            </option>
          ))}
        </select>
      </label>
      <SaveStatus id={status} state={saving.state} />
      {proposed && (
        <Notice kind="info">
          This key sees one client brand only, {proposed.brandName}: a key pinned to a brand sees just that
          brand. Is it pinned to {proposed.brandName}?{' '}
          <button type="button" onClick={() => pinTo(proposed.brandId)}>
            Pin to {proposed.brandName}
          </button>{' '}
          <button type="button" onClick={dismissProposal}>
            It is not pinned
          </button>
        </Notice>
      )}
    </div>
  );
}
