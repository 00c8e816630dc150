import { type Command, InvalidArgumentError } from 'commander';
import { sessionAccountId } from '../../core/app/public-api.ts';
import type { BrandView, ReconciliationView, UsageOwner, UsageView } from '../../shared/models.ts';
import { MONEY_HEADS } from '../../shared/money-words.ts';
import { daysPeriod, ownerName, utcDay } from '../../shared/usage-period.ts';
import { type CliCore, hasQueue, openCliCore } from '../open-core.ts';
import { wholeNumber } from '../options.ts';
import { defaultDataDir } from '../paths.ts';
import { INSECURE_HTTP_FLAG, INSECURE_HTTP_HELP, sessionKeyFromEnv } from './session-key.ts';

// `adbatch brands` and `adbatch usage`: an agency's client brands (listed, added, capped) and what the ledger
// says was spent in a period, beside the service's usage report when a key is given. Brands and their caps
// live in the data folder the app uses too; the key (ADBATCH_API_KEY) is never stored.

const credits = new Intl.NumberFormat('en-US');

interface KeyOptions {
  dataDir: string;
  baseUrl?: string;
  insecureHttp?: boolean;
}

/** A core that only reads and decides (it never takes the queue), with the session key if one is given. */
function agencyCore(options: KeyOptions, holderName: string): { cli: CliCore; accountId: string | null } {
  const sessionKey = options.baseUrl ? sessionKeyFromEnv(options.baseUrl, options) : null;
  const cli = openCliCore({
    dataDir: options.dataDir,
    holderName,
    leaseMode: 'none',
    sessionKeys: sessionKey ? [sessionKey] : [],
  });
  return { cli, accountId: sessionKey ? sessionAccountId(sessionKey.apiKey) : null };
}

function requireKey(accountId: string | null): string {
  if (!accountId) {
    throw new Error('say which agency: --base-url, with its key in ADBATCH_API_KEY');
  }
  return accountId;
}

/** A brand by name (any case), among those known here. */
export function brandNamed(brands: readonly BrandView[], name: string): BrandView {
  const found = brands.filter((brand) => brand.name.toLowerCase() === name.trim().toLowerCase());
  if (found.length === 0) {
    const known = brands.map((brand) => brand.name).join(', ');
    throw new Error(`no client brand "${name}"${known ? `: known brands are ${known}` : ''}`);
  }
  return found[0]!;
}

function brandLine(brand: BrandView, width: number): string {
  const cap = brand.monthlyCap === null ? 'no cap' : `${credits.format(brand.monthlyCap)} a month`;
  const used =
    brand.monthlyCap === null
      ? `${credits.format(brand.committedThisMonth)} this month`
      : `${credits.format(brand.committedThisMonth)} of ${credits.format(brand.monthlyCap)} this month`;
  return `${brand.name.padEnd(width)}  ${(brand.agencyName ?? '').padEnd(18)}  ${cap.padEnd(18)}  ${used}`;
}

export function registerAgencyCommands(program: Command): void {
  const brands = program.command('brands').description("An agency's client brands, their monthly caps");
  const common = (command: Command) =>
    command
      .option('--base-url <url>', "the agency's service address; the key comes from ADBATCH_API_KEY")
      .option(INSECURE_HTTP_FLAG, INSECURE_HTTP_HELP)
      .option('--data-dir <dir>', 'where the queue database lives', defaultDataDir());

  common(
    brands
      .command('list', { isDefault: true })
      .description('List the brands (those the key sees, with --base-url; else those known here)')
      .option('--json', 'print them as JSON'),
  ).action(async (options: KeyOptions & { json?: boolean }) => {
    // Looking at a folder nothing ran in creates nothing (as `adbatch status`).
    if (!options.baseUrl && !hasQueue(options.dataDir)) {
      process.stdout.write(options.json ? '[]\n' : 'No client brands known here yet.\n');
      return;
    }
    const { cli, accountId } = agencyCore(options, 'adbatch brands');
    try {
      const list = accountId
        ? await cli.call('brands:refresh', { accountId })
        : await cli.call('brands:list');
      if (options.json) {
        process.stdout.write(`${JSON.stringify(list, null, 2)}\n`);
        return;
      }
      if (list.length === 0) {
        process.stdout.write(
          accountId ? 'This agency has no client brands yet.\n' : 'No client brands known here yet.\n',
        );
        return;
      }
      const width = Math.max(5, ...list.map((brand) => brand.name.length));
      process.stdout.write(`${list.map((brand) => brandLine(brand, width)).join('\n')}\n`);
    } finally {
      await cli.core.stop();
    }
  });

  common(brands.command('add').description('Create a client brand at the service').argument('<name>')).action(
    async (name: string, options: KeyOptions) => {
      const { cli, accountId } = agencyCore(options, 'adbatch brands add');
      try {
        const brand = await cli.call('brands:create', { accountId: requireKey(accountId), name });
        process.stdout.write(`Created the client brand ${brand.name} (${brand.remoteId}).\n`);
      } finally {
        await cli.core.stop();
      }
    },
  );

  common(
    brands
      .command('cap')
      .description('Set a brand\'s monthly cap in credits ("none" clears it); batches stop before passing it')
      .argument('<name>')
      .argument('<credits>', 'whole credits, or none', (text: string) =>
        text === 'none' ? null : wholeNumber(text),
      ),
  ).action(async (name: string, cap: number | null, options: KeyOptions) => {
    const { cli, accountId } = agencyCore(options, 'adbatch brands cap');
    try {
      const known = accountId
        ? await cli.call('brands:refresh', { accountId })
        : await cli.call('brands:list');
      const brand = await cli.call('brands:setCap', { id: brandNamed(known, name).id, monthlyCap: cap });
      process.stdout.write(
        cap === null
          ? `${brand.name} has no monthly cap now.\n`
          : `${brand.name}: at most ${credits.format(cap)} credits a month (${credits.format(brand.committedThisMonth)} this month so far).\n`,
      );
    } finally {
      await cli.core.stop();
    }
  });

  common(
    program
      .command('usage')
      .description(
        "What was spent in a period, per brand (or account) and in all, from the ledger; beside the service's own figures with --base-url",
      )
      .option('--from <date>', 'first day, YYYY-MM-DD (UTC); default: the first of this month', day)
      .option('--to <date>', 'last day, YYYY-MM-DD (UTC), included; default: the end of this month', day)
      .option('--brand <name>', 'only this client brand')
      .option('--json', 'print the usage (and the reconciliation) as JSON')
      .option('--csv', "print the brand's statement as CSV: one row per job")
      .option('--bom', "with --csv: start with UTF-8's byte-order mark, which Excel needs (the default)")
      .option('--no-bom', 'with --csv: no byte-order mark (for scripts)'),
  ).action(async (options: KeyOptions & UsageOptions) => {
    if (options.json && options.csv) throw new Error('choose --json or --csv, not both');
    if (!hasQueue(options.dataDir)) throw new Error(`nothing has run with ${options.dataDir} yet`);
    const period = daysPeriod(options, Date.now());
    if (typeof period === 'string') throw new Error(period);
    const { cli, accountId } = agencyCore(options, 'adbatch usage');
    try {
      const usage = await cli.call('usage:get', period);
      const brand = options.brand ? brandNamed(await cli.call('brands:list'), options.brand) : null;
      const lines = brand
        ? usage.lines.filter((line) => line.owner.kind === 'brand' && line.owner.brandId === brand.id)
        : usage.lines;
      if (options.csv) {
        const owner = brand ? ownerOfBrand(brand) : onlyOwner(usage);
        const bom = options.bom !== undefined ? { bom: options.bom } : {};
        process.stdout.write((await cli.call('usage:statement', { ...period, owner, ...bom })).csv);
        return;
      }
      const reconciliation = accountId ? await cli.call('usage:reconcile', period) : null;
      if (options.json) {
        process.stdout.write(`${JSON.stringify({ ...usage, lines, reconciliation }, null, 2)}\n`);
        return;
      }
      process.stdout.write(`${formatUsage({ ...usage, lines }, reconciliation, brand)}\n`);
    } finally {
      await cli.core.stop();
    }
  });
}

interface UsageOptions {
  from?: number;
  to?: number;
  brand?: string;
  json?: boolean;
  csv?: boolean;
  bom?: boolean;
}

function day(text: string): number {
  const at = utcDay(text);
  if (at === null) throw new InvalidArgumentError('a day is written YYYY-MM-DD, e.g. 2026-11-01');
  return at;
}

function ownerOfBrand(brand: BrandView): UsageOwner {
  return { kind: 'brand', brandId: brand.id, name: brand.name, agencyName: brand.agencyName };
}

/** Without --brand, a statement is for the one owner that spent in the period. */
function onlyOwner(usage: UsageView): UsageOwner {
  const spent = usage.lines.filter((line) => line.charged > 0 || line.refunded > 0);
  if (spent.length !== 1) {
    throw new Error(
      spent.length === 0
        ? 'nothing was spent in this period'
        : `say whose statement with --brand: ${spent.map((line) => ownerName(line.owner)).join(', ')} spent in this period`,
    );
  }
  return spent[0]!.owner;
}

export function formatUsage(
  usage: UsageView,
  reconciliation: ReconciliationView | null,
  brand: BrandView | null,
): string {
  const dayOf = (at: number) => new Date(at).toISOString().slice(0, 10);
  const header = [
    'Images',
    'Videos',
    MONEY_HEADS.charged,
    MONEY_HEADS.refunded,
    'At stake',
    MONEY_HEADS.net,
    'Cap',
    'Left',
  ];
  const width = Math.max(5, ...usage.lines.map((line) => ownerName(line.owner).length));
  const row = (name: string, cells: Array<string | number | null>) =>
    [
      name.padEnd(width),
      ...cells.map((cell, index) =>
        (cell === null ? '' : typeof cell === 'number' ? credits.format(cell) : cell).padStart(
          header[index]!.length,
        ),
      ),
    ].join('  ');
  const out = [
    `Usage ${dayOf(usage.period.from)} to ${dayOf(usage.period.to - 1)} (UTC days)`,
    row('', header),
  ];
  for (const line of usage.lines) {
    out.push(
      row(ownerName(line.owner), [
        line.images,
        line.videos,
        line.charged,
        line.refunded,
        line.pending,
        line.net,
        line.cap,
        line.left,
      ]),
    );
  }
  if (!brand) {
    const t = usage.totals;
    out.push(row('Total', [t.images, t.videos, t.charged, t.refunded, t.pending, t.net, null, null]));
  }
  for (const runway of usage.runways) {
    if (runway.days === null) continue;
    out.push(
      `${runway.name}: ${credits.format(runway.balance ?? 0)} credits, about ${runway.days} days at the last 7 days' rate (${credits.format(runway.dailyRate)} a day)${runway.low ? ': low' : ''}`,
    );
  }
  if (reconciliation) {
    out.push('', 'Against the service:');
    for (const line of reconciliation.lines) {
      if (brand && !(line.owner.kind === 'brand' && line.owner.brandId === brand.id)) continue;
      out.push(`  ${ownerName(line.owner)}: ${line.explanation}`);
      for (const job of line.jobs) {
        out.push(`    ${job.batchName} / ${job.product} ${job.kind} ${job.jobId}: ${job.credits} refunded`);
      }
    }
  }
  return out.join('\n');
}
