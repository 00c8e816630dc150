import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rememberedLibrary } from '../../../src-main/core/app/library-choice.ts';
import { type CoreHarness, callCore, startCoreHarness } from '../../support/core-harness.ts';

// The app's side of one library per data folder, on a real core and database: the folder remembers the
// library the core first opened it with and the one Settings choose later, and the app's MCP server over
// HTTP tells each new agent session the library in use.

let dir: string;
let h: CoreHarness;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'adbatch-data-folder-library-'));
  h = await startCoreHarness({ dir });
}, 30_000);
afterAll(async () => {
  await h?.close();
  await rm(dir, { recursive: true, force: true });
});

/** The instructions the app's MCP server gives a new session. */
async function instructions(url: string, token: string): Promise<string> {
  const client = new Client({ name: 'Library Check', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(url), {
      requestInit: { headers: { authorization: `Bearer ${token}` } },
    }),
  );
  try {
    return client.getInstructions() ?? '';
  } finally {
    await client.close();
  }
}

describe("the app and its data folder's library", () => {
  it('is remembered when the core first opens the folder and when Settings choose another, and told to agents', async () => {
    const data = join(dir, 'data');
    const first = (await callCore(h.core, 'settings:get')).libraryDir;
    expect(rememberedLibrary(data)).toBe(first);
    const server = await callCore(h.core, 'agents:setServer', { enabled: true });
    expect(await instructions(server.url!, server.token!)).toContain(
      `library: ${first} (this data folder's library)`,
    );

    const chosen = join(dir, 'chosen');
    await callCore(h.core, 'settings:set', { libraryDir: chosen });
    expect(rememberedLibrary(data)).toBe(chosen);
    expect(await instructions(server.url!, server.token!)).toContain(`library: ${chosen}`);
    // Settings written for another reason (the server's own) leave the library where it is.
    await callCore(h.core, 'agents:setServer', { enabled: false });
    expect(rememberedLibrary(data)).toBe(chosen);
  });
});
