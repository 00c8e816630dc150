import { type FormEvent, useEffect, useState } from 'react';
import { Notice } from '../components/Notice.tsx';
import { credits, dateTime } from '../format.ts';
import { useAccounts } from '../stores/accounts.ts';
import { useBrands } from '../stores/brands.ts';
import { useSettings } from '../stores/settings.ts';
import { PhotoStorageSection } from './PhotoStorageSection.tsx';
import { AgentsSection } from './settings/AgentsSection.tsx';
import { BrandsSection } from './settings/BrandsSection.tsx';
import { KeyPin } from './settings/KeyPin.tsx';

function AddAccount() {
  const add = useAccounts((state) => state.add);
  const added = useBrands((state) => state.added);
  const [name, setName] = useState('');
  const [baseUrl, setBaseUrl] = useState('');
  const [apiKey, setApiKey] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    const outcome = await add({ name: name.trim(), baseUrl: baseUrl.trim(), apiKey: apiKey.trim() });
    setBusy(false);
    if ('error' in outcome) setError(outcome.error);
    else {
      setName('');
      setBaseUrl('');
      setApiKey('');
      await added(outcome.account);
    }
  };
  return (
    <form
      className="add-account"
      onSubmit={(event) => void submit(event)}
      aria-labelledby="add-account-title"
    >
      <h3 id="add-account-title">Add an account</h3>
      <label>
        Name
        <input
          required
          value={name}
          onChange={(event) => setName(event.target.value)}
          placeholder="Acme Outdoor"
        />
      </label>
      <label>
        Service address
        <input
          required
          type="url"
          value={baseUrl}
          onChange={(event) => setBaseUrl(event.target.value)}
          placeholder="https://…"
        />
      </label>
      <label>
        API key
        <input
          required
          type="password"
          autoComplete="off"
          spellCheck={false}
          value={apiKey}
          onChange={(event) => setApiKey(event.target.value)}
        />
      </label>
      {error && <Notice kind="error">{error}</Notice>}
      <button type="submit" className="primary" disabled={busy}>
        {busy ? 'Checking the key…' : 'Check and add'}
      </button>
      <p className="muted">
        The key is checked with the service, then stored encrypted by your system's keychain; only its last
        characters are ever shown.
      </p>
    </form>
  );
}

function Accounts() {
  const { accounts, error, load, remove, refresh } = useAccounts();
  useEffect(() => {
    void load();
  }, [load]);
  return (
    <section aria-labelledby="accounts-title">
      <h2 id="accounts-title">Accounts</h2>
      {error && <Notice kind="error">{error}</Notice>}
      <ul className="accounts" aria-label="Accounts">
        {accounts.map((account) => (
          <li key={account.id} className="account">
            <div>
              <strong>{account.name}</strong>
              {account.kind === 'sandbox' && (
                <span className="tag">simulated: no key, no network, no real credits</span>
              )}
              <small data-testid="account-line">
                {account.type === 'agency'
                  ? `Agency${account.agencyName ? `: ${account.agencyName}` : ''}`
                  : 'Personal'}
                {/* The Sandbox runs inside Adbatch on a key of its own making: no key of the user's to hint at. */}
                {account.kind === 'sandbox' ? '' : ` · key ${account.keyHint}`}
                {account.balance !== null
                  ? ` · ${credits(account.balance)}${account.kind === 'sandbox' ? ' (simulated)' : ''}`
                  : ''}
                {account.checkedAt ? ` · checked ${dateTime(account.checkedAt)}` : ''}
              </small>
              {account.refusedAt && (
                <Notice kind="error">The service refused this key; its batches are paused.</Notice>
              )}
              {account.type === 'agency' && <KeyPin account={account} />}
            </div>
            <div className="actions">
              <button type="button" onClick={() => void refresh(account.id)}>
                Refresh
              </button>
              {account.kind === 'service' && (
                <button
                  type="button"
                  onClick={() => {
                    if (window.confirm(`Remove ${account.name}? Its key is deleted from this computer.`))
                      void remove(account.id);
                  }}
                >
                  Remove
                </button>
              )}
            </div>
          </li>
        ))}
      </ul>
      <AddAccount />
    </section>
  );
}

function General() {
  const { settings, load, save, error } = useSettings();
  useEffect(() => {
    void load();
  }, [load]);
  if (!settings) return <p className="muted">Loading settings…</p>;
  return (
    <section aria-labelledby="general-title">
      <h2 id="general-title">Library and requests</h2>
      {error && <Notice kind="error">{error}</Notice>}
      <label>
        Library folder
        <input
          defaultValue={settings.libraryDir}
          onBlur={(event) => void save({ libraryDir: event.target.value })}
        />
      </label>
      <label>
        Keep this share of the rate limit free for other apps (%)
        <input
          type="number"
          min={0}
          max={50}
          defaultValue={settings.budgetMarginPercent}
          onBlur={(event) => void save({ budgetMarginPercent: Number(event.target.value) })}
        />
      </label>
      <label>
        Allowed hosts on this computer or your network, for catalog photos, logos and model images (one a
        line, a port if you like). Any other address that is not public is refused.
        <textarea
          rows={3}
          placeholder={'photos.office.lan\n192.168.1.20:8080'}
          defaultValue={(settings.allowedHosts ?? []).join('\n')}
          onBlur={(event) =>
            void save({
              allowedHosts: event.target.value
                .split('\n')
                .map((host) => host.trim())
                .filter(Boolean),
            })
          }
        />
      </label>
      <label>
        <input
          type="checkbox"
          checked={settings.csvBom === true}
          onChange={(event) => void save({ csvBom: event.target.checked })}
        />{' '}
        CSV files for Excel: manifests and statements start with UTF-8's byte-order mark, without which Excel
        garbles accented letters
      </label>
    </section>
  );
}

export function SettingsScreen() {
  return (
    <section className="screen settings" aria-labelledby="settings-screen-title">
      <header className="screen-header">
        <h1 id="settings-screen-title">Settings</h1>
      </header>
      <Accounts />
      <BrandsSection />
      <PhotoStorageSection />
      <AgentsSection />
      <General />
    </section>
  );
}
