import { useEffect } from 'react';
import { api } from '../api/index.ts';
import { credits } from '../format.ts';
import { useAccounts } from '../stores/accounts.ts';
import { useNewBatch } from '../stores/new-batch.ts';

// One line under every screen (issue 31, point 6): the account new batches are billed to, by its name and
// the last characters of its key (never the key), its balance, and, on the Sandbox, that nothing is
// charged. It follows what core announces: an account changed (added, checked, refused), a batch made or
// finished (the balance moved).

export function StatusLine() {
  const accountId = useNewBatch((state) => state.accountId);
  const account = useAccounts((state) => state.accounts.find((one) => one.id === accountId));
  const load = useAccounts((state) => state.load);
  useEffect(() => {
    void load();
    return api.on('batches:changed', () => void load());
  }, [load]);
  return (
    <footer className="status-line" data-testid="status-line">
      {account ? (
        <>
          <span>
            Account: <strong>{account.name}</strong>
            {account.kind === 'service' && <span className="muted"> · key {account.keyHint}</span>}
          </span>
          <span data-testid="status-balance">
            {account.refusedAt !== null
              ? 'The service refused this key'
              : account.balance === null
                ? 'Balance not known'
                : `Balance: ${credits(account.balance)}`}
          </span>
          {account.kind === 'sandbox' && (
            <span className="status-sandbox" data-testid="status-sandbox">
              Sandbox: nothing is charged
            </span>
          )}
        </>
      ) : (
        <span className="muted">Reading the balance…</span>
      )}
    </footer>
  );
}
