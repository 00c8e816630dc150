import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHANNELS } from '../../../src-main/shared/ipc.ts';
import {
  PREFLIGHT_WARNINGS,
  QUALITIES,
  REVIEW_FLAGS,
  SHOOT_ASPECT_RATIOS,
  SHOOT_STYLES,
  SHOT_COUNTS,
  VIDEO_DURATIONS,
  VIDEO_RESOLUTIONS,
} from '../../../src-main/shared/vocabulary.ts';
import { type CoreHarness, startCoreHarness } from '../../support/core-harness.ts';
import { connectMcpClient } from '../../support/mcp-client.ts';

// The MCP tools' schemas say the truth (issue 30): every choice an enum of the one vocabulary, nullable
// fields in the portable `anyOf` form (no `type` array, which the Inspector's `--strict` run flags), honest
// annotations, and bad arguments answered naming the argument and what it may be, never an internal channel.

let h: CoreHarness;
let client: Client;
let tools: Map<string, Tool>;

beforeAll(async () => {
  h = await startCoreHarness();
  client = await connectMcpClient(h.core);
  tools = new Map((await client.listTools()).tools.map((tool) => [tool.name, tool]));
}, 30_000);
afterAll(async () => {
  await client?.close();
  await h?.close();
});

type Schema = Record<string, unknown>;

/** The schema of a property, by its path through `properties` (and an optional object's own). */
function property(tool: string, path: string[]): Schema {
  let schema = tools.get(tool)!.inputSchema as Schema;
  for (const name of path) schema = (schema.properties as Record<string, Schema>)[name]!;
  return schema;
}

/** Every subschema where a `type` is a list, or OpenAPI's `nullable` is used: what strict clients reject. */
function unportable(schema: unknown, at: string): string[] {
  if (Array.isArray(schema)) return schema.flatMap((item, index) => unportable(item, `${at}[${index}]`));
  if (!schema || typeof schema !== 'object') return [];
  const here = Object.entries(schema).flatMap(([key, value]) => unportable(value, `${at}.${key}`));
  if (Array.isArray((schema as Schema).type)) here.push(`${at}.type`);
  if ('nullable' in schema) here.push(`${at}.nullable`);
  return here;
}

/** An error's text as the agent reads it: a tool error's content, or a protocol error's message. */
async function errorOf(name: string, args: Record<string, unknown>): Promise<string> {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  expect(result.isError, `${name} ${JSON.stringify(args)}`).toBe(true);
  return result.content.map((item) => (item.type === 'text' ? item.text : '')).join('\n');
}

describe('the MCP tools’ schemas', () => {
  it('offer every choice as an enum of the vocabulary', () => {
    expect(property('quote_batch', ['style']).enum).toEqual([...SHOOT_STYLES]);
    expect(property('quote_batch', ['shots']).enum).toEqual([...SHOT_COUNTS]);
    expect(property('quote_batch', ['quality']).enum).toEqual([...QUALITIES]);
    expect(property('quote_batch', ['aspectRatio']).enum).toEqual([...SHOOT_ASPECT_RATIOS]);
    expect(property('quote_batch', ['video', 'duration']).enum).toEqual([...VIDEO_DURATIONS]);
    expect(property('quote_batch', ['video', 'resolution']).enum).toEqual([...VIDEO_RESOLUTIONS]);
    expect(property('make_videos', ['duration']).enum).toEqual([...VIDEO_DURATIONS]);
    expect(property('make_videos', ['resolution']).enum).toEqual([...VIDEO_RESOLUTIONS]);
    expect(property('export_batch', ['rule']).enum).toEqual(['picked', 'picked-or-stars', 'not-rejected']);
    expect((property('export_batch', ['acceptWarnings']).items as Schema).enum).toEqual([
      ...PREFLIGHT_WARNINGS,
    ]);
    expect(property('review_decide', ['flag']).anyOf).toEqual([
      { type: 'string', enum: [...REVIEW_FLAGS] },
      { type: 'null', description: 'None.' },
    ]);
  });

  it('write nullable fields portably, as strict clients read them', () => {
    const found = [...tools.values()].flatMap((tool) => [
      ...unportable(tool.inputSchema, `${tool.name}.input`),
      ...unportable(tool.outputSchema, `${tool.name}.output`),
    ]);
    expect(found).toEqual([]);
    // The nullable answers are still nullable: the batch of a request not yet approved is null.
    const batchId = (tools.get('request_status')!.outputSchema!.properties as Record<string, Schema>).batchId;
    expect(batchId).toEqual({ anyOf: [{ type: 'string' }, { type: 'null', description: 'None.' }] });
  });

  it('say where a URL may be fetched, and where credits are spent or decisions replaced', () => {
    expect(tools.get('scan_inputs')!.annotations).toMatchObject({ readOnlyHint: true, openWorldHint: true });
    expect(tools.get('submit_batch')!.annotations).toMatchObject({
      readOnlyHint: false,
      destructiveHint: true,
    });
    expect(tools.get('review_decide')!.annotations).toMatchObject({
      readOnlyHint: false,
      destructiveHint: true,
    });
    // A re-export replaces the files an earlier one placed (issue 29): destructive, though it spends nothing.
    expect(tools.get('export_batch')!.annotations).toMatchObject({
      destructiveHint: true,
      openWorldHint: false,
    });
    expect(tools.get('usage')!.annotations).toMatchObject({ readOnlyHint: true, openWorldHint: false });
  });

  it('answer bad arguments naming the argument and what it may be, never a channel', async () => {
    const quote = { scanId: 's_none', name: 'Bad' };
    const cases: Array<[string, Record<string, unknown>, string]> = [
      ['quote_batch', { ...quote, style: 'retro' }, `style must be one of: ${SHOOT_STYLES.join(', ')}`],
      ['quote_batch', { ...quote, shots: 3 }, 'shots must be one of: 1, 4, 6'],
      ['quote_batch', { ...quote, quality: 'ultra' }, 'quality must be one of: standard, pro, 4k'],
      ['quote_batch', { ...quote, aspectRatio: '3:2' }, 'aspectRatio must be one of: 1:1, 4:5, 9:16, 16:9'],
      [
        'quote_batch',
        { ...quote, video: { duration: 5, resolution: '4k' } },
        'resolution must be one of: 480p, 720p, 1080p',
      ],
      ['make_videos', { batchId: 'b_none', duration: 7 }, 'duration must be one of: 5, 10, 15'],
      [
        'review_decide',
        { batchId: 'b_none', resultIds: [1], flag: 'maybe' },
        'flag must be one of: picked, rejected, or null to clear it',
      ],
      [
        'export_batch',
        { batchId: 'b_none', folder: '/tmp', rule: 'all' },
        'rule must be one of: picked, picked-or-stars, not-rejected',
      ],
      [
        'export_batch',
        { batchId: 'b_none', folder: '/tmp', acceptWarnings: ['blurry'] },
        `acceptWarnings must be one of: ${PREFLIGHT_WARNINGS.join(', ')}`,
      ],
      // An id longer than any the core makes: refused naming the tool's argument, not the channel's.
      ['batch_status', { batchId: 'b'.repeat(300) }, '<=200 characters at batchId'],
      ['list_results', { batchId: 'b'.repeat(300) }, '<=200 characters at batchId'],
      ['request_status', { requestId: 'r'.repeat(300) }, '<=100 characters at requestId'],
      // What only the core checks: its words, without its channel, naming the argument.
      ['quote_batch', { scanId: 's'.repeat(300), name: 'Long' }, 'scanId: Too big'],
    ];
    const domains = [...new Set(CHANNELS.map((channel) => channel.split(':')[0]!))];
    const channelName = new RegExp(`\\b(?:${domains.join('|')}):[a-zA-Z]+`);
    for (const [tool, args, words] of cases) {
      const error = await errorOf(tool, args);
      expect(error, tool).toContain(words);
      expect(error, tool).not.toMatch(channelName);
    }
  });
});
