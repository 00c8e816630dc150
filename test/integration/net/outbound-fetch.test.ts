import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchOutbound, MAX_REDIRECTS } from '../../../src-main/core/net/outbound-fetch.ts';
import type { LookupAll, OutboundPolicy } from '../../../src-main/core/net/outbound-policy.ts';

// The outbound policy against a real HTTP server on 127.0.0.1, with a fake DNS injected for the names (a
// rebinding one, one that answers private addresses): nothing here ever leaves the loopback, since every
// address that is not 127.0.0.1 is refused before a connection is made, which the tests also prove.

let server: Server;
let port: number;
/** The requests the server saw: path and Host header. */
const seen: Array<{ path: string; host: string | undefined }> = [];

/** Where each redirecting path sends its request. */
const REDIRECTS: Record<string, string> = {
  '/to-metadata': 'http://169.254.169.254/latest/meta-data/',
  '/to-intranet': 'http://intranet.test/admin',
  '/to-photo': '/photo.png',
  '/loop': '/loop',
};

function route(request: IncomingMessage, response: ServerResponse): void {
  seen.push({ path: request.url ?? '', host: request.headers.host });
  const location = REDIRECTS[request.url ?? ''];
  if (location) response.writeHead(302, { location }).end();
  else if (request.url === '/photo.png') {
    response.writeHead(200, { 'content-type': 'image/png' }).end('not really a png');
  } else response.writeHead(404).end();
}

beforeAll(async () => {
  server = createServer(route).listen(0, '127.0.0.1');
  await once(server, 'listening');
  port = (server.address() as AddressInfo).port;
});
afterAll(() => {
  server.closeAllConnections();
  server.close();
});

/** A DNS of the test's own: each name's answers, in order, one list per lookup (the last one repeats). */
function fakeDns(answers: Record<string, string[][]>): { lookup: LookupAll; asked: string[] } {
  const asked: string[] = [];
  const lookup: LookupAll = async (hostname) => {
    asked.push(hostname);
    const lists = answers[hostname];
    if (!lists) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    const list = lists[Math.min(asked.filter((name) => name === hostname).length, lists.length) - 1]!;
    return list.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
  return { lookup, asked };
}

async function body(result: Awaited<ReturnType<typeof fetchOutbound>>): Promise<string> {
  if (!result.ok) throw new Error(result.reason);
  const text = await result.answer.body.text();
  await result.answer.close();
  return text;
}

const refusal = (result: Awaited<ReturnType<typeof fetchOutbound>>) => (result.ok ? null : result.reason);

describe('fetchOutbound', () => {
  it('refuses an address on the office network, in words that say how to allow it, before connecting', async () => {
    const before = seen.length;
    const result = await fetchOutbound('http://192.168.1.1/a.jpg', { allowedHosts: [] });
    expect(refusal(result)).toBe(
      'http://192.168.1.1/a.jpg points at a private address (192.168.1.1) on your network; Adbatch fetches only public addresses. To allow it: --allow-host 192.168.1.1, or add it to Allowed hosts in Settings',
    );
    expect(seen.length).toBe(before);
  });

  it('refuses this computer unless its host is allowed by name, and on the port named', async () => {
    const url = `http://127.0.0.1:${port}/photo.png`;
    expect(refusal(await fetchOutbound(url, { allowedHosts: [] }))).toMatch(
      new RegExp(
        `points at a loopback address \\(this computer\\) \\(127\\.0\\.0\\.1\\).*--allow-host 127\\.0\\.0\\.1:${port},`,
      ),
    );
    expect(refusal(await fetchOutbound(url, { allowedHosts: ['127.0.0.1:1'] }))).toMatch(/loopback/);
    expect(await body(await fetchOutbound(url, { allowedHosts: [`127.0.0.1:${port}`] }))).toBe(
      'not really a png',
    );
  });

  it('refuses a name when any of its addresses is not public, naming the address and the name', async () => {
    const dns = fakeDns({
      'cdn.test': [['93.184.216.34', '10.0.0.7']],
      'meta.test': [['::ffff:169.254.169.254']],
    });
    const policy: OutboundPolicy = { allowedHosts: [], lookup: dns.lookup };
    expect(refusal(await fetchOutbound('https://cdn.test/a.jpg', policy))).toBe(
      'https://cdn.test/a.jpg points at a private address (10.0.0.7) through cdn.test on your network; Adbatch fetches only public addresses. To allow it: --allow-host cdn.test, or add it to Allowed hosts in Settings',
    );
    expect(refusal(await fetchOutbound('http://meta.test/latest', policy))).toMatch(
      /^http:\/\/meta\.test\/latest points at the cloud metadata address \(::ffff:169\.254\.169\.254\) through meta\.test;/,
    );
    expect(refusal(await fetchOutbound('http://gone.test/a.jpg', policy))).toBe(
      'http://gone.test/a.jpg: its host is not found',
    );
  });

  it('connects to the address it checked: a DNS that answers otherwise the second time is never asked again', async () => {
    // Rebinding: loopback to the check, then an office address to whoever asks next.
    const dns = fakeDns({ 'photos.test': [['127.0.0.1'], ['10.0.0.1']] });
    const before = seen.length;
    const result = await fetchOutbound(`http://photos.test:${port}/photo.png`, {
      allowedHosts: ['photos.test'],
      lookup: dns.lookup,
    });
    expect(await body(result)).toBe('not really a png');
    expect(dns.asked).toEqual(['photos.test']);
    // The name is kept for the server (Host), the connection went to the address checked.
    expect(seen.slice(before)).toEqual([{ path: '/photo.png', host: `photos.test:${port}` }]);
  });

  it('checks every hop of a redirect: an allowed host cannot send the request to the metadata service or the office', async () => {
    const dns = fakeDns({ 'intranet.test': [['192.168.0.10']] });
    const policy: OutboundPolicy = { allowedHosts: [`127.0.0.1:${port}`], lookup: dns.lookup };
    const before = seen.length;
    expect(refusal(await fetchOutbound(`http://127.0.0.1:${port}/to-metadata`, policy))).toBe(
      `http://127.0.0.1:${port}/to-metadata redirects to http://169.254.169.254/latest/meta-data/ points at the cloud metadata address (169.254.169.254); Adbatch fetches only public addresses. To allow it: --allow-host 169.254.169.254, or add it to Allowed hosts in Settings`,
    );
    expect(refusal(await fetchOutbound(`http://127.0.0.1:${port}/to-intranet`, policy))).toMatch(
      /redirects to http:\/\/intranet\.test\/admin points at a private address \(192\.168\.0\.10\) through intranet\.test on your network/,
    );
    expect(seen.slice(before).map((request) => request.path)).toEqual(['/to-metadata', '/to-intranet']);
  });

  it('follows a redirect that passes, and gives up on one that never ends', async () => {
    const policy: OutboundPolicy = { allowedHosts: ['127.0.0.1'] };
    const result = await fetchOutbound(`http://127.0.0.1:${port}/to-photo`, policy);
    expect(result.ok && result.answer.url).toBe(`http://127.0.0.1:${port}/photo.png`);
    expect(await body(result)).toBe('not really a png');
    const before = seen.length;
    expect(refusal(await fetchOutbound(`http://127.0.0.1:${port}/loop`, policy))).toBe(
      `http://127.0.0.1:${port}/loop redirects more than ${MAX_REDIRECTS} times`,
    );
    expect(seen.length - before).toBe(MAX_REDIRECTS + 1);
  });

  it('refuses what is not http(s) or not a URL', async () => {
    expect(refusal(await fetchOutbound('file:///etc/passwd', { allowedHosts: [] }))).toBe(
      'file:///etc/passwd is not an http(s) address (file:)',
    );
    expect(refusal(await fetchOutbound('photo.png', { allowedHosts: [] }))).toBe('photo.png is not a URL');
  });
});
