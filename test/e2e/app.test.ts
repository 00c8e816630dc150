import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { quoteBatch, quoteVideo } from '../../src-main/core/pricing.ts';
import type { CatalogView } from '../../src-main/shared/models.ts';
import { type AppServer, EXAMPLES_DIR, RENDERER_DIR } from '../harness/app-server.ts';
import { appInChromium } from '../support/app-fixture.ts';
import { callCore } from '../support/core-harness.ts';
import { S3RVER_CREDENTIALS, type S3Server, startS3Server } from '../support/s3-server.ts';
import type { DefaultHarness } from '../support/sandbox-harness.ts';
import { checkAllLooks, checkLooks, expectAccessible, screenshot } from './browser.ts';

// The real UI, built by Vite, in Debian's Chromium, on the browser harness (the real core, the embedded
// sandbox): as a designer would use it.

let app: AppServer;
let page: Page;
let service: DefaultHarness;
let s3: S3Server;

/** The select inside the label that starts with this text ("Aspect ratio", not "Video aspect ratio"). */
const selectLabelled = (label: string) =>
  page
    .locator('label')
    .filter({ hasText: new RegExp(`^${label}`) })
    .locator('select');
const valuesOf = (inputs: ReturnType<Page['locator']>) =>
  inputs.evaluateAll((elements) => elements.map((element) => (element as HTMLInputElement).value));
const optionsOf = (label: string) => valuesOf(selectLabelled(label).locator('option'));

/** The New batch settings as the screen shows them chosen. */
async function chosenSettings() {
  return {
    style: await page.locator('input[name="style"]:checked').inputValue(),
    mode: await page.locator('input[name="mode"]:checked').inputValue(),
    shots: await selectLabelled('Shots').inputValue(),
    aspectRatio: await selectLabelled('Aspect ratio').inputValue(),
    quality: await selectLabelled('Quality').inputValue(),
  };
}

const { missing } = appInChromium('app', {
  // Ten times real speed, as the demo: faster would make the sandbox's CPU-bound rendering outlast deadlines.
  app: { pick: [EXAMPLES_DIR], timeScale: 0.1 },
  service: { timeScale: 0.02 },
  // A bucket for photo storage, in the app's folder.
  prepare: async (dir) => {
    s3 = await startS3Server(join(dir, 's3'), ['photos']);
    return { release: () => s3.close() };
  },
  viewport: { width: 1280, height: 860 },
  ready: (ui) => {
    ({ app, page, service } = ui);
  },
});

describe.skipIf(missing)(`the app in a browser${missing ? ` (skipped: ${missing})` : ''}`, () => {
  it('serves the harness build of the renderer (the one with the WebSocket transport), not its sources', async () => {
    const served = await (await fetch(app.origin)).text();
    expect(served).toBe(await readFile(join(RENDERER_DIR, 'index.html'), 'utf8'));
    const script = await page.locator('script[type="module"]').getAttribute('src');
    expect(script).toMatch(/^\.?\/assets\/[\w-]+\.js$/);
    const bundle = await (await fetch(new URL(script!, app.origin))).text();
    expect(bundle).toBe(await readFile(join(RENDERER_DIR, script!), 'utf8'));
    expect(bundle).toContain('/ipc');
  });

  it('starts on an empty Batches screen that says what to do', async () => {
    await expect.poll(() => page.getByRole('heading', { name: 'No batches yet' }).isVisible()).toBe(true);
    await checkLooks(page, '01-batches-empty', 'Batches (empty)');
  });

  it('chooses the example products, shows the plan and a cost preview equal to the priced sum', async () => {
    await page.getByRole('button', { name: 'New batch' }).first().click();
    await page.getByRole('button', { name: 'Open Folder…' }).click();
    await expect
      .poll(() => page.getByRole('heading', { name: /13 products, 22 photos/ }).isVisible())
      .toBe(true);
    const total = page.getByTestId('quote-total');
    await total.waitFor();
    const { shoot } = (await callCore(app.core, 'catalog:get')).defaults;
    expect(await chosenSettings()).toEqual({
      style: shoot.style,
      mode: shoot.mode,
      shots: String(shoot.shots),
      aspectRatio: shoot.aspectRatio,
      quality: shoot.quality,
    });
    const names = [
      'bottles',
      'cap-black',
      'cap-gray',
      'cap-red',
      'hat',
      'hoodie-black',
      'hoodie-red',
      'long-sleeve-tee',
      'mug-set',
      'notebook',
      'sticker',
      'tote',
      'tshirt',
    ];
    const expected = quoteBatch(
      names,
      { style: shoot.style, shots: shoot.shots, quality: shoot.quality },
      null,
      null,
    ).credits;
    expect(await total.textContent()).toBe(`${expected} credits`);

    await page.getByLabel('Quality').selectOption('pro');
    await page.getByLabel(/^Shots/).selectOption('6');
    const six = quoteBatch(names, { style: 'classic', shots: 6, quality: 'pro' }, null, null).credits;
    await expect.poll(() => total.textContent()).toBe(`${six} credits`);
    // Luxury makes 4: Shots comes down to 4, and 6 stays in the list as unavailable, saying why.
    await page.getByText('Luxury', { exact: true }).click();
    await expect.poll(() => selectLabelled('Shots').inputValue()).toBe('4');
    const sixOption = selectLabelled('Shots').locator('option[value="6"]');
    expect(await sixOption.textContent()).toBe('6 (Classic and Minimal only)');
    expect(await sixOption.isDisabled()).toBe(true);
    expect(await page.getByTestId('six-shot-rule').textContent()).toBe(
      '6 shots are made only in the Classic and Minimal styles: Luxury makes at most 4.',
    );
    const luxury = quoteBatch(names, { style: 'luxury', shots: 4, quality: 'pro' }, null, null).credits;
    await expect.poll(() => total.textContent()).toBe(`${luxury} credits`);
    await page.getByText('Classic', { exact: true }).click();
    expect(await sixOption.isDisabled()).toBe(false);
    expect(await page.getByTestId('six-shot-rule').count()).toBe(0);
    await page.getByLabel('Quality').selectOption('standard');
    await expect.poll(() => total.textContent()).toBe(`${expected} credits`);

    // The hero is the first photo in natural order until the user picks another.
    const capBlack = page.getByTestId('plan-products').getByRole('listitem').filter({ hasText: 'cap-black' });
    const hero = capBlack.getByRole('img', { name: 'cap-black, hero' });
    const third = capBlack.getByRole('button', { name: 'solidus_cap_black_3.png: make it the hero' });
    const thirdThumbnail = await third.locator('img').getAttribute('src');
    expect(await capBlack.textContent()).toContain('hero solidus_cap_black_1.png');
    await third.click();
    await expect.poll(() => hero.getAttribute('src')).toBe(thirdThumbnail);
    expect(await capBlack.textContent()).toContain('hero solidus_cap_black_3.png');
    expect(
      await capBlack
        .getByRole('button', { name: 'solidus_cap_black_3.png (hero)' })
        .getAttribute('aria-pressed'),
    ).toBe('true');
    await checkLooks(page, '02-new-batch', 'New batch');
  });

  it("offers exactly the catalog's choices, a video's starting from its defaults", async () => {
    const catalog: CatalogView = await callCore(app.core, 'catalog:get');
    const styles = await page.locator('input[name="style"]').evaluateAll((inputs) =>
      inputs.map((input) => ({
        id: (input as HTMLInputElement).value,
        label: input.closest('label')?.textContent,
      })),
    );
    expect(styles).toEqual(catalog.styles.map(({ id, label }) => ({ id, label })));
    expect(await valuesOf(page.locator('input[name="mode"]'))).toEqual(catalog.modes.map((mode) => mode.id));
    expect(await optionsOf('Shots')).toEqual(catalog.shotCounts.map(String));
    expect(await optionsOf('Aspect ratio')).toEqual(catalog.shootAspectRatios);
    expect(await optionsOf('Quality')).toEqual(catalog.qualities.map((quality) => quality.id));
    const qualityTexts = await selectLabelled('Quality').locator('option').allTextContents();
    catalog.qualities.forEach((quality, i) => {
      expect(qualityTexts[i]).toContain(quality.label);
      expect(qualityTexts[i]).toContain(`${quality.creditsPerImage} credit`);
    });

    // The video is made after review, from the picks, by default: the shoots alone are charged now.
    expect(await page.getByRole('radio', { name: 'After review, from my picks' }).isChecked()).toBe(true);
    const { video } = catalog.defaults;
    const later = page.getByTestId('videos-later');
    const perVideo = quoteVideo(video);
    await expect
      .poll(() => later.textContent())
      .toBe(
        `The shoots are charged now; the videos later, from your picks: about ${perVideo} credits per product at ${video.duration} s / ${video.resolution} (the exact price when you make them).`,
      );
    expect(await page.getByTestId('quote-total').textContent()).toBe('52 credits');
    expect(await optionsOf('Length')).toEqual(catalog.videoDurations.map((choice) => String(choice.seconds)));
    expect(await optionsOf('Resolution')).toEqual(catalog.videoResolutions.map((choice) => choice.id));
    expect(await optionsOf('Video mode')).toEqual(catalog.modes.map((mode) => mode.id));
    expect(await optionsOf('Video aspect ratio')).toEqual(['', ...catalog.videoAspectRatios]);
    expect({
      duration: Number(await selectLabelled('Length').inputValue()),
      resolution: await selectLabelled('Resolution').inputValue(),
      mode: await selectLabelled('Video mode').inputValue(),
      aspectRatio: (await selectLabelled('Video aspect ratio').inputValue()) || null,
    }).toEqual(video);
    await checkLooks(page, '02b-new-batch-video', 'New batch (with a video)');
    // At once, from the first shots: today's automatic video, charged with the batch.
    await page.getByRole('radio', { name: 'At once, from the first shots' }).check();
    await expect
      .poll(() => page.getByTestId('quote-total').textContent())
      .toBe(`${52 + 13 * perVideo} credits`);
    expect(await later.count()).toBe(0);
    await page.getByRole('radio', { name: 'No video' }).check();
    await expect.poll(() => page.getByTestId('quote-total').textContent()).toBe('52 credits');
    expect(await selectLabelled('Length').count()).toBe(0);
    await page.getByRole('radio', { name: 'After review, from my picks' }).check();
    await expect.poll(() => later.count()).toBe(1);
    await expect.poll(() => page.getByTestId('quote-total').textContent()).toBe('52 credits');

    // With a model but none picked yet there is no price, and the Cost panel says why.
    await page.getByRole('radio', { name: 'With a model' }).check();
    await expect.poll(() => page.getByText('Choose a model to see the cost.').isVisible()).toBe(true);
    const startButton = page.getByRole('button', { name: 'Start', exact: true });
    expect(await startButton.isDisabled()).toBe(true);
    // The disabled Start says why, and is described by it.
    expect(await page.locator('#start-blocker').textContent()).toBe(
      'Pick a model for “With a model” to see the cost and start.',
    );
    expect(await startButton.getAttribute('aria-describedby')).toBe('start-blocker');
    await page.getByRole('radio', { name: 'Product only' }).check();
    await expect.poll(() => page.getByTestId('quote-total').textContent()).toBe('52 credits');
  });

  it('starts the batch, shows progress to done and the results as they land', async () => {
    await page.getByLabel('Batch name').fill('Examples');
    await page.getByRole('button', { name: /^Start for 52 credits$/ }).click();
    const progress = page.getByTestId('batch-progress');
    await progress.waitFor();
    await expect
      .poll(() => progress.textContent(), { timeout: 90_000, interval: 500 })
      .toMatch(/^13 of 13 products shot/);
    await expect.poll(() => page.locator('.badge').first().textContent()).toBe('finished');
    const results = page.getByRole('button', { name: /^[\w-]+, shot \d: open in Review$/ });
    await expect.poll(() => results.count()).toBeGreaterThan(0);
    const shown = () =>
      results
        .first()
        .locator('img')
        .evaluate((image: HTMLImageElement) => {
          const box = image.getBoundingClientRect();
          return {
            loaded: image.complete && image.naturalWidth > 0,
            height: box.height,
            // Its own aspect ratio, not a cropped square.
            ratioKept: Math.abs(box.width / box.height - image.naturalWidth / image.naturalHeight) < 0.02,
          };
        });
    // One height for every tile of the batch page (its compact rows, issue 31), each at its own aspect; a
    // tile of the last job to end may still be loading its image.
    await expect.poll(shown).toEqual({ loaded: true, height: 48, ratioKept: true });
    // The settings it ran with, and what the service charged, said as such.
    expect(await page.getByTestId('batch-shoot-settings').textContent()).toBe(
      '4 shots · Classic · Standard · 1:1 · Product only',
    );
    expect(await page.getByTestId('batch-charged').textContent()).toBe(
      '52 credits charged, 0 refunded, 52 net, of 52 quoted',
    );
    expect(await page.getByText(/\bjobs?\b/).count()).toBe(0);
    // "Show files" says where the folder is, once the file manager was asked.
    await page.getByRole('button', { name: 'Show files' }).click();
    await expect
      .poll(() => page.getByTestId('show-files').textContent())
      .toMatch(/^Opened in your file manager: .+Examples/);
    // Made with the video after review: no video job, and the batch says when they will be made.
    expect(await page.getByTestId('videos-after-review').textContent()).toBe(
      'After review, from the picks (10 s / 720p): Review, then Make videos…',
    );
    await checkAllLooks(page, '03-batch-done', 'Batch');
    // A result opens in Review, on that result.
    await page.getByRole('button', { name: 'cap-red, shot 2: open in Review' }).click();
    await expect
      .poll(() => page.locator('.tile[aria-current="true"]').textContent())
      .toContain('cap-red, shot 2');
    await page.getByRole('button', { name: '← Examples' }).click();
    await page.getByTestId('batch-progress').waitFor();

    await page.getByRole('button', { name: 'Batches' }).first().click();
    await expect.poll(() => page.getByRole('button', { name: /Examples/ }).isVisible()).toBe(true);
    // Each batch shows its cover: its first shot, loaded.
    const cover = page.getByRole('button', { name: /Examples/ }).locator('img.batch-cover');
    await expect
      .poll(() => cover.evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth > 0))
      .toBe(true);
    await checkLooks(page, '04-batches', 'Batches');
  }, 120_000);

  it('pauses and resumes a batch', async () => {
    await page.getByRole('button', { name: 'New batch' }).first().click();
    await page.getByRole('button', { name: 'Open Folder…' }).click();
    await page.getByTestId('quote-total').waitFor();
    await page.getByLabel('Also shoot products already shot').check();
    await expect.poll(() => page.getByTestId('quote-total').textContent()).toBe('52 credits');
    await page.getByLabel('Batch name').fill('Again');
    await page.getByRole('button', { name: /^Start for/ }).click();
    // Before pausing, the page says what a pause can still hold back.
    await expect
      .poll(() => page.getByTestId('pause-words').textContent())
      .toMatch(
        /^(Pausing now holds the \d+ shoots? not sent yet|Every shoot has been sent|Everything has been sent)/,
      );
    await page.getByRole('button', { name: 'Pause' }).click();
    await expect.poll(() => page.locator('.badge').first().textContent()).toBe('paused');
    // A paused batch in a designer's words: each shoot as what is happening to it, no jobs, no service states.
    const states = await page.locator('.job-state').allTextContents();
    expect(states.length).toBeGreaterThan(0);
    for (const state of states) {
      expect(state).toMatch(
        /^(shoot waiting for the pause to end|being sent|queued at the service|being made|being downloaded|done)$/,
      );
    }
    expect(await page.getByText(/\bjobs?\b|generating|pending/).count()).toBe(0);
    await checkAllLooks(page, '05-batch-paused', 'Batch (paused)');
    await page.getByRole('button', { name: 'Resume' }).click();
    await expect
      .poll(() => page.getByTestId('batch-progress').textContent(), { timeout: 90_000, interval: 500 })
      .toMatch(/^13 of 13 products shot/);
  }, 120_000);

  it('opens a screen at its top, wherever the screen before was scrolled to', async () => {
    const content = page.locator('main.content');
    const scrolled = () => content.evaluate((element) => element.scrollTop);
    // New batch keeps the photos chosen, so it comes back at its full height at once.
    await page.getByRole('button', { name: 'New batch' }).first().click();
    await page.getByRole('button', { name: 'Open Folder…' }).click();
    await page.getByTestId('quote-total').waitFor();
    await page.getByRole('button', { name: 'Settings' }).click();
    await page.getByRole('heading', { name: 'Photo storage' }).waitFor();
    await content.evaluate((element) => element.scrollTo({ top: element.scrollHeight }));
    expect(await scrolled()).toBeGreaterThan(0);
    await page.getByRole('button', { name: 'New batch' }).first().click();
    await page.getByTestId('quote-total').waitFor();
    expect(await scrolled()).toBe(0);
  });

  it('adds an account with a key (masked, balance shown) and explains a wrong key', async () => {
    await page.getByRole('button', { name: 'Settings' }).click();
    const key = service.keys.personal;
    await page.getByLabel('Name').fill('Studio');
    await page.getByLabel('Service address').fill(service.sandbox.url);
    await page.getByLabel('API key').fill(`adsk_${'0'.repeat(64)}`);
    await page.getByRole('button', { name: 'Check and add' }).click();
    await expect
      .poll(() => page.getByRole('alert').first().textContent())
      .toMatch(/refused this key \(401\)/);
    await screenshot(page, '06-settings-wrong-key');

    await page.getByLabel('API key').fill(key);
    await page.getByRole('button', { name: 'Check and add' }).click();
    const account = page.getByRole('listitem').filter({ hasText: 'Studio' });
    await expect
      .poll(() => account.textContent())
      .toMatch(new RegExp(`Personal · key …${key.slice(-4)} · 500 credits`));
    // The list shows the account on core's event, a moment before the form has its answer and lets go of
    // the key it was given: the form back, then nothing on the page holds the key.
    await page.getByRole('button', { name: 'Check and add' }).waitFor();
    expect(await page.content()).not.toContain(key);
    await checkLooks(page, '07-settings', 'Settings');
  });

  it('sets up photo storage (checked, secret masked) and runs a batch on the service account from the bucket', async () => {
    // s3rver checks the access key only, so the secret can be one the page is searched for.
    const secret = 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY';
    await page.getByLabel('Bucket').fill('nope');
    await page.getByLabel('Endpoint').fill(s3.endpoint);
    await page.getByLabel('Access key ID').fill(S3RVER_CREDENTIALS.accessKeyId);
    await page.getByLabel('Secret access key').fill(secret);
    await page.getByRole('button', { name: 'Check and save' }).click();
    await expect
      .poll(() => page.getByRole('alert').first().textContent())
      .toMatch(/bucket "nope" at http:\/\/127\.0\.0\.1:\d+\): the bucket does not exist/);
    await screenshot(page, '08-settings-storage-refused');

    await page.getByLabel('Bucket').fill('photos');
    await page.getByRole('button', { name: 'Check and save' }).click();
    const summary = page.getByTestId('storage-summary');
    await expect
      .poll(() => summary.textContent())
      .toMatch(new RegExp(`uploaded to bucket photos at ${s3.endpoint}.*secret …${secret.slice(-4)}`));
    expect(await page.content()).not.toContain(secret);
    await screenshot(page, '09-settings-storage');
    await expectAccessible(page, 'Settings (photo storage)');

    await page.getByRole('button', { name: 'New batch' }).first().click();
    await page.getByRole('button', { name: 'Open Folder…' }).click();
    await page.getByTestId('quote-total').waitFor();
    const studio = await page.locator('option', { hasText: 'Studio' }).getAttribute('value');
    await page.getByLabel('Account').selectOption(studio!);
    await page.getByLabel('Also shoot products already shot').check();
    await expect
      .poll(() => page.getByTestId('photo-reach').textContent())
      .toMatch(/uploaded to bucket photos/);
    await expect.poll(() => page.getByTestId('quote-total').textContent()).toBe('52 credits');
    await page.getByLabel('Batch name').fill('From the bucket');
    const shootsBefore = service.sandbox.requests().filter((entry) => entry.path === '/v1/shoots').length;
    await page.getByRole('button', { name: /^Start for 52 credits$/ }).click();
    await expect
      .poll(() => page.getByTestId('batch-progress').textContent(), { timeout: 90_000, interval: 500 })
      .toMatch(/^13 of 13 products shot/);
    const results = page.getByRole('button', { name: /^[\w-]+, shot \d: open in Review$/ });
    await expect.poll(() => results.count()).toBeGreaterThan(0);
    await screenshot(page, '10-batch-from-storage');

    const created = service.sandbox
      .requests()
      .filter((entry) => entry.method === 'POST' && entry.path === '/v1/shoots')
      .slice(shootsBefore);
    expect(created).toHaveLength(13);
    for (const entry of created) {
      for (const url of (entry.body as { product_image_urls: string[] }).product_image_urls)
        expect(url.startsWith(`${s3.endpoint}/photos/adbatch/`)).toBe(true);
    }
  }, 150_000);
});

describe('the harness serves only what it should', () => {
  it.skipIf(missing)(
    'answers 404 for files outside the gateway and for paths out of the renderer',
    async () => {
      for (const path of ['files/unknown', 'files/..%2F..%2Fetc%2Fpasswd', '..%2Fpackage.json', 'files/']) {
        const response = await fetch(new URL(path, app.url));
        expect(response.status, path).toBe(404);
      }
    },
  );
});
