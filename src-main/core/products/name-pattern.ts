import { runInNewContext } from 'node:vm';
import type { ProductIdentity } from '../../shared/models.ts';
import { IDENTITY_FIELDS } from '../../shared/vocabulary.ts';

// A product's identity read from its name (its folder's, or the SKU its files were split by) by a pattern
// the designer gives: a template of fields such as `{sku}_{title}` or `{brand} - {title}`, or a regular
// expression whose named groups are fields (`^(?<sku>[A-Z]{2}\d+)\s+(?<title>.+)$`). A template's fields
// take as little as they can but the last, which takes the rest; it matches the whole name.
//
// Guess, named (docs/products.md): without a pattern nothing is read from a name but what ingest already
// knew (a folder's name is its product's title, the SKU a folder's files were split by is its SKU).

export class NamePatternError extends Error {
  override name = 'NamePatternError';
}

const FIELD_TOKEN = /\{([^{}]*)\}/g;

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function fieldsList(): string {
  return IDENTITY_FIELDS.map((field) => `{${field}}`).join(' ');
}

function fromTemplate(template: string): RegExp {
  const tokens = [...template.matchAll(FIELD_TOKEN)];
  let source = '^';
  let last = 0;
  const seen = new Set<string>();
  tokens.forEach((match, index) => {
    const field = match[1]!.trim();
    if (!(IDENTITY_FIELDS as readonly string[]).includes(field)) {
      throw new NamePatternError(
        `The pattern "${template}" has an unknown field {${match[1]}}: the fields are ${fieldsList()}.`,
      );
    }
    if (seen.has(field)) throw new NamePatternError(`The pattern "${template}" names {${field}} twice.`);
    seen.add(field);
    source += escapeRegExp(template.slice(last, match.index));
    source += `(?<${field}>.${index === tokens.length - 1 ? '+' : '+?'})`;
    last = match.index + match[0].length;
  });
  const rest = template.slice(last);
  if (/[{}]/.test(rest) || /[{}]/.test(template.replace(FIELD_TOKEN, ''))) {
    throw new NamePatternError(`The pattern "${template}" has a brace that opens or closes no field.`);
  }
  return new RegExp(`${source}${escapeRegExp(rest)}$`, 'u');
}

function fromRegExp(text: string): RegExp {
  let pattern: RegExp;
  try {
    pattern = new RegExp(text, 'u');
  } catch (error) {
    throw new NamePatternError(
      `The pattern "${text}" is not a valid regular expression: ${(error as Error).message}`,
    );
  }
  const groups = [...text.matchAll(/\(\?<([^>=!]+)>/g)].map((match) => match[1]!);
  const unknown = groups.filter((group) => !(IDENTITY_FIELDS as readonly string[]).includes(group));
  if (groups.length === 0 || unknown.length > 0) {
    throw new NamePatternError(
      `The pattern "${text}" must name its groups after fields (${IDENTITY_FIELDS.map((field) => `(?<${field}>…)`).join(' ')})${unknown.length > 0 ? `, not ${unknown.map((group) => `(?<${group}>…)`).join(' ')}` : ''}.`,
    );
  }
  return pattern;
}

/** The pattern as a regular expression whose named groups are fields, or a NamePatternError in words. */
export function parseNamePattern(text: string): RegExp {
  const trimmed = text.trim();
  if (trimmed === '') throw new NamePatternError('The pattern is empty: give one such as {sku}_{title}.');
  return /\{[a-z]+\}/.test(trimmed) ? fromTemplate(trimmed) : fromRegExp(trimmed);
}

/**
 * GUESS: the most time the names of a batch may take to match, all together. A pattern matches thousands
 * of names in milliseconds; one with a repeat inside a repeat (`(a+)+`) can backtrack for ever on a long
 * name, and it runs in the core's process (the app's main process, its engine's too).
 */
const MATCH_LIMIT_MS = 2_000;

/**
 * The fields the pattern reads from each name (trimmed, non-empty ones; null where it does not match),
 * within MATCH_LIMIT_MS for them all: a pattern that takes longer is a NamePatternError (`typed` is the
 * pattern as the designer gave it). The matching runs in a `vm` script with a timeout, which stops even a
 * regular expression mid-backtrack.
 */
export function identitiesFromNames(
  names: readonly string[],
  pattern: RegExp,
  typed: string,
  limitMs = MATCH_LIMIT_MS,
): Array<Partial<ProductIdentity> | null> {
  let matches: Array<RegExpExecArray | null>;
  try {
    matches = runInNewContext(
      'names.map((name) => pattern.exec(name))',
      { names, pattern },
      { timeout: limitMs },
    );
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ERR_SCRIPT_EXECUTION_TIMEOUT') throw error;
    throw new NamePatternError(
      `The pattern "${typed}" takes too long on these names (over ${limitMs / 1000} s): a repeat inside a repeat, such as (a+)+, can make a pattern run for ever. Write it without one, or use a template such as {sku}_{title}.`,
    );
  }
  return matches.map(fieldsOf);
}

function fieldsOf(match: RegExpExecArray | null): Partial<ProductIdentity> | null {
  if (!match?.groups) return null;
  const found: Partial<ProductIdentity> = {};
  for (const field of IDENTITY_FIELDS) {
    const value = match.groups[field]?.trim();
    if (value) found[field] = value;
  }
  return found;
}
