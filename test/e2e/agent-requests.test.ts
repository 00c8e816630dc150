import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { type AppServer, EXAMPLES_DIR } from '../harness/app-server.ts';
import { callCore } from '../support/core-harness.ts';
import { browserMissing, checkAllLooks, openAppForFile } from './browser.ts';

// Requests from agents in the app (issue 16), in Chromium through the harness: an agent's request (made
// through the handler map, as `adbatch mcp` makes it) is announced on whatever screen is open and counted in
// the sidebar; the person approves one (its batch is made, and opens from the request) and declines another
// with a reason; the allowance is set. Four looks, axe clean.

const missing = browserMissing();
const PATIENT = { timeout: 30_000 };
let page: Page;
let app: AppServer;
openAppForFile('agent-requests', (ui) => {
  page = ui.page;
  app = ui.app;
});

/** What `adbatch mcp` does for an agent's quote_batch then submit_batch. */
async function agentAsks(name: string, products: string[], clientRequestId: string) {
  const scan = await callCore(app.core, 'ingest:scan', {
    inputs: products.map((product) => join(EXAMPLES_DIR, product)),
  });
  const { defaults } = await callCore(app.core, 'catalog:get');
  const quote = await callCore(app.core, 'agents:quote', {
    client: 'Claude Desktop',
    request: {
      scanId: scan.scanId,
      accountId: 'sandbox',
      shoot: defaults.shoot,
      video: null,
      includeDone: true,
      name,
    },
  });
  return callCore(app.core, 'agents:submit', {
    client: 'Claude Desktop',
    quoteId: quote.quoteId,
    clientRequestId,
  });
}

describe.skipIf(missing)(`Requests from agents${missing ? ` (skipped: ${missing})` : ''}`, () => {
  it('announces a request, and a person approves it: its batch is made', async () => {
    const asked = await agentAsks('Spring drop', ['hat', 'mug-set'], 'spring-1');
    expect(asked.state).toBe('pending');
    const banner = page.getByTestId('agent-banner');
    await expect
      .poll(() => banner.textContent(), PATIENT)
      .toContain(`Claude Desktop asks to run “Spring drop” for ${asked.credits} credits.`);
    await expect.poll(() => page.getByTestId('requests-count').textContent()).toBe(', waiting for you: 1');
    await banner.getByRole('button', { name: 'See the request' }).click();
    const request = page.getByTestId('agent-request').filter({ hasText: 'Spring drop' });
    await expect.poll(() => request.textContent(), PATIENT).toContain('2 products');
    expect(await request.getByTestId('agent-request-state').textContent()).toBe('Waiting for you');
    await checkAllLooks(page, '44-requests', 'Requests from agents');

    expect((await callCore(app.core, 'batches:list')).some((batch) => batch.name === 'Spring drop')).toBe(
      false,
    );
    await request.getByRole('button', { name: `Approve ${asked.credits} credits` }).click();
    await expect
      .poll(() => request.getByTestId('agent-request-state').textContent(), PATIENT)
      .toMatch(/^Approved by Adbatch, /);
    const made = (await callCore(app.core, 'batches:list')).find((batch) => batch.name === 'Spring drop');
    expect(made).toBeDefined();
    await request.getByRole('button', { name: 'Open the batch' }).click();
    await expect
      .poll(() => page.getByRole('heading', { level: 1 }).textContent(), PATIENT)
      .toBe('Spring drop');
  }, 90_000);

  it('declines another with the reason told to the agent, and keeps the allowance', async () => {
    const asked = await agentAsks('Summer test', ['tote'], 'summer-1');
    await page.getByRole('button', { name: /^Requests/ }).click();
    const request = page.getByTestId('agent-request').filter({ hasText: 'Summer test' });
    await request.getByRole('button', { name: 'Decline…' }).click();
    await request.getByLabel('Why (told to the agent, optional)').fill('Not this week');
    await request.getByRole('button', { name: 'Decline', exact: true }).click();
    await expect
      .poll(() => request.getByTestId('agent-request-state').textContent(), PATIENT)
      .toMatch(/^Declined by Adbatch, .+: Not this week$/);
    const decided = (await callCore(app.core, 'agents:requests')).find((one) => one.id === asked.id);
    expect(decided).toMatchObject({ state: 'declined', batchId: null, reason: 'Not this week' });
    expect(await page.getByTestId('requests-count').count()).toBe(0);

    await page.getByLabel('Credits a day, all agents together').fill('40');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('Saved.').waitFor(PATIENT);
    expect(await callCore(app.core, 'agents:allowance')).toMatchObject({ perDay: 40 });
    await checkAllLooks(page, '45-requests-decided', 'Requests from agents, decided');
  }, 90_000);
});
