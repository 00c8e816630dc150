import { z } from 'zod';
import { CONTRACT } from '../shared/ipc.ts';
import {
  QUALITIES,
  REVIEW_FLAGS,
  REVIEW_LABELS,
  SHOOT_ASPECT_RATIOS,
  SHOOT_STYLES,
  SHOT_COUNTS,
  VIDEO_DURATIONS,
  VIDEO_RESOLUTIONS,
} from '../shared/vocabulary.ts';

// The MCP tools' arguments that are choices, each an enum of the one vocabulary (shared/vocabulary.ts), so
// that a client reads the allowed values in the schema rather than in a description's prose, and an agent
// that sends another value is answered in its own terms: the argument's name and what it may be ("style
// must be one of: classic, minimal, …"), not zod's nor the core's channel words.

/** A choice among strings, refused as "`argument` must be one of: …". */
export function choice<const Values extends readonly [string, ...string[]]>(
  argument: string,
  values: Values,
) {
  return z.enum(values, { error: oneOf(argument, values) });
}

/** A choice among numbers (shots, seconds), refused as "`argument` must be one of: …". */
export function numberChoice<const Values extends readonly [number, ...number[]]>(
  argument: string,
  values: Values,
) {
  return z.literal(values, { error: oneOf(argument, values) });
}

function oneOf(argument: string, values: readonly (string | number)[]): string {
  return `${argument} must be one of: ${values.join(', ')}`;
}

/**
 * `inner` or null, written as `anyOf: [inner, {type: "null"}]`. Zod folds a bare nullable into a `type`
 * array (`["string", "null"]`), legal JSON Schema that several MCP clients read as a single string and
 * reject, which the MCP Inspector's `--strict` run flags; a null branch that carries a description is not
 * bare, so zod keeps the portable `anyOf`.
 */
export function orNull<Inner extends z.ZodType>(inner: Inner, error?: string) {
  return z.union([inner, z.null().describe('None.')], error ? { error } : {});
}

/** What a shoot is made of, as quote_batch takes it; each the catalog default when absent. */
export const shootChoices = {
  style: choice('style', SHOOT_STYLES)
    .optional()
    .describe('The shoot style; the catalog default when absent.'),
  shots: numberChoice('shots', SHOT_COUNTS).optional().describe('Shots per product.'),
  quality: choice('quality', QUALITIES).optional(),
  aspectRatio: choice('aspectRatio', SHOOT_ASPECT_RATIOS).optional(),
};

/** What a video ad is made of, as quote_batch and make_videos take it. */
export const videoChoices = {
  duration: numberChoice('duration', VIDEO_DURATIONS).describe('Seconds.'),
  resolution: choice('resolution', VIDEO_RESOLUTIONS),
};

/** A designer's flag on results, as review_decide takes it: null clears it. */
export const flagChoice = orNull(
  choice('flag', REVIEW_FLAGS),
  `flag must be one of: ${REVIEW_FLAGS.join(', ')}, or null to clear it`,
);

/** A colour label on results, as review_decide takes it: null removes it. */
export const labelChoice = orNull(
  choice('label', REVIEW_LABELS),
  `label must be one of: ${REVIEW_LABELS.join(', ')}, or null to remove it`,
);

/** Which results an export takes: the export contract's rules, the one place they are named. */
const exportRule = CONTRACT['export:start'].input.shape.selection.unwrap().shape.rule.unwrap();
export const exportRuleChoice = z.enum(exportRule.enum, { error: oneOf('rule', exportRule.options) });

/**
 * The ids tools take, held to the core's own bounds (the channels' schemas), so that an id out of them is
 * refused by the tool's schema naming the tool's argument (`batchId`), not by the channel naming its own (`id`).
 */
export const batchIdArgument = CONTRACT['batches:get'].input.shape.id;
export const requestIdArgument = CONTRACT['agents:request'].input.shape.id;
