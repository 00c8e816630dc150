import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { type AppServer, EXAMPLES_DIR } from '../harness/app-server.ts';
import { appInChromium } from '../support/app-fixture.ts';
import { callCore } from '../support/core-harness.ts';
import { checkAllLooks, holdAnswers } from './browser.ts';

// Requests from agents in the app (issue 16), in Chromium through the harness: an agent's request (made
// through the handler map, as `adbatch mcp` makes it) is announced on whatever screen is open and counted in
// the sidebar; the person approves one (its batch is made, and opens from the request) and declines another
// with a reason; the allowance is set. Four looks, axe clean.

let page: Page;
let app: AppServer;
const { missing } = appInChromium('agent-requests', {
  ready: (ui) => {
    ({ page, app } = ui);
  },
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
      .poll(() => banner.textContent())
      .toContain(`Claude Desktop asks to run “Spring drop” for ${asked.credits} credits.`);
    await expect
      .poll(() => page.getByTestId('requests-count').textContent())
      .toBe(', waiting for approval: 1');
    await banner.getByRole('button', { name: 'See the request' }).click();
    const request = page.getByTestId('agent-request').filter({ hasText: 'Spring drop' });
    await expect
      .poll(() => request.textContent())
      .toContain('2 products · 4 shots · Classic · Standard · 1:1 · Product only · Sandbox');
    expect(await request.getByTestId('agent-request-state').textContent()).toBe('Waiting for approval');
    await checkAllLooks(page, '44-requests', 'Requests from agents');

    expect((await callCore(app.core, 'batches:list')).some((batch) => batch.name === 'Spring drop')).toBe(
      false,
    );
    await request.getByRole('button', { name: `Approve ${asked.credits} credits` }).click();
    await expect
      .poll(() => request.getByTestId('agent-request-state').textContent())
      .toMatch(/^Approved by Adbatch, /);
    const made = (await callCore(app.core, 'batches:list')).find((batch) => batch.name === 'Spring drop');
    expect(made).toBeDefined();
    await request.getByRole('button', { name: 'Open the batch' }).click();
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Spring drop');
  }, 90_000);

  it('declines another with the reason told to the agent, and keeps the allowance', async () => {
    const asked = await agentAsks('Summer test', ['tote'], 'summer-1');
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('button', { name: /^Requests/ })
      .click();
    const request = page.getByTestId('agent-request').filter({ hasText: 'Summer test' });
    await request.getByRole('button', { name: 'Decline…' }).click();
    await request.getByLabel('Why (told to the agent, optional)').fill('Not this week');
    await request.getByRole('button', { name: 'Decline', exact: true }).click();
    await expect
      .poll(() => request.getByTestId('agent-request-state').textContent())
      .toMatch(/^Declined by Adbatch, .+: Not this week$/);
    const decided = (await callCore(app.core, 'agents:requests')).find((one) => one.id === asked.id);
    expect(decided).toMatchObject({ state: 'declined', batchId: null, reason: 'Not this week' });
    expect(await page.getByTestId('requests-count').count()).toBe(0);

    await page.getByLabel('Credits a day, all agents together').fill('40');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('Saved.').waitFor();
    expect(await callCore(app.core, 'agents:allowance')).toMatchObject({ perDay: 40 });
    await checkAllLooks(page, '45-requests-decided', 'Requests from agents, decided');
  }, 90_000);

  it('keeps an allowance typed again while the last Save is answered, and says it is not saved yet', async () => {
    const answers = await holdAnswers(page, 'agents:setAllowance');
    await page.reload();
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('button', { name: /^Requests/ })
      .click();
    const field = page.getByLabel('Credits a day, all agents together');
    await expect.poll(() => field.inputValue()).toBe('40');
    const status = page.locator('.allowance-form').first().getByRole('status');
    await field.fill('30');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expect.poll(() => answers.count()).toBe(1);
    expect(await status.textContent()).toBe('Saving…');
    await field.fill('25');
    answers.release();
    // The answer (30) came back after 25 was typed: 25 stays, not said saved.
    await expect.poll(() => status.count()).toBe(0);
    expect(await callCore(app.core, 'agents:allowance')).toMatchObject({ perDay: 30 });
    expect(await field.inputValue()).toBe('25');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('Saved.').waitFor();
    expect(await callCore(app.core, 'agents:allowance')).toMatchObject({ perDay: 25 });
    expect(await field.inputValue()).toBe('25');
  }, 60_000);

  it('serves agents over HTTP once turned on in Settings, with the token it shows', async () => {
    await page.getByRole('button', { name: 'Settings', exact: true }).click();
    await page.getByLabel('Let AI assistants on this computer connect').check();
    // Saved at once, and said beside the box.
    await expect.poll(() => page.locator('#agents-saved').textContent()).toBe('Saved');
    const url = await page.getByTestId('agent-server-url').textContent();
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    await page.getByRole('button', { name: 'Show the token' }).click();
    const token = await page.getByLabel('Token', { exact: true }).inputValue();
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    await page.getByText('For a client’s MCP settings').click();
    expect(await page.locator('.snippet').textContent()).toContain(`"Authorization": "Bearer ${token}"`);
    // The folder agents export into: the library's "Agent exports", then one the user chooses (the harness's
    // stand-in for the OS dialog answers <dir>/exports).
    expect(await page.getByTestId('agent-export-folder').textContent()).toMatch(/Agent exports$/);
    await page.getByRole('button', { name: 'Choose another folder…' }).click();
    await expect.poll(() => page.getByTestId('agent-export-folder').textContent()).toMatch(/[\\/]exports$/);
    expect((await callCore(app.core, 'agents:server')).exportFolder).toMatch(/[\\/]exports$/);
    expect(await page.getByTestId('agent-server-url').textContent()).toBe(url);
    await checkAllLooks(page, '46-settings-agents', 'Settings, Agents');

    // An agent connects with what Settings shows, and its request reaches the person in the app.
    const client = new Client({ name: 'Cursor', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(url!), {
        requestInit: { headers: { authorization: `Bearer ${token}` } },
      }),
    );
    try {
      const scan = (await client.callTool({
        name: 'scan_inputs',
        arguments: { paths: [join(EXAMPLES_DIR, 'sticker')] },
      })) as CallToolResult;
      const { scanId } = scan.structuredContent as { scanId: string };
      const quote = (await client.callTool({
        name: 'quote_batch',
        arguments: { scanId, name: 'From Cursor' },
      })) as CallToolResult;
      const { quoteId } = quote.structuredContent as { quoteId: string };
      await client.callTool({ name: 'submit_batch', arguments: { quoteId, clientRequestId: 'cursor-1' } });
    } finally {
      await client.close();
    }
    // 4 credits, within the 40 a day allowed above: it ran without asking, on the record as such.
    const fromCursor = (await callCore(app.core, 'agents:requests')).find(
      (one) => one.name === 'From Cursor',
    );
    expect(fromCursor).toMatchObject({ client: 'Cursor', state: 'created', decidedBy: 'the allowance' });
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('button', { name: /^Requests/ })
      .click();
    await expect
      .poll(() =>
        page
          .getByTestId('agent-request')
          .filter({ hasText: 'From Cursor' })
          .getByTestId('agent-request-state')
          .textContent(),
      )
      .toMatch(/^Approved by the allowance, /);
    await page.getByRole('button', { name: 'Settings', exact: true }).click();
    // Turned off: the address answers no more.
    await page.getByLabel('Let AI assistants on this computer connect').uncheck();
    await expect.poll(() => page.getByTestId('agent-server').count()).toBe(0);
    await expect(fetch(url!, { method: 'POST' })).rejects.toThrow();
  }, 90_000);
});
