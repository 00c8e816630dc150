import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { callHandler } from '../../src-main/core/app/dispatch.ts';
import type { Core } from '../../src-main/core/create-core.ts';
import { createMcpServer } from '../../src-main/mcp/server.ts';

/**
 * The MCP SDK's own client connected in process to Adbatch's MCP server over a real core: the protocol as a
 * client sees it (tools/list, tools/call, resources/read, their errors), without a process per test.
 */
export async function connectMcpClient(
  core: Core,
  options: { exportFolders?: string[]; name?: string } = {},
): Promise<Client> {
  const server = await createMcpServer({
    call: (channel, ...args) => callHandler(core.dispatch, channel, args[0]),
    exportFolders: () => options.exportFolders ?? [],
    defaultAccountId: 'sandbox',
    version: '0.0.0-test',
  });
  const [serverSide, clientSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: options.name ?? 'Test Agent', version: '1.0.0' });
  await client.connect(clientSide);
  return client;
}
