import { randomBytes } from 'node:crypto';
import { request } from 'node:http';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callHandler } from '../../../src-main/core/app/dispatch.ts';
import { type McpHttp, startMcpHttp } from '../../../src-main/mcp/http.ts';
import type { CoreCall } from '../../../src-main/mcp/server.ts';
import { EXAMPLES_DIR } from '../../harness/app-server.ts';
import { type CoreHarness, callCore, startCoreHarness } from '../../support/core-harness.ts';

// The MCP tools over Streamable HTTP as the app serves them (issue 16), on a real core with the embedded
// Sandbox: the SDK's own client with the bearer token works; a missing or wrong token, a foreign Origin and
// a foreign Host are refused before MCP sees the request; an agent's submit waits for a person.

let h: CoreHarness;
let http: McpHttp;
const token = randomBytes(32).toString('base64url');

beforeAll(async () => {
  h = await startCoreHarness();
  const call: CoreCall = (channel, ...args) => callHandler(h.core.dispatch, channel, args[0]);
  http = await startMcpHttp({
    call,
    defaultAccountId: 'sandbox',
    version: 'test',
    token,
    port: 0,
    exportFolders: () => [],
  });
}, 30_000);
afterAll(async () => {
  await http?.close();
  await h?.close();
});

/** A raw POST of an initialize request with these headers: the status the server answers. */
function post(headers: Record<string, string>): Promise<number> {
  const body = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
  });
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port: http.port,
        path: '/mcp',
        method: 'POST',
        headers: {
          host: `127.0.0.1:${http.port}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          ...headers,
        },
      },
      (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      },
    );
    req.once('error', reject);
    req.end(body);
  });
}

describe('MCP over Streamable HTTP', () => {
  it('refuses a missing or wrong token, a foreign Origin and a foreign Host', async () => {
    expect(await post({})).toBe(401);
    expect(await post({ authorization: 'Bearer not-the-token' })).toBe(401);
    expect(await post({ authorization: `Bearer ${token}`, origin: 'https://evil.example' })).toBe(403);
    expect(await post({ authorization: `Bearer ${token}`, host: `rebound.example:${http.port}` })).toBe(403);
    // The same request, as a local client sends it: answered.
    expect(await post({ authorization: `Bearer ${token}` })).toBe(200);
    expect(await post({ authorization: `Bearer ${token}`, origin: `http://127.0.0.1:${http.port}` })).toBe(
      200,
    );
  });

  it('serves the tools to the SDK’s client with the token; a submit waits for a person', async () => {
    const client = new Client({ name: 'HTTP agent', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(http.url), {
        requestInit: { headers: { authorization: `Bearer ${token}` } },
      }),
    );
    try {
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toContain('submit_batch');
      const scan = (await client.callTool({
        name: 'scan_inputs',
        arguments: { paths: [join(EXAMPLES_DIR, 'hat')] },
      })) as CallToolResult;
      const { scanId } = scan.structuredContent as { scanId: string };
      const quote = (await client.callTool({
        name: 'quote_batch',
        arguments: { scanId, name: 'Over HTTP' },
      })) as CallToolResult;
      const { quoteId } = quote.structuredContent as { quoteId: string };
      const submitted = (await client.callTool({
        name: 'submit_batch',
        arguments: { quoteId, clientRequestId: 'http-1' },
      })) as CallToolResult;
      expect(submitted.structuredContent).toMatchObject({ state: 'pending', batchId: null });
      const [request] = await callCore(h.core, 'agents:requests');
      expect(request).toMatchObject({ client: 'HTTP agent', name: 'Over HTTP', state: 'pending' });
      const bad = (await client
        .callTool({ name: 'submit_batch', arguments: { quoteId: 7 } })
        .catch((error: Error) => ({
          isError: true,
          content: [{ type: 'text', text: error.message }],
        }))) as CallToolResult;
      expect(bad.isError).toBe(true);
      expect(JSON.stringify(bad.content)).toMatch(/quoteId/);
    } finally {
      await client.close();
    }
  }, 30_000);
});
