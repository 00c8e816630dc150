import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { expect } from 'vitest';
import { ADBATCH_BIN, adbatch, type CliResult } from './cli.ts';
import type { DefaultHarness } from './sandbox-harness.ts';

// `adbatch mcp` as a desktop agent starts it (a process of its own over stdio, its folders named by flags,
// the key in its environment), and the person's answer to an agent's request from yet another process:
// what the CLI's MCP tests (the SDK's client, the Inspector's) share.

/** Where a test's `adbatch mcp` keeps its data and library. */
export interface McpFolders {
  dataDir: string;
  library: string;
}

/** The sandbox the server talks to: its address and the key a user would have put in the environment. */
export interface McpService {
  url: string;
  key: string;
}

/** The sandbox over HTTP with its personal account's key, as a user's environment would hold it. */
export function personalKeyOn(harness: DefaultHarness): McpService {
  return { url: harness.sandbox.url, key: harness.keys.personal };
}

/** The command line a desktop config gives: `adbatch mcp` with its folders, service and export folder. */
export function mcpServerArgs(where: McpFolders, service: McpService, exportFolder: string): string[] {
  return [
    ADBATCH_BIN,
    'mcp',
    '--data-dir',
    where.dataDir,
    '--library',
    where.library,
    '--base-url',
    service.url,
    '--export-folder',
    exportFolder,
  ];
}

export interface StdioMcp {
  client: Client;
  /** What the server wrote on stderr so far. */
  stderr(): string;
  /** A tool's structured answer, the call expected to succeed (its words in the failure otherwise). */
  tool(name: string, args: Record<string, unknown>): Promise<Record<string, unknown>>;
}

/** The MCP SDK's own client starting `adbatch mcp` over stdio, as Claude Desktop does. */
export async function startStdioMcp(options: {
  where: McpFolders;
  service: McpService;
  exportFolder: string;
  clientName: string;
  cwd?: string;
}): Promise<StdioMcp> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: mcpServerArgs(options.where, options.service, options.exportFolder),
    ...(options.cwd ? { cwd: options.cwd } : {}),
    env: { ...(process.env as Record<string, string>), ADBATCH_API_KEY: options.service.key },
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk) => {
    stderr += chunk;
  });
  const client = new Client({ name: options.clientName, version: '1.0.0' });
  await client.connect(transport);
  return {
    client,
    stderr: () => stderr,
    async tool(name, args) {
      const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
      expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
      return result.structuredContent as Record<string, unknown>;
    },
  };
}

/** The person's yes to an agent's request, by `adbatch approve` from another process on the same data folder. */
export function approveRequest(
  requestId: unknown,
  where: McpFolders,
  service: McpService,
  cwd?: string,
): Promise<CliResult> {
  return adbatch(['approve', String(requestId), '--data-dir', where.dataDir, '--base-url', service.url], {
    cwd,
    env: { ...process.env, ADBATCH_API_KEY: service.key },
  });
}
