import { readFile } from 'node:fs/promises';
import { planExport } from '../../src-main/core/export/plan.ts';
import { runExport } from '../../src-main/core/export/run.ts';
import { ACCEPT_ALL } from './export-item.ts';

// An export in a process of its own, for the test that kills it mid-run: `node --import tsx
// test/support/export-child.ts <request.json>`, where the request holds the items, recipes, date and
// destination. Prints a line per file done.

const request = JSON.parse(await readFile(process.argv[2]!, 'utf8'));
const plan = await planExport(request);
console.log(`planned ${plan.files.length}`);
const report = await runExport({
  plan,
  destination: request.destination,
  concurrency: 1,
  acceptWarnings: ACCEPT_ALL,
  onProgress: (progress) => console.log(`done ${progress.done} ${progress.path}`),
});
console.log(`finished ${report.status}`);
