#!/usr/bin/env node
// `npm test`'s last step: vitest's projects as two runs side by side, the unit and integration projects in
// one and the e2e project (one file at a time in Chromium) in the other. Within one run vitest must finish
// a group of projects before the next (e2e waits for every integration file, since the two take different
// worker counts); side by side, the browser's files use the time the integration files spend waiting on the
// time-scaled sandbox. Measured on the 2-core machine, quiet: 868 s one after the other, 667 s side by side,
// every test passing in both (the e2e files then take 515 s instead of 307 s, still inside the integration
// run). `npx vitest run` still runs everything in one, as before.
//
// The integration run writes to the terminal as it goes; the e2e run's lines are marked `e2e │ `. The exit
// code is the first failure's, once both have ended, so that every failing file is reported.

import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);
const vitest = join(dirname(require.resolve('vitest/package.json')), 'vitest.mjs');

const runs = [
  { name: 'unit and integration', args: ['--project', 'unit', '--project', 'integration'], mark: '' },
  { name: 'e2e', args: ['--project', 'e2e'], mark: 'e2e │ ' },
];

/** Copies a child's output to ours, each line marked, never splitting a line of one across a line of the other. */
function relay(stream, out, mark) {
  let pending = '';
  stream.setEncoding('utf8');
  stream.on('data', (chunk) => {
    const lines = (pending + chunk).split('\n');
    pending = lines.pop();
    if (lines.length > 0) out.write(lines.map((line) => `${mark}${line}\n`).join(''));
  });
  stream.on('end', () => {
    if (pending) out.write(`${mark}${pending}\n`);
  });
}

const children = runs.map((run) => {
  const child = spawn(process.execPath, [vitest, 'run', ...run.args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  relay(child.stdout, process.stdout, run.mark);
  relay(child.stderr, process.stderr, run.mark);
  const ended = new Promise((resolve) => {
    child.on('close', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
  return { run, child, ended };
});

// Stopped (Ctrl+C, CI's timeout): both runs stop with it, leaving no vitest behind.
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    for (const { child } of children) child.kill(signal);
  });
}

const codes = await Promise.all(children.map(({ ended }) => ended));
for (const [index, { run }] of children.entries()) {
  console.log(`${run.name}: ${codes[index] === 0 ? 'passed' : `failed (exit ${codes[index]})`}`);
}
process.exit(codes.find((code) => code !== 0) ?? 0);
