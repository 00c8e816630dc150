import { type AddressInfo, createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ANSWERED_FRESH_MS,
  InputCheck,
  inputsOf,
  unreachableMessage,
} from '../../../../src-main/core/hosting/input-check.ts';
import { PRODUCT_PHOTOS, type StaticServer, startStaticServer } from '../../../support/static-server.ts';

// What the service will fetch, asked first by Adbatch (issue 27, point 8): a real static server on the
// loopback plays the shop's CDN; its hit log says how often an address was asked. Given addresses are held
// to the outbound policy: this CDN on the loopback is allowed by name, as a designer would allow their own.

let photos: StaticServer;
const allowLoopback = () => ({ allowedHosts: ['127.0.0.1'] });
/** An address on this machine where nothing listens any more. */
let closed: string;
beforeAll(async () => {
  const listener = createServer().listen(0, '127.0.0.1');
  await new Promise((done) => listener.once('listening', done));
  const { port } = listener.address() as AddressInfo;
  await new Promise((done) => listener.close(done));
  closed = `http://127.0.0.1:${port}/closed.png`;
  photos = await startStaticServer();
  photos.addFile('/page.png', { body: '<html>moved</html>', contentType: 'text/html' });
});
afterAll(() => photos?.close());

const hitsOf = (url: string) => photos.hits().filter((path) => url.endsWith(path)).length;

describe('InputCheck', () => {
  it('says which inputs do not answer, and why: not there, not an image, refused', async () => {
    const check = new InputCheck({ now: Date.now, outbound: allowLoopback });
    const photo = photos.urlOf(PRODUCT_PHOTOS.hat);
    const answers = await check.unreachable('b_1', [
      { what: 'photo 1 of Hat', url: photo, given: true },
      { what: 'the logo', url: photos.urlOf('missing.png'), given: true },
      { what: 'the model image', url: photos.urlOf('page.png'), given: true },
      { what: 'photo 2 of Hat', url: closed, given: true },
    ]);
    expect(answers).toEqual([
      { what: 'the logo', url: photos.urlOf('missing.png'), why: 'HTTP 404', given: true },
      {
        what: 'the model image',
        url: photos.urlOf('page.png'),
        why: 'not an image (text/html)',
        given: true,
      },
      { what: 'photo 2 of Hat', url: closed, why: 'connection refused', given: true },
    ]);
    expect(unreachableMessage(answers.slice(0, 1))).toBe(
      `The logo (${photos.urlOf('missing.png')}) does not answer: HTTP 404. Nothing was sent and no credit spent: fix the address or its server, then resume.`,
    );
  });

  it('holds a given address on this computer that no one allowed, without asking it; asks its own as they are', async () => {
    const check = new InputCheck({ now: Date.now, outbound: () => ({ allowedHosts: [] }) });
    const logo = photos.urlOf(PRODUCT_PHOTOS.hat);
    const before = hitsOf(logo);
    const [held] = await check.unreachable('b_policy', [{ what: 'the logo', url: logo, given: true }]);
    expect(held!.why).toBe(
      `${logo} points at a loopback address (this computer) (127.0.0.1); Adbatch fetches only public addresses. To allow it: --allow-host ${new URL(logo).host}, or add it to Allowed hosts in Settings`,
    );
    expect(hitsOf(logo)).toBe(before);
    // The same address served by Adbatch itself (its photo host is on the loopback) is asked as it is.
    expect(await check.unreachable('b_own', [{ what: 'the logo', url: logo, given: false }])).toEqual([]);
    expect(hitsOf(logo)).toBe(before + 1);
  });

  it('asks an address that answered once per batch for a while, and one that did not again once its batch was held', async () => {
    let now = 1_000_000;
    const check = new InputCheck({ now: () => now, outbound: allowLoopback });
    const logo = photos.urlOf(PRODUCT_PHOTOS.tote);
    const missing = photos.urlOf('later.png');
    const inputs = [
      { what: 'the logo', url: logo, given: true },
      { what: 'the other logo', url: missing, given: true },
    ];
    // Three jobs of a batch at once, then another later in the window: the logo is asked once, and the
    // address that did not answer too, until the batch is held for it.
    await Promise.all([1, 2, 3].map(() => check.unreachable('b_1', inputs)));
    const [held] = await check.unreachable('b_1', inputs);
    expect(hitsOf(logo)).toBe(1);
    expect(hitsOf(missing)).toBe(1);
    check.forget('b_1', [held!]);
    await check.unreachable('b_1', inputs);
    expect(hitsOf(missing)).toBe(2);
    check.forget('b_1', [held!]);
    // Another batch asks for itself; the window over, the batch asks again.
    await check.unreachable('b_2', inputs);
    expect(hitsOf(logo)).toBe(2);
    now += ANSWERED_FRESH_MS;
    const [stillHeld] = await check.unreachable('b_1', inputs);
    expect(hitsOf(logo)).toBe(3);
    check.forget('b_1', [stillHeld!]);

    // The address answering now, the next try passes.
    const before = hitsOf(missing);
    photos.addFile('/later.png', { body: Buffer.from([0x89, 0x50]), contentType: 'image/png' });
    expect(await check.unreachable('b_1', inputs)).toEqual([]);
    expect(hitsOf(missing)).toBe(before + 1);
  });

  it('names the inputs of a create: a shoot’s photos and model image, a video’s logo', () => {
    expect(
      inputsOf(
        {
          productImageUrls: ['https://cdn.test/a.jpg', 'https://cdn.test/b.jpg'],
          style: 'classic',
          mode: 'with_model',
          modelUrl: 'https://cdn.test/model.jpg',
          shots: 1,
          aspectRatio: '1:1',
          quality: 'standard',
        },
        'Hat',
        ['https://cdn.test/b.jpg'],
      ).map((input) => [input.what, input.given]),
    ).toEqual([
      ['photo 1 of Hat', false],
      ['photo 2 of Hat', true],
      ['the model image', false],
    ]);
    expect(
      inputsOf(
        {
          imageUrls: ['https://cdn.test/shot.jpg'],
          duration: 5,
          resolution: '480p',
          mode: 'product_only',
          logoUrl: 'https://cdn.test/logo.png',
        },
        'Hat',
        ['https://cdn.test/logo.png'],
      ),
    ).toEqual([{ what: 'the logo', url: 'https://cdn.test/logo.png', given: true }]);
  });
});
