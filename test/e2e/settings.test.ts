import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { appInChromium } from '../support/app-fixture.ts';
import { checkAllLooks, clippedControls, holdAnswers } from './browser.ts';

// Settings as a first-time designer reads it (issue 14, point 15), at 1280x800 and 1920x1080, light and dark:
// the Sandbox shows no key it does not have, the storage form's fields show their examples whole with the
// rules beside them (no "Automatic" region that AWS would refuse), and a service that cannot be reached is
// described once.

let page: Page;
const { missing } = appInChromium('settings', {
  ready: (ui) => {
    page = ui.page;
  },
});

describe.skipIf(missing)(`Settings${missing ? ` (skipped: ${missing})` : ''}`, () => {
  it('shows the Sandbox without a key line, and the storage fields whole with their rules', async () => {
    await page.getByRole('button', { name: 'Settings', exact: true }).click();
    const sandbox = page.getByRole('listitem').filter({ hasText: 'simulated: no key' });
    await expect
      .poll(() => sandbox.getByTestId('account-line').textContent())
      .toMatch(/^Personal · 5,000 credits \(simulated\) · checked .+$/);
    expect(await page.getByPlaceholder('Automatic').count()).toBe(0);
    expect(await page.getByText('AWS S3: the bucket’s region.').count()).toBe(0);
    expect(await page.locator('#region-hint').textContent()).toBe(
      "AWS S3: the bucket's region. R2, B2 and MinIO: empty (taken from the endpoint).",
    );
    expect(await page.getByLabel('Region').getAttribute('aria-describedby')).toBe('region-hint');
    await page.getByText('More options').click();
    await checkAllLooks(page, '31-settings', 'Settings', async (look) => {
      expect(await clippedControls(page, '.settings'), `clipped controls (${look})`).toEqual([]);
    });
  }, 90_000);

  it('describes a service that cannot be reached in one sentence', async () => {
    await page.getByLabel('Name').fill('Studio');
    await page.getByLabel('Service address').fill('http://127.0.0.1:1');
    await page.getByLabel('API key').fill(`adsk_${'1'.repeat(64)}`);
    await page.getByRole('button', { name: 'Check and add' }).click();
    await expect
      .poll(() => page.getByRole('alert').first().textContent())
      .toBe(
        'Could not connect to the service at 127.0.0.1:1: the connection was refused. Check the address and the network connection.',
      );
  });

  it('keeps a box ticked twice quickly as the second tick left it, though the first answer comes after it', async () => {
    const answers = await holdAnswers(page, 'settings:set');
    await page.reload();
    await page.getByRole('button', { name: 'Settings', exact: true }).click();
    const box = page.getByLabel(/^CSV files for Excel/);
    const before = await box.isChecked();
    // Every value the page gives the box from now on.
    await box.evaluate((element) => {
      const shown: boolean[] = [];
      (window as unknown as { boxShown: boolean[] }).boxShown = shown;
      const own = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'checked')!;
      Object.defineProperty(element, 'checked', {
        configurable: true,
        get() {
          return own.get!.call(this);
        },
        set(value: boolean) {
          shown.push(value);
          own.set!.call(this, value);
        },
      });
    });
    await box.click();
    await expect.poll(() => answers.count()).toBe(1);
    await box.click();
    await expect.poll(() => answers.count()).toBe(2);
    expect(await box.isChecked()).toBe(before);
    const shownBefore = await page.evaluate(
      () => (window as unknown as { boxShown: boolean[] }).boxShown.length,
    );

    // Core's answers, in order: "Saved" is said once the second has come.
    answers.release();
    await expect.poll(() => page.locator('#bom-saved').textContent()).toBe('Saved');
    expect(await box.isChecked()).toBe(before);
    // The first answer never ticked the box back over the second click.
    const shownAfter = await page.evaluate(
      (from) => (window as unknown as { boxShown: boolean[] }).boxShown.slice(from),
      shownBefore,
    );
    expect(shownAfter).not.toContain(!before);
  });
});
