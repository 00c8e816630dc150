import { useEffect, useState } from 'react';
import type { StatementView, UsageOwner, UsagePeriod } from '../../../src-main/shared/models.ts';
import { MONEY_HEADS, moneyWords } from '../../../src-main/shared/money-words.ts';
import { api, messageOf } from '../api/index.ts';
import { EmptyState } from '../components/EmptyState.tsx';
import { Notice } from '../components/Notice.tsx';
import { useNavigation } from '../stores/navigation.ts';
import { NumberHeads } from './usage/NumberHeads.tsx';
import { ownerName, periodWords } from './usage/period.ts';

// A client statement (issue 15, point 7): one row per shoot or video billed to the brand in the period, with
// what was charged and refunded, as the agency bills its client. The CSV is the same rows, from the ledger;
// the PDF is this screen printed (its print style shows the statement alone).

const figures = new Intl.NumberFormat('en');

/** The CSV handed to the browser as a file: no round trip through main, and nothing left behind. */
function download(csv: string, fileName: string): void {
  const url = URL.createObjectURL(new Blob([csv], { type: 'text/csv;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

export function StatementScreen({ owner, period }: { owner: UsageOwner; period: UsagePeriod }) {
  const go = useNavigation((state) => state.go);
  const [statement, setStatement] = useState<StatementView | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const [printHint, setPrintHint] = useState<string | null>(null);
  useEffect(() => {
    let current = true;
    api
      .call('usage:statement', { owner, ...period })
      .then((answer) => current && setStatement(answer))
      .catch((failure: unknown) => current && setError(messageOf(failure)));
    return () => {
      current = false;
    };
  }, [owner, period]);
  const savePdf = async () => {
    if (!statement) return;
    setSaved(null);
    setPrintHint(null);
    try {
      const written = await api.call('usage:printStatement', { fileName: statement.fileName });
      if (written) setSaved(written.path);
    } catch (failure) {
      // Outside the app (the browser harness) there is no printToPDF: the browser's own print does it.
      setPrintHint(messageOf(failure));
    }
  };
  const name = ownerName(owner);
  return (
    <section className="screen statement" aria-labelledby="statement-title">
      <header className="screen-header">
        <button type="button" className="link" onClick={() => go({ name: 'usage' })}>
          ← Usage
        </button>
        <h1 id="statement-title">Statement: {name}</h1>
      </header>
      <p className="statement-period">
        {owner.kind === 'brand' && owner.agencyName ? `${owner.agencyName} · ` : ''}
        {periodWords(period)} (UTC)
      </p>
      {error && <Notice kind="error">Could not make the statement: {error}</Notice>}
      {!statement && !error && <p className="muted">Reading what was spent…</p>}
      {statement && (
        <>
          <div className="statement-actions">
            <button type="button" onClick={() => download(statement.csv, statement.fileName)}>
              Download CSV
            </button>
            <button type="button" onClick={() => void savePdf()}>
              Save as PDF…
            </button>
          </div>
          {saved && (
            <Notice kind="info">
              Saved as <span className="file">{saved}</span>.
            </Notice>
          )}
          {printHint && (
            <Notice kind="info">
              {printHint}{' '}
              <button type="button" onClick={() => window.print()}>
                Print…
              </button>
            </Notice>
          )}
          {statement.rows.length === 0 ? (
            <EmptyState title="Nothing billed in this period">
              <p>
                No shoot or video was charged to {name} in {periodWords(period)}.
              </p>
            </EmptyState>
          ) : (
            <table className="usage-table statement-rows" data-testid="statement-rows">
              <caption>
                Shoots and videos billed to {name}, {periodWords(period)}
              </caption>
              <thead>
                <tr>
                  <th scope="col">Date</th>
                  <th scope="col">Batch</th>
                  <th scope="col">Product</th>
                  <th scope="col">Kind</th>
                  <th scope="col">Settings</th>
                  <NumberHeads names={[MONEY_HEADS.charged, MONEY_HEADS.refunded]} />
                </tr>
              </thead>
              <tbody>
                {statement.rows.map((row) => (
                  <tr key={`${row.jobId}-${row.date}`}>
                    <td>{row.date}</td>
                    <td>{row.batch}</td>
                    <th scope="row">{row.product}</th>
                    <td>{row.kind}</td>
                    <td>{row.settings}</td>
                    <td className="number">{figures.format(row.charged)}</td>
                    <td className="number">{figures.format(row.refunded)}</td>
                  </tr>
                ))}
              </tbody>
              <tfoot>
                <tr>
                  <th scope="row" colSpan={5} data-testid="statement-money">
                    In all: {moneyWords(statement.totals)}
                  </th>
                  <td className="number" data-testid="statement-charged">
                    {figures.format(statement.totals.charged)}
                  </td>
                  <td className="number" data-testid="statement-refunded">
                    {figures.format(statement.totals.refunded)}
                  </td>
                </tr>
              </tfoot>
            </table>
          )}
        </>
      )}
    </section>
  );
}
