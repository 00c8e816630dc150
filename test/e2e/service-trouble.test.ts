import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { type AppServer, EXAMPLES_DIR } from '../harness/app-server.ts';
import { appInChromium } from '../support/app-fixture.ts';
import { callCore, untilFinished } from '../support/core-harness.ts';
import { QUICK_SHOOT } from '../support/job-settings.ts';
import { checkLooks } from './browser.ts';

// A service that stops answering mid-batch, on the batch page in Chromium: its line says so, and since
// when, instead of a time left ("waiting on the service", as a slow day reads, was all it said), the
// Batches list in a few words under its status, and neither says it once the service answers. The app's Sandbox account is the embedded sandbox, whose fault rules drop
// every look at a shoot without an answer (core's side: test/integration/app/service-trouble.test.ts).

let app: AppServer;
let page: Page;
let sandboxUrl: string;

const { missing } = appInChromium('service-trouble', {
  ready: async (ui) => {
    ({ app, page } = ui);
    // Asking its balance starts the embedded sandbox, which keeps its port in the data folder.
    await callCore(app.core, 'accounts:refresh', { id: 'sandbox' });
    const port = (await readFile(join(ui.dir, 'data', 'sandbox', 'port'), 'utf8')).trim();
    sandboxUrl = `http://127.0.0.1:${port}`;
  },
  open: false,
});

async function faults(method: 'POST' | 'DELETE', rule?: object): Promise<void> {
  const answer = await fetch(`${sandboxUrl}/_sandbox/faults`, {
    method,
    headers: { 'content-type': 'application/json' },
    ...(rule ? { body: JSON.stringify(rule) } : {}),
  });
  expect(answer.ok).toBe(true);
}

describe.skipIf(missing)(`a service that stops answering${missing ? ` (skipped: ${missing})` : ''}`, () => {
  it('is said on the Batches list and the batch page instead of the time left, and no more once it answers', async () => {
    await faults('POST', { method: 'GET', path: '/v1/shoots/', action: 'reset', when: 'before' });
    const scan = await callCore(app.core, 'ingest:scan', { inputs: [join(EXAMPLES_DIR, 'hat')] });
    const { id } = await callCore(app.core, 'batches:create', {
      scanId: scan.scanId,
      accountId: 'sandbox',
      shoot: QUICK_SHOOT,
      video: null,
      includeDone: true,
      name: 'Offline hat',
    });
    // Its balance too, once the batch is made (making it asks it): nothing of the service answers.
    await faults('POST', { method: 'GET', path: '/v1/credits', action: 'reset', when: 'before' });
    await page.goto(app.url);
    // The list says it under the batch's status, in a few words.
    await expect
      .poll(() => page.getByTestId('batch-service-trouble').textContent())
      .toBe('the service does not answer');
    await checkLooks(page, 'service-trouble-list', 'Batches, the service not answering');
    await page.getByRole('button', { name: /Offline hat/ }).click();
    // The progress line says it in a few words; the notice above, since when and why, as the CLI says it.
    const line = page.getByTestId('batch-progress');
    await expect.poll(() => line.textContent()).toMatch(/· the service does not answer$/);
    await expect
      .poll(() => page.getByTestId('service-trouble').textContent())
      .toMatch(
        /^The service has not answered for \d+ s \(the connection broke before the answer\): Adbatch keeps asking\.$/,
      );
    await checkLooks(page, 'service-trouble-page', 'batch page, the service not answering');
    // The account is there all the same, its balance not known (the line once read "Reading the balance…"
    // for as long as the service did not answer, the account's name not shown).
    await expect
      .poll(() => page.getByTestId('status-line').textContent())
      .toContain('Account: SandboxBalance not known');

    await faults('DELETE');
    await untilFinished(app.core, id);
    await expect.poll(() => page.getByTestId('batch-eta').count()).toBe(0);
    await expect.poll(() => line.textContent()).not.toContain('the service');
    expect(await page.getByTestId('service-trouble').count()).toBe(0);
    await page.getByRole('button', { name: 'Batches', exact: true }).click();
    await expect
      .poll(() => page.getByRole('button', { name: /Offline hat/ }).textContent())
      .toContain('finished');
    expect(await page.getByTestId('batch-service-trouble').count()).toBe(0);
  }, 60_000);
});
