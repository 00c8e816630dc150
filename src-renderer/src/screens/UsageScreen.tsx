import { useEffect, useState } from 'react';
import { counted } from '../../../src-main/shared/counted.ts';
import type { ReconciliationLine, UsageLine, UsageView } from '../../../src-main/shared/models.ts';
import { MONEY_HEADS } from '../../../src-main/shared/money-words.ts';
import { EmptyState } from '../components/EmptyState.tsx';
import { Notice } from '../components/Notice.tsx';
import { credits, dateTime } from '../format.ts';
import { useNavigation } from '../stores/navigation.ts';
import { useUsage } from '../stores/usage.ts';
import { NumberHeads } from './usage/NumberHeads.tsx';
import { dayOf, ownerKey, ownerName, type PeriodChoice, periodWords } from './usage/period.ts';
import { dayLabel, UsageChart } from './usage/UsageChart.tsx';

// Usage (issue 15, point 6): what the ledger says each client brand (or personal account) spent in a period,
// its cap and what is left, a daily chart with its figures in a table, each pool's runway, and the check
// against the service's usage report with every difference named.

const figures = new Intl.NumberFormat('en');

function PeriodPicker() {
  const { choice, choose, periodError, period } = useUsage();
  const [from, setFrom] = useState(
    choice.kind === 'custom' ? choice.from : dayOf(period?.from ?? Date.now()),
  );
  const [to, setTo] = useState(choice.kind === 'custom' ? choice.to : dayOf(Date.now()));
  const pick = (next: PeriodChoice) => void choose(next);
  return (
    <fieldset className="period-picker">
      <legend>Period</legend>
      <div className="segmented">
        {(
          [
            ['this-month', 'This month'],
            ['last-month', 'Last month'],
            ['custom', 'Custom'],
          ] as const
        ).map(([kind, label]) => (
          <button
            key={kind}
            type="button"
            aria-pressed={choice.kind === kind}
            onClick={() => pick(kind === 'custom' ? { kind, from, to } : { kind })}
          >
            {label}
          </button>
        ))}
      </div>
      {choice.kind === 'custom' && (
        <form
          className="custom-period"
          onSubmit={(event) => {
            event.preventDefault();
            pick({ kind: 'custom', from, to });
          }}
        >
          <label>
            From
            <input type="date" value={from} onChange={(event) => setFrom(event.target.value)} />
          </label>
          <label>
            To (included)
            <input type="date" value={to} onChange={(event) => setTo(event.target.value)} />
          </label>
          <button type="submit">Show</button>
        </form>
      )}
      {periodError && <Notice kind="error">{periodError}</Notice>}
      <p className="muted small">Days and months are counted in UTC, as the service counts them.</p>
    </fieldset>
  );
}

function Runways({ view }: { view: UsageView }) {
  if (view.runways.length === 0) return null;
  return (
    <section aria-labelledby="runways-title" className="runways">
      <h2 id="runways-title">Balances</h2>
      <ul>
        {view.runways.map((runway) => {
          const words = `${runway.name}: ${runway.balance === null ? 'balance not known yet' : credits(runway.balance)}${
            runway.days === null
              ? ', nothing spent here in the last 7 days'
              : ` · ${credits(Math.round(runway.dailyRate))} a day over the last 7 days · about ${figures.format(Math.floor(runway.days))} days left`
          }`;
          return (
            <li key={runway.accountId} data-testid="runway">
              {runway.low ? (
                <Notice kind="warning">{words}. The pool runs low: top up before it runs out.</Notice>
              ) : (
                words
              )}
            </li>
          );
        })}
      </ul>
    </section>
  );
}

function LinesTable({ view }: { view: UsageView }) {
  const go = useNavigation((state) => state.go);
  const capped = view.lines.some((line) => line.cap !== null);
  const cell = (value: number) => <td className="number">{figures.format(value)}</td>;
  return (
    <table className="usage-table" data-testid="usage-lines">
      <caption>Credits by client brand, {periodWords(view.period)}</caption>
      <thead>
        <tr>
          <th scope="col">Billed to</th>
          <NumberHeads
            names={[
              'Images',
              'Videos',
              MONEY_HEADS.charged,
              MONEY_HEADS.refunded,
              'Not yet settled',
              MONEY_HEADS.net,
            ]}
          />
          {capped && (
            <th scope="col" className="number">
              Cap
            </th>
          )}
          {capped && (
            <th scope="col" className="number">
              Left
            </th>
          )}
          <th scope="col">
            <span className="visually-hidden">Statement</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {view.lines.map((line: UsageLine) => (
          <tr key={ownerKey(line.owner)}>
            <th scope="row">
              {ownerName(line.owner)}
              {line.owner.kind === 'brand' && line.owner.agencyName && (
                <small className="muted"> {line.owner.agencyName}</small>
              )}
            </th>
            {cell(line.images)}
            {cell(line.videos)}
            {cell(line.charged)}
            {cell(line.refunded)}
            {cell(line.pending)}
            {cell(line.net)}
            {capped && <td className="number">{line.cap === null ? '—' : figures.format(line.cap)}</td>}
            {capped && <td className="number">{line.left === null ? '—' : figures.format(line.left)}</td>}
            <td>
              <button
                type="button"
                aria-label={`Statement for ${ownerName(line.owner)}`}
                onClick={() => go({ name: 'statement', owner: line.owner, period: view.period })}
              >
                Statement
              </button>
            </td>
          </tr>
        ))}
      </tbody>
      <tfoot>
        <tr>
          <th scope="row">In all</th>
          {cell(view.totals.images)}
          {cell(view.totals.videos)}
          {cell(view.totals.charged)}
          {cell(view.totals.refunded)}
          {cell(view.totals.pending)}
          {cell(view.totals.net)}
          {capped && <td />}
          {capped && <td />}
          <td />
        </tr>
      </tfoot>
    </table>
  );
}

function DailyTable({ view }: { view: UsageView }) {
  return (
    <table className="usage-table daily" data-testid="usage-days">
      <caption>Credits charged a day by client brand, and refunds on the day they were made</caption>
      <thead>
        <tr>
          <th scope="col">Day (UTC)</th>
          {view.lines.map((line) => (
            <th key={ownerKey(line.owner)} scope="col" className="number">
              {ownerName(line.owner)}
            </th>
          ))}
          <th scope="col" className="number">
            Refunds
          </th>
        </tr>
      </thead>
      <tbody>
        {view.days.map((day) => (
          <tr key={day.day}>
            <th scope="row">{dayLabel(day.day)}</th>
            {day.charged.map((charged, index) => (
              <td key={ownerKey(view.lines[index]!.owner)} className="number">
                {figures.format(charged)}
              </td>
            ))}
            <td className="number">{figures.format(day.refunded)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

const VERDICTS: Record<ReconciliationLine['verdict'], string> = {
  matched: 'Matches',
  outside_adbatch: 'Spent outside Adbatch',
  not_at_service: 'Recorded here, not there',
  unavailable: 'Not available',
};

function Reconciliation() {
  const { reconciliation, checking, checkError, check, view } = useUsage();
  return (
    <section aria-labelledby="reconcile-title" className="reconciliation">
      <div className="section-head">
        <h2 id="reconcile-title">Against the service</h2>
        <button type="button" disabled={checking || !view} onClick={() => void check()}>
          {checking ? 'Checking…' : 'Check against the service'}
        </button>
      </div>
      <p className="muted small">
        The service's usage report for the period beside what Adbatch recorded, per client brand. The
        service's own app spends from the same credits; what it spent shows as spent outside Adbatch.
      </p>
      {checkError && <Notice kind="error">{checkError}</Notice>}
      {reconciliation && (
        <>
          <p className="muted small" role="status">
            Checked {dateTime(reconciliation.checkedAt)}.
          </p>
          <table className="usage-table" data-testid="reconciliation">
            <caption>What Adbatch recorded beside the service's report</caption>
            <thead>
              <tr>
                <th scope="col">Billed to</th>
                <NumberHeads names={['Here', 'At the service', 'Difference']} />
                <th scope="col">What it is</th>
              </tr>
            </thead>
            <tbody>
              {reconciliation.lines.map((line) => (
                <tr key={ownerKey(line.owner)} data-verdict={line.verdict}>
                  <th scope="row">{ownerName(line.owner)}</th>
                  <td className="number">{figures.format(line.ledger.credits)}</td>
                  <td className="number">{line.service ? figures.format(line.service.credits) : '—'}</td>
                  <td className="number">
                    {line.difference === null ? '—' : figures.format(line.difference)}
                  </td>
                  <td>
                    <span className={`verdict verdict-${line.verdict}`}>{VERDICTS[line.verdict]}</span>{' '}
                    {line.explanation}
                    {line.jobs.length > 0 && (
                      <details>
                        <summary>The shoots and videos behind it ({line.jobs.length})</summary>
                        <ul>
                          {line.jobs.map((job) => (
                            <li key={job.jobId}>
                              {job.batchName} · {job.product} · {job.kind} · {credits(job.credits)}
                            </li>
                          ))}
                        </ul>
                      </details>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          {reconciliation.resolved.length > 0 && (
            <Notice kind="info">
              This check settled{' '}
              {counted(reconciliation.resolved.length, 'shoot or video', 'shoots or videos')} whose outcome
              was not known:{' '}
              {reconciliation.resolved
                .map((one) => `${credits(one.credits)} ${one.charged ? 'charged after all' : 'not charged'}`)
                .join('; ')}
              .
            </Notice>
          )}
        </>
      )}
    </section>
  );
}

export function UsageScreen() {
  const { view, loading, error, load, period } = useUsage();
  useEffect(() => {
    void load();
  }, [load]);
  const empty = view !== null && view.lines.length === 0;
  return (
    <section className="screen usage" aria-labelledby="usage-title" aria-busy={loading}>
      <header className="screen-header">
        <h1 id="usage-title">Usage{period ? `: ${periodWords(period)}` : ''}</h1>
      </header>
      <PeriodPicker />
      {error && <Notice kind="error">Could not read the usage: {error}</Notice>}
      {!view && !error && <p className="muted">Reading what was spent…</p>}
      {view && <Runways view={view} />}
      {empty && (
        <EmptyState title="Nothing spent in this period">
          <p>Shoots and videos appear here, per client brand, as the service charges them.</p>
        </EmptyState>
      )}
      {view && !empty && (
        <>
          <LinesTable view={view} />
          <section aria-labelledby="daily-title" className="daily-usage">
            <h2 id="daily-title">Day by day</h2>
            <UsageChart view={view} />
            <details>
              <summary>The chart’s figures</summary>
              <DailyTable view={view} />
            </details>
          </section>
        </>
      )}
      <Reconciliation />
    </section>
  );
}
