// File and folder templates: `{product}-{n:03}.{ext}`. A token names one value of the file being exported;
// `{n:03}` pads a number with zeros to 3 digits. An unknown token, or a width on a token that is not a
// number, is an error that names it and lists the tokens there are, so a typo never becomes a file name.

export const TEXT_TOKENS = [
  'brand',
  'product',
  'sku',
  'handle',
  'title',
  'style',
  'recipe',
  'date',
  'batch',
  'ext',
] as const;
export const NUMBER_TOKENS = ['shot', 'n', 'stars', 'w', 'h'] as const;
export type TextToken = (typeof TEXT_TOKENS)[number];
export type NumberToken = (typeof NUMBER_TOKENS)[number];
export const TOKENS: readonly string[] = [...TEXT_TOKENS, ...NUMBER_TOKENS];

export type NameValues = Record<TextToken, string> & Record<NumberToken, number>;

export class TemplateError extends Error {
  override name = 'TemplateError';
}

type Part = { literal: string } | { token: TextToken | NumberToken; width: number };

const TOKEN_PATTERN = /\{([^{}]*)\}/g;

/** The template's parts, or a TemplateError saying what is wrong and where. */
export function parseTemplate(template: string): Part[] {
  const parts: Part[] = [];
  let last = 0;
  for (const match of template.matchAll(TOKEN_PATTERN)) {
    if (match.index > last) parts.push({ literal: template.slice(last, match.index) });
    parts.push(parseToken(match[1]!, template));
    last = match.index + match[0].length;
  }
  if (last < template.length) parts.push({ literal: template.slice(last) });
  for (const part of parts) {
    if ('literal' in part && /[{}]/.test(part.literal)) {
      throw new TemplateError(`The template "${template}" has a brace that opens or closes no token.`);
    }
  }
  return parts;
}

function parseToken(body: string, template: string): Part {
  const [name = '', width, ...rest] = body.split(':');
  const known = `the tokens are ${TOKENS.map((token) => `{${token}}`).join(' ')}`;
  if (!TOKENS.includes(name)) {
    throw new TemplateError(`The template "${template}" has an unknown token {${body}}: ${known}.`);
  }
  if (width === undefined) return { token: name as TextToken | NumberToken, width: 0 };
  if (rest.length > 0 || !/^0[1-9]\d?$/.test(width)) {
    throw new TemplateError(
      `The template "${template}" has {${body}}: a number is padded as {${name}:03} (a zero, then the width).`,
    );
  }
  if (!(NUMBER_TOKENS as readonly string[]).includes(name)) {
    throw new TemplateError(
      `The template "${template}" pads {${name}}, which is not a number: only ${NUMBER_TOKENS.map((token) => `{${token}}`).join(' ')} can be padded.`,
    );
  }
  return { token: name as NumberToken, width: Number(width.slice(1)) };
}

/** Whether the template names this token. */
export function usesToken(template: string, token: TextToken | NumberToken): boolean {
  return parseTemplate(template).some((part) => 'token' in part && part.token === token);
}

/**
 * The template with its tokens replaced. A value never adds a folder: a `/` or `\` in a product's name
 * becomes `_`, as other characters no file system takes do later (safe-names.ts).
 */
export function renderTemplate(template: string, values: NameValues): string {
  return parseTemplate(template)
    .map((part) => {
      if ('literal' in part) return part.literal;
      const value = values[part.token];
      const text = typeof value === 'number' ? String(value).padStart(part.width, '0') : value;
      return text.replace(/[/\\]/g, '_');
    })
    .join('');
}

/** A file name from its template: `.{ext}` is added when the template does not place the extension. */
export function renderFileName(template: string, values: NameValues): string {
  if (/[/\\]/.test(template)) {
    throw new TemplateError(
      `The file-name template "${template}" has a folder separator: folders belong in the folder template.`,
    );
  }
  const name = renderTemplate(template, values);
  return usesToken(template, 'ext') ? name : `${name}.${values.ext}`;
}

/** The folders from the folder template, `/` between them (a `\` is taken as `/`); empty ones dropped. */
export function renderFolders(template: string, values: NameValues): string[] {
  return template
    .split(/[/\\]/)
    .map((segment) => renderTemplate(segment, values))
    .filter((segment) => segment.trim() !== '');
}
