import { type FormEvent, useEffect, useState } from 'react';
import type { Settings } from '../../../src-main/shared/models.ts';
import { Notice } from '../components/Notice.tsx';
import { SaveStatus, useSaveStatus } from '../components/SaveStatus.tsx';
import { credits, dateTime } from '../format.ts';
import { useAccounts } from '../stores/accounts.ts';
import { useBrands } from '../stores/brands.ts';
import { useSettings } from '../stores/settings.ts';
import { PhotoStorageSection } from './PhotoStorageSection.tsx';
import { AgentsSection } from './settings/AgentsSection.tsx';
import { BrandsSection } from './settings/BrandsSection.tsx';
import { allowedHostsOf, libraryDirOf, MARGIN_MAX, marginOf, type Typed } from './settings/general-values.ts';
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

/** A field that saves itself: once read from what was typed, and only when it changed. */
function useSavedSetting<T>(current: T, read: (text: string) => Typed<T>) {
  const save = useSettings((state) => state.save);
  const status = useSaveStatus();
  const commit = (text: string, patch: (value: T) => Partial<Settings>) => {
    const typed = read(text);
    if ('error' in typed) status.refuse(typed.error);
    else if (JSON.stringify(typed.value) !== JSON.stringify(current))
      void status.track(() => save(patch(typed.value)));
  };
  return { status: status.state, commit };
}

const asIs = (text: string) => ({ value: text === 'true' });

function General() {
  const { settings, load, error } = useSettings();
  useEffect(() => {
    void load();
  }, [load]);
  if (!settings)
    return error ? <Notice kind="error">{error}</Notice> : <p className="muted">Loading settings…</p>;
  return <GeneralFields settings={settings} />;
}

function GeneralFields({ settings }: { settings: Settings }) {
  const library = useSavedSetting(settings.libraryDir, libraryDirOf);
  const margin = useSavedSetting(settings.budgetMarginPercent, marginOf);
  const hosts = useSavedSetting(settings.allowedHosts ?? [], allowedHostsOf);
  const bom = useSavedSetting(settings.csvBom === true, asIs);
  return (
    <section aria-labelledby="general-title">
      <h2 id="general-title">Files and connections</h2>
      <div className="setting">
        <label>
          Library folder
          <input
            aria-describedby="library-hint library-saved"
            defaultValue={settings.libraryDir}
            onBlur={(event) => library.commit(event.target.value, (libraryDir) => ({ libraryDir }))}
          />
        </label>
        <small id="library-hint">Where shoots and videos are saved, a folder for each batch.</small>
        <SaveStatus id="library-saved" state={library.status} />
      </div>
      <div className="setting">
        <label>
          Leave room for other apps using the same key (%)
          <input
            type="number"
            min={0}
            max={MARGIN_MAX}
            aria-describedby="margin-hint margin-saved"
            defaultValue={settings.budgetMarginPercent}
            onBlur={(event) =>
              margin.commit(event.target.value, (budgetMarginPercent) => ({ budgetMarginPercent }))
            }
          />
        </label>
        <small id="margin-hint">
          The service answers only so many requests a minute for each key. If another app or a colleague uses
          the same key, keep a share of them free so their requests are not turned away while a batch runs. 0
          uses them all; at most {MARGIN_MAX}.
        </small>
        <SaveStatus id="margin-saved" state={margin.status} />
      </div>
      <div className="setting">
        {/* Not around the box: a label holding it would take the hosts typed into its name. */}
        <label htmlFor="allowed-hosts">Allowed hosts</label>
        <textarea
          id="allowed-hosts"
          rows={3}
          aria-describedby="hosts-hint hosts-saved"
          placeholder={'photos.office.lan\n192.168.1.20:8080'}
          defaultValue={(settings.allowedHosts ?? []).join('\n')}
          onBlur={(event) => hosts.commit(event.target.value, (allowedHosts) => ({ allowedHosts }))}
        />
        <small id="hosts-hint">
          Computers on your office network (or this one) that catalog photos, logos and model images may come
          from, one a line, with a port if you like. Adbatch fetches only from the public internet otherwise.
        </small>
        <SaveStatus id="hosts-saved" state={hosts.status} />
      </div>
      <div className="setting">
        <label className="checkbox">
          <input
            type="checkbox"
            aria-describedby="bom-saved"
            checked={settings.csvBom === true}
            onChange={(event) => bom.commit(String(event.target.checked), (csvBom) => ({ csvBom }))}
          />
          CSV files for Excel: manifests and statements start with UTF-8's byte-order mark, without which
          Excel garbles accented letters
        </label>
        <SaveStatus id="bom-saved" state={bom.status} />
      </div>
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
