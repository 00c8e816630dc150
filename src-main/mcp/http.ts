import { randomUUID, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { FOREIGN_HOST_REFUSAL, FOREIGN_HOST_STATUS, isOwnHost, ownHosts } from '../shared/loopback.ts';
import { createMcpServer, type McpOptions } from './server.ts';

// Adbatch's MCP tools over Streamable HTTP, inside the running app (issue 16): bound to 127.0.0.1 only, at
// /mcp. The MCP specification asks a local HTTP server to check `Origin` (a web page the user visits could
// otherwise post to it: DNS rebinding) and to authenticate; so every request must name our host (127.0.0.1
// or localhost at our port), carry no Origin or one of ours, and the bearer token the user copied from
// Settings. Each MCP session has its own server over the one handler map, under its client's name.

export interface McpHttpOptions extends McpOptions {
  token: string;
  /** 0: any free port (tests); the app keeps one so that clients' configs keep working. */
  port: number;
}

export interface McpHttp {
  url: string;
  port: number;
  close(): Promise<void>;
}

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

function refuse(res: ServerResponse, status: number, message: string): void {
  res
    .writeHead(status, {
      'content-type': 'application/json',
      ...(status === 401 ? { 'www-authenticate': 'Bearer' } : {}),
    })
    .end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32001, message }, id: null }));
}

async function bodyOf(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > 4 * 1024 * 1024) throw new Error('the request is larger than 4 MB');
    chunks.push(chunk as Buffer);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  return text ? JSON.parse(text) : undefined;
}

export async function startMcpHttp(options: McpHttpOptions): Promise<McpHttp> {
  const sessions = new Map<string, { transport: StreamableHTTPServerTransport; server: McpServer }>();
  let port = 0;
  let hosts = new Set<string>();
  const origins = () => [...hosts].map((host) => `http://${host}`);

  /** Why the request is refused before MCP sees it, or null. */
  const refusal = (req: IncomingMessage): [number, string] | null => {
    if (!isOwnHost(req.headers.host, hosts)) return [FOREIGN_HOST_STATUS, FOREIGN_HOST_REFUSAL];
    const origin = req.headers.origin;
    if (origin !== undefined && !origins().includes(origin)) {
      return [403, `Requests from ${origin} are refused: Adbatch's MCP server is for local clients.`];
    }
    const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1] ?? '';
    if (!sameSecret(bearer, options.token)) {
      return [401, 'The token is missing or wrong: copy it from Adbatch, Settings, Agents.'];
    }
    return null;
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const refused = refusal(req);
    if (refused) {
      refuse(res, ...refused);
      return;
    }
    if (new URL(req.url ?? '/', 'http://127.0.0.1').pathname !== '/mcp') {
      refuse(res, 404, 'The MCP endpoint is /mcp.');
      return;
    }
    const sessionId = req.headers['mcp-session-id'];
    const known = typeof sessionId === 'string' ? sessions.get(sessionId) : undefined;
    if (known) {
      await known.transport.handleRequest(req, res, req.method === 'POST' ? await bodyOf(req) : undefined);
      return;
    }
    const body = req.method === 'POST' ? await bodyOf(req) : undefined;
    if (req.method !== 'POST' || !isInitializeRequest(body)) {
      refuse(res, 400, 'No MCP session: start with an initialize request.');
      return;
    }
    const server = await createMcpServer(options);
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        sessions.set(id, { transport, server });
      },
    });
    transport.onclose = () => {
      if (transport.sessionId) sessions.delete(transport.sessionId);
    };
    await server.connect(transport);
    await transport.handleRequest(req, res, body);
  };

  const http: Server = createServer((req, res) => {
    handle(req, res).catch((error: Error) => {
      if (!res.headersSent) refuse(res, 400, `The request could not be read: ${error.message}`);
      else res.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(options.port, '127.0.0.1', () => resolve());
  });
  port = (http.address() as AddressInfo).port;
  hosts = ownHosts(port);
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    port,
    async close() {
      for (const { server } of sessions.values()) await server.close().catch(() => {});
      sessions.clear();
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}
