import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult, Progress } from '@modelcontextprotocol/sdk/types.js';
import { expect } from 'vitest';
import { callHandler } from '../../src-main/core/app/dispatch.ts';
import { type CoreCall, createMcpServer } from '../../src-main/mcp/server.ts';
import type { CoreHarness } from './core-harness.ts';

// The MCP server on a core harness's real core, driven by the SDK's own client over an in-memory transport:
// the tools as any transport serves them, with the harness's embedded Sandbox as the default account and
// `<dir>/exports` as the folder agents may export into.

export interface McpInProcess {
  client: Client;
  exports: string;
  /** A tool's structured answer; an error answer fails the test. */
  tool(
    name: string,
    args: Record<string, unknown>,
    options?: { onprogress?: (progress: Progress) => void; signal?: AbortSignal },
  ): Promise<Record<string, unknown>>;
}

export async function startMcpInProcess(h: CoreHarness, clientName: string): Promise<McpInProcess> {
  const exports = join(h.dir, 'exports');
  const call: CoreCall = (channel, ...args) => callHandler(h.core.dispatch, channel, args[0]);
  const server = await createMcpServer({
    call,
    defaultAccountId: 'sandbox',
    version: 'test',
    exportFolders: () => [exports],
  });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: clientName, version: '1.0.0' });
  await client.connect(clientSide);
  return {
    client,
    exports,
    async tool(name, args, options = {}) {
      const result = (await client.callTool({ name, arguments: args }, undefined, options)) as CallToolResult;
      expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
      return result.structuredContent as Record<string, unknown>;
    },
  };
}
