import { symlink } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { appInChromium } from '../support/app-fixture.ts';
import { makeProductFolders } from '../support/product-folders.ts';

// Links say where they lead (issue 28, point 4), in New batch: a product whose photos a link brought from
// outside the dropped folder says so on its row, with the folder they really are in; its warning names
// each photo's real path among the problems.

let page: Page;
let outside: string;
const { missing } = appInChromium('outside-links', {
  prepare: async (dir) => {
    [outside] = (await makeProductFolders(join(dir, 'elsewhere'), 1, 2)) as [string];
    const dropped = join(dir, 'dropped');
    await makeProductFolders(dropped, 1);
    await symlink(outside, join(dropped, 'linked'));
    return { app: { pick: [dropped] } };
  },
  ready: (ui) => {
    page = ui.page;
  },
});

describe.skipIf(missing)(`New batch through links${missing ? ` (skipped: ${missing})` : ''}`, () => {
  it('says on the product where its linked photos really are', async () => {
    await page.getByRole('button', { name: 'New batch' }).first().click();
    await page.getByRole('button', { name: 'Open Folder…' }).click();
    await expect.poll(() => page.locator('#plan-title').textContent()).toBe('2 products, 3 photos');
    const note = page.getByTestId('from-outside');
    expect(await note.count()).toBe(1);
    expect(await note.textContent()).toBe(` · 2 photos through a link, really in ${outside}`);
    const linkedRow = page.locator('.plan-product').filter({ has: note });
    expect(await linkedRow.locator('strong').textContent()).toBe('linked');
    await page.locator('details.problems summary').click();
    expect(await page.locator('details.problems').textContent()).toContain(
      `the photo really is ${join(outside, '1.png')}`,
    );
  });
});
