import { readFile } from 'node:fs/promises';
import { extname, join } from 'node:path';
import { type McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { Variables } from '@modelcontextprotocol/sdk/shared/uriTemplate.js';
import { McpError, type ReadResourceResult } from '@modelcontextprotocol/sdk/types.js';
import { Refusal } from '../core/app/dispatch.ts';
import { EXPORT_STATE_WORDS } from '../shared/words.ts';
import { agentWords } from './errors.ts';
import type { CoreCall } from './server.ts';

// What the tools answer as links, readable over MCP by any client (issue 30): a result, as an image an agent
// can look at, and an export's manifests. A client that is not on this computer, or not allowed to read its
// files, reads them here rather than at the file paths the answers also give.

/** The longest side of a result as served: what a model looks at well, a fraction of a 4k original's bytes. */
export const RESULT_MAX_SIDE = 1024;

/** The MCP specification's code for a resource that does not exist. */
const RESOURCE_NOT_FOUND = -32002;

/** A result's resource: the batch names where it is, the result which one (ids are unique across batches). */
export function resultUri(batchId: string, resultId: number): string {
  return `adbatch://result/${encodeURIComponent(batchId)}/${resultId}`;
}

export function exportManifestUri(exportId: string): string {
  return `adbatch://export/${encodeURIComponent(exportId)}/manifest`;
}

export function registerResources(server: McpServer, call: CoreCall): void {
  server.registerResource(
    'result',
    new ResourceTemplate('adbatch://result/{batchId}/{resultId}', { list: undefined }),
    {
      title: 'A result of a batch',
      description: `A shot as a JPEG at most ${RESULT_MAX_SIDE} px on its longest side, with the original's path and size beside it; a video as its path. list_results links each of a batch's results.`,
    },
    (uri, variables) => found(() => readResult(call, uri.href, variables)),
  );
  server.registerResource(
    'export-manifest',
    new ResourceTemplate('adbatch://export/{exportId}/manifest', { list: undefined }),
    {
      title: 'An export’s manifest',
      description:
        'What an export wrote, file by file: its manifests (CSV and JSON, and the channel’s own import file where it has one) as text.',
    },
    (uri, variables) => found(() => readManifest(call, uri.href, variables)),
  );
}

async function readResult(call: CoreCall, uri: string, variables: Variables): Promise<ReadResourceResult> {
  const batchId = variable(variables, 'batchId');
  const resultId = Number(variable(variables, 'resultId'));
  const [batch, review] = await Promise.all([
    call('batches:get', { id: batchId }),
    call('review:get', { batchId }),
  ]);
  const item = review.items.find((one) => one.id === resultId);
  if (!item) {
    throw new McpError(
      RESOURCE_NOT_FOUND,
      `Batch ${batchId} has no result ${variable(variables, 'resultId')}: list_results names its results.`,
    );
  }
  const path = join(batch.resultsFolder, item.file);
  const about = { resultId: item.id, product: item.productName, kind: item.kind, index: item.index, path };
  if (item.kind === 'video') {
    return { contents: [{ uri, mimeType: 'application/json', text: JSON.stringify(about, null, 2) }] };
  }
  // Loaded where an image is first decoded, not when the server starts: most sessions never read one.
  const sharp = (await import('sharp')).default;
  const original = sharp(path);
  const { width, height } = await original.metadata();
  const { data, info } = await original
    .rotate()
    .resize({ width: RESULT_MAX_SIDE, height: RESULT_MAX_SIDE, fit: 'inside', withoutEnlargement: true })
    .jpeg({ quality: 85 })
    .toBuffer({ resolveWithObject: true });
  const served = {
    ...about,
    original: { width, height },
    served: { width: info.width, height: info.height },
  };
  return {
    contents: [
      { uri, mimeType: 'image/jpeg', blob: data.toString('base64') },
      { uri, mimeType: 'application/json', text: JSON.stringify(served, null, 2) },
    ],
  };
}

async function readManifest(call: CoreCall, uri: string, variables: Variables): Promise<ReadResourceResult> {
  const exportId = variable(variables, 'exportId');
  const view = await call('export:get', { id: exportId });
  if (view.manifests.length === 0) {
    throw new McpError(
      RESOURCE_NOT_FOUND,
      `Export ${exportId} has no manifest yet: it is ${EXPORT_STATE_WORDS[view.state]}.`,
    );
  }
  const contents = await Promise.all(
    view.manifests.map(async (manifest) => {
      const path = join(view.destination, manifest);
      return {
        uri,
        mimeType: MANIFEST_TYPES[extname(manifest).toLowerCase()] ?? 'text/plain',
        text: await readFile(path, 'utf8'),
        // Which manifest this is: every one is read at the export's one URI.
        _meta: { path },
      };
    }),
  );
  return { contents };
}

const MANIFEST_TYPES: Record<string, string> = { '.csv': 'text/csv', '.json': 'application/json' };

/** A template's variable as one string (a template of single-valued variables, so never a list). */
function variable(variables: Variables, name: string): string {
  const value = variables[name];
  return decodeURIComponent(Array.isArray(value) ? value.join(',') : (value ?? ''));
}

/** The core's refusal (no such batch, no such export) as the MCP error a client shows for a missing resource. */
async function found(read: () => Promise<ReadResourceResult>): Promise<ReadResourceResult> {
  try {
    return await read();
  } catch (error) {
    if (error instanceof Refusal) throw new McpError(RESOURCE_NOT_FOUND, agentWords(error.message));
    throw error;
  }
}
