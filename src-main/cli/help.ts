import type { Option } from 'commander';

/**
 * An option's line in the help with its choices and default as users type them (`4`, `60/60s`,
 * `^(?<sku>.+)[_-]\d+$`), where commander would print them as JSON (`"4"`, a backslash doubled).
 */
export function optionDescription(option: Option): string {
  const extra: string[] = [];
  if (option.argChoices) extra.push(`one of: ${option.argChoices.join(', ')}`);
  // A flag's default (false) tells a user nothing; a value's default does.
  if (option.defaultValue !== undefined && (option.required || option.optional)) {
    extra.push(`default: ${option.defaultValueDescription ?? String(option.defaultValue)}`);
  }
  if (option.envVar) extra.push(`env: ${option.envVar}`);
  return extra.length > 0 ? `${option.description} (${extra.join('; ')})` : option.description;
}
