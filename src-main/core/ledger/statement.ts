import type { StatementRow, StatementView, UsageOwner, UsagePeriod } from '../../shared/models.ts';
import type { JobKind } from '../../shared/vocabulary.ts';
import { shootWords, videoWords } from '../../shared/words.ts';
import type { Db } from '../db/open.ts';
import { storedJobVideo, storedShoot, tryReadStored, UnreadableError } from '../db/stored.ts';
import { csvText } from '../util/csv.ts';
import { ownerFilter } from './usage.ts';

// A client statement: one row per job attempt billed to the owner in the period (what was charged, what was
// refunded), from the ledger alone, so its CSV sums to the ledger to the credit. The agency bills its client
// from it. A create whose outcome is unknown is not on it until resolved (charged: a row; released: none).

const COLUMNS = [
  'date',
  'batch',
  'product',
  'kind',
  'settings',
  'credits_charged',
  'credits_refunded',
  'job_id',
];

/** A job's settings in words; a job whose settings cannot be read stays on the statement, saying so. */
function settingsInWords(kind: JobKind, json: string, jobId: string): string {
  const what = `Job ${jobId}'s settings`;
  if (kind === 'shoot') {
    const shoot = tryReadStored(storedShoot, json, what);
    return shoot instanceof UnreadableError ? `(${shoot.message})` : shootWords(shoot);
  }
  const video = tryReadStored(storedJobVideo, json, what);
  return video instanceof UnreadableError ? `(${video.message})` : videoWords(video);
}

function fileNameOf(owner: UsageOwner, period: UsagePeriod): string {
  const name = owner.kind === 'unassigned' ? `${owner.agencyName ?? 'agency'} unassigned` : owner.name;
  const day = (at: number) => new Date(at).toISOString().slice(0, 10);
  const last = day(period.to - 1);
  const slug = name.replace(/[^A-Za-z0-9]+/g, '-').replace(/^-|-$/g, '') || 'statement';
  return `${slug}-statement-${day(period.from)}-to-${last}.csv`;
}

/** `bom`: the CSV starts with UTF-8's byte-order mark, for Excel (the preference's, util/csv.ts). */
export function statement(db: Db, owner: UsageOwner, period: UsagePeriod, bom: boolean): StatementView {
  const filter = ownerFilter(owner);
  const rows = db
    .prepare<
      object,
      {
        at: number;
        batch: string;
        product: string;
        kind: JobKind;
        settings: string;
        charged: number;
        refunded: number;
        job_id: string;
      }
    >(
      `SELECT MIN(ledger.at) AS at, batches.name AS batch, products.name AS product, ledger.job_kind AS kind,
         jobs.settings, ledger.job_id,
         SUM(ledger.charged) AS charged, SUM(ledger.refunded) AS refunded
       FROM ledger_money AS ledger LEFT JOIN accounts ON accounts.id = ledger.account_id
         JOIN batches ON batches.id = ledger.batch_id JOIN products ON products.id = ledger.product_id
         JOIN jobs ON jobs.id = ledger.job_id
       WHERE ledger.at >= @from AND ledger.at < @to AND ${filter.sql}
       GROUP BY ledger.job_id, ledger.attempt
       HAVING charged > 0 OR refunded > 0
       ORDER BY MIN(ledger.id)`,
    )
    .all({ ...period, ...filter.params });
  const statementRows: StatementRow[] = rows.map((row) => ({
    date: new Date(row.at).toISOString().slice(0, 10),
    batch: row.batch,
    product: row.product,
    kind: row.kind,
    settings: settingsInWords(row.kind, row.settings, row.job_id),
    charged: row.charged,
    refunded: row.refunded,
    jobId: row.job_id,
  }));
  const charged = statementRows.reduce((sum, row) => sum + row.charged, 0);
  const refunded = statementRows.reduce((sum, row) => sum + row.refunded, 0);
  // The one writer makes a batch or product named like a formula inert; the credits stay numbers.
  const csvRows = statementRows.map((row) => [
    row.date,
    row.batch,
    row.product,
    row.kind,
    row.settings,
    row.charged,
    row.refunded,
    row.jobId,
  ]);
  return {
    owner,
    period,
    rows: statementRows,
    totals: { charged, refunded, net: charged - refunded },
    csv: csvText(COLUMNS, csvRows, { bom }),
    fileName: fileNameOf(owner, period),
  };
}
