import { spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { availableParallelism, cpus, loadavg, tmpdir } from 'node:os';
import { delimiter, dirname, join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { openCliCore } from '../src-main/cli/open-core.ts';
import { SANDBOX_ACCOUNT_ID } from '../src-main/core/accounts/account-store.ts';
import { DEFAULT_GROUP_PATTERN } from '../src-main/core/app/public-api.ts';
import { makeProductFolders } from '../test/support/product-folders.ts';
import { benchSize, writeResults } from './settings.ts';

// npm run bench:cli (writes bench/results/cli-start.json): how long `adbatch status` takes on a data folder
// holding BATCHES batches, issue 26's target being under 300 ms as an installed command. The folder is
// filled through the real core and its embedded sandbox (one product a batch, each shot and downloaded);
// the project is then installed as a command with `npm link` into a temporary prefix, and each way of
// running the command is timed, from spawn to exit, the median of BENCH_RUNS runs after two to warm the
// disk cache and Node's compile cache:
// - installed: `adbatch status`, the linked command, with the Node that runs this bench first on PATH;
// - launcher: `node bin/adbatch.mjs status`, as `npm run demo` and the tests start it;
// - old Node first: the installed command where an older Node comes first on PATH, so the launcher runs it
//   again under a newer one (bin/project-node.mjs); left out when no older Node is on PATH;
// - TypeScript through tsx: `node --import tsx src-main/cli/main.ts status`, the sources run as
//   bin/adbatch.mjs ran them before the bundle, for comparison (then, with every module loaded at start,
//   `node bin/adbatch.mjs status` took about 0.9 s).
// A missed target is reported, not an exit code. The short mode (BENCH_SHORT=1) times 3 runs.

const ROOT = resolve(import.meta.dirname, '..');
const BATCHES = Number(process.env.BENCH_BATCHES ?? 10);
const RUNS = benchSize('BENCH_RUNS', 21, 3);
const WARMUP_RUNS = 2;
const TARGET_MS = 300;
/** The sandbox fifty times faster than the service: ten one-shot batches take a few seconds. */
const TIME_SCALE = 0.02;

interface Variant {
  name: string;
  command: string[];
  /** The command as a person types it, in the results. */
  shown: string;
  env: NodeJS.ProcessEnv;
}

interface Timing {
  name: string;
  command: string;
  medianMs: number;
  minMs: number;
  maxMs: number;
  runsMs: number[];
}

/** The data folder: BATCHES finished batches of the Sandbox, made as `adbatch run --sandbox` makes them. */
async function fillDataFolder(dir: string): Promise<string> {
  const dataDir = join(dir, 'data');
  const photos = join(dir, 'photos');
  await makeProductFolders(photos, 1);
  const cli = openCliCore({
    dataDir,
    holderName: 'bench:cli',
    leaseMode: 'require',
    driveUnfinished: true,
    library: join(dir, 'library'),
    timeScale: TIME_SCALE,
  });
  try {
    await cli.core.start();
    const scan = await cli.call('ingest:scan', { inputs: [photos], pattern: DEFAULT_GROUP_PATTERN });
    for (let index = 1; index <= BATCHES; index++) {
      await cli.call('batches:create', {
        scanId: scan.scanId,
        accountId: SANDBOX_ACCOUNT_ID,
        brandId: null,
        creditCap: null,
        shoot: {
          style: 'classic',
          shots: 1,
          quality: 'standard',
          aspectRatio: '1:1',
          mode: 'product_only',
          modelUrl: null,
          backgroundColor: null,
        },
        video: null,
        // The same product every time: shot again on purpose.
        includeDone: true,
        name: `bench ${index}`,
      });
    }
    await cli.core.whenIdle();
  } finally {
    await cli.core.stop();
  }
  return dataDir;
}

/** `npm link` into a prefix of its own: the `adbatch` command as a user installs it from a clone. */
function linkCommand(prefix: string): string {
  // The bundle is built by bin/adbatch.mjs before the first run; --ignore-scripts spares a second build.
  const linked = spawnSync('npm', ['link', '--ignore-scripts', '--no-audit', '--no-fund'], {
    cwd: ROOT,
    env: { ...process.env, npm_config_prefix: prefix },
    encoding: 'utf8',
  });
  if (linked.status !== 0) throw new Error(`npm link failed: ${linked.stderr}`);
  return join(prefix, 'bin', 'adbatch');
}

/** A `node` on PATH older than the one running this bench, as on many designers' machines. */
function olderNodeOnPath(): string | null {
  for (const dir of (process.env.PATH ?? '').split(delimiter).filter(Boolean)) {
    const probe = spawnSync(join(dir, 'node'), ['-p', 'process.versions.node'], { encoding: 'utf8' });
    const major = Number(probe.stdout?.split('.')[0]);
    if (probe.status === 0 && major < Number(process.versions.node.split('.')[0])) return dir;
  }
  return null;
}

/** PATH with this folder first. */
function pathWith(dir: string): NodeJS.ProcessEnv {
  return { ...process.env, PATH: `${dir}${delimiter}${process.env.PATH ?? ''}` };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

/** Runs the command to its exit and answers how long it took; it must list every batch. */
function timedRun(variant: Variant): number {
  const started = performance.now();
  const result = spawnSync(variant.command[0]!, variant.command.slice(1), {
    cwd: ROOT,
    env: variant.env,
    encoding: 'utf8',
  });
  const ms = performance.now() - started;
  const listed = result.stdout.match(/^b_[0-9a-f]+ {2}finished/gm)?.length ?? 0;
  if (result.status !== 0 || listed !== BATCHES) {
    throw new Error(`${variant.name}: exit ${result.status}, ${listed} batches listed\n${result.stderr}`);
  }
  return ms;
}

function time(variant: Variant, runs: number): Timing {
  for (let run = 0; run < WARMUP_RUNS; run++) timedRun(variant);
  const runsMs = Array.from({ length: runs }, () => Math.round(timedRun(variant)));
  return {
    name: variant.name,
    command: variant.shown,
    medianMs: median(runsMs),
    minMs: Math.min(...runsMs),
    maxMs: Math.max(...runsMs),
    runsMs,
  };
}

async function main(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'adbatch-bench-cli-'));
  try {
    const dataDir = await fillDataFolder(dir);
    const status = ['status', '--data-dir', dataDir];
    const installed = linkCommand(join(dir, 'prefix'));
    const thisNode = pathWith(dirname(process.execPath));
    const older = olderNodeOnPath();
    const tsx = ['--import', 'tsx', 'src-main/cli/main.ts'];
    const variants: Variant[] = [
      { name: 'installed', command: [installed, ...status], shown: 'adbatch status', env: thisNode },
      {
        name: 'launcher',
        command: [process.execPath, 'bin/adbatch.mjs', ...status],
        shown: 'node bin/adbatch.mjs status',
        env: thisNode,
      },
      ...(older
        ? [
            {
              name: 'old Node first',
              command: [installed, ...status],
              shown: 'adbatch status',
              env: pathWith(older),
            },
          ]
        : []),
      {
        name: 'TypeScript through tsx',
        command: [process.execPath, ...tsx, ...status],
        shown: `node ${tsx.join(' ')} status`,
        env: thisNode,
      },
    ];
    const load = loadavg()[0]!;
    const timings = variants.map((variant) => time(variant, RUNS));
    const installedMs = timings[0]!.medianMs;
    const result = {
      batches: BATCHES,
      runs: RUNS,
      targetMs: TARGET_MS,
      met: installedMs < TARGET_MS,
      timings,
      machine: {
        cpus: availableParallelism(),
        cpuModel: cpus()[0]?.model ?? 'unknown',
        node: process.version,
        /** The one-minute load average before and after: other work on the machine slows every figure. */
        loadAverage: [load, loadavg()[0]!].map((value) => Math.round(value * 100) / 100),
      },
    };
    const written = await writeResults('cli-start', result);
    console.table(
      timings.map(({ name, medianMs, minMs, maxMs, command }) => ({ name, medianMs, minMs, maxMs, command })),
    );
    console.log(
      `adbatch status on ${BATCHES} batches, installed: median ${installedMs} ms (target < ${TARGET_MS} ms: ${result.met ? 'met' : 'MISSED'}); load ${result.machine.loadAverage.join(' -> ')}`,
    );
    console.log(`${written} written`);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

await main();
