import { ALLOWED_HOST, ALLOWED_HOST_RULE } from '../../../../src-main/shared/allowed-host.ts';

// What Settings' general fields hold, read from what was typed: the value to save, or why it cannot be saved,
// in words, before anything is sent (the contract would refuse it too, in a developer's terms).

export type Typed<T> = { value: T } | { error: string };

/** The most of a key's requests Adbatch may leave to other apps: the contract's bound. */
export const MARGIN_MAX = 50;

export function libraryDirOf(text: string): Typed<string> {
  const folder = text.trim();
  return folder ? { value: folder } : { error: 'Not saved: results need a folder to go in.' };
}

export function marginOf(text: string): Typed<number> {
  const value = Number(text.trim());
  if (text.trim() !== '' && Number.isInteger(value) && value >= 0 && value <= MARGIN_MAX) return { value };
  return { error: `Not saved: a whole number from 0 to ${MARGIN_MAX}.` };
}

export function allowedHostsOf(text: string): Typed<string[]> {
  const hosts = text
    .split('\n')
    .map((host) => host.trim())
    .filter(Boolean);
  const wrong = hosts.find((host) => !ALLOWED_HOST.test(host));
  return wrong === undefined
    ? { value: hosts }
    : { error: `Not saved: “${wrong}” is not ${ALLOWED_HOST_RULE}.` };
}
