// `npm run fuzz`: the property tests (test/unit/property, issue 28 point 8) with a longer budget and a random
// seed, printed first so a failure can be replayed: `ADBATCH_FUZZ_SEED=<seed> npm run fuzz`. CI runs the same
// tests with a fixed seed and a short budget (test/support/fuzz.ts). ADBATCH_FUZZ_RUNS sets the runs a
// property (20,000 by default). Plain Node, no shell: the same on Windows.
import { spawnSync } from 'node:child_process';
import { randomInt } from 'node:crypto';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const seed = process.env.ADBATCH_FUZZ_SEED ?? String(randomInt(2 ** 31 - 1));
console.log(`npm run fuzz: seed ${seed}`);
const vitest = join(dirname(createRequire(import.meta.url).resolve('vitest/package.json')), 'vitest.mjs');
const run = spawnSync(process.execPath, [vitest, 'run', '--project', 'unit', 'test/unit/property'], {
  stdio: 'inherit',
  env: { ...process.env, ADBATCH_FUZZ: '1', ADBATCH_FUZZ_SEED: seed },
});
if (run.status !== 0) console.log(`npm run fuzz: failed with seed ${seed}`);
process.exit(run.status ?? 1);
