import type { Option } from 'commander';

/**
 * An option's line in the help with its choices and default as users type them (`4`, `60/60s`,
 * `^(?<sku>.+)[_-]\d+$`), where commander would print them as JSON (`"4"`, a backslash doubled).
 */
export function optionDescription(option: Option): string {
  const extra: string[] = [];
  if (option.mandatory || requiredByCommand.has(option)) extra.push('required');
  if (option.argChoices) extra.push(`one of: ${option.argChoices.join(', ')}`);
  // A flag's default (false) tells a user nothing; a value's default does.
  if (option.defaultValue !== undefined && (option.required || option.optional)) {
    extra.push(`default: ${option.defaultValueDescription ?? String(option.defaultValue)}`);
  }
  if (option.envVar) extra.push(`env: ${option.envVar}`);
  return extra.length > 0 ? `${option.description} (${extra.join('; ')})` : option.description;
}

const requiredByCommand = new WeakSet<Option>();

/**
 * An option the command checks itself (so that, missing, it is named with its choices in one line rather
 * than commander's flags-only refusal): marked required in the help all the same.
 */
export function checkedByCommand(option: Option): Option {
  requiredByCommand.add(option);
  return option;
}
