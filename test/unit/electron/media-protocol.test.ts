import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FileGateway } from '../../../src-main/core/app/files.ts';
import { MEDIA_SCHEME, mediaUrl, registerMediaProtocol } from '../../../src-main/electron/media-protocol.ts';
import { servedScheme } from '../../support/protocol-fake.ts';

// Electron's protocol and net are faked; the handler itself runs as Electron would run it, and fetches
// the file through a net.fetch that reads file:// URLs for real.

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'adbatch-media-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

function setUp() {
  const files = new FileGateway(mediaUrl);
  return {
    files,
    ...servedScheme(MEDIA_SCHEME, (protocol, net) => registerMediaProtocol(protocol, net, files)),
  };
}

describe('the adbatch-media protocol', () => {
  it('serves a registered file by its token, and nothing else', async () => {
    const { files, fetched, get } = setUp();
    const photo = join(dir, 'thumb.jpg');
    await writeFile(photo, 'jpeg bytes');
    const url = files.url(photo);
    expect(url).toMatch(/^adbatch-media:\/\/f\/[A-Za-z0-9_-]{24}$/);
    const response = await get(url);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/jpeg');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(await response.text()).toBe('jpeg bytes');

    for (const bad of [
      'adbatch-media://f/unknown-token',
      `adbatch-media://f/${encodeURIComponent(photo)}`,
      'adbatch-media://f/../../etc/passwd',
      url.replace('://f/', '://x/'),
    ]) {
      expect((await get(bad)).status, bad).toBe(404);
    }
    expect((await get(url, 'POST')).status).toBe(404);
    expect(fetched).toHaveLength(1);
  });
});
