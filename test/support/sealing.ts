import { expect } from 'vitest';
import type { SecretBox } from '../../src-main/core/accounts/secrets.ts';

// What a proof of sealing checks: not that a box gives back what it was given (a box that reverses the bytes
// does that too), but that what was stored is not the secret in any form anyone could undo.

/** The secret as bytes, and in the forms anyone can undo without a key: reversed, base64, hex. */
function plainForms(secret: string): Array<{ form: string; bytes: Buffer }> {
  const bytes = Buffer.from(secret, 'utf8');
  return [
    { form: 'as it is', bytes },
    { form: 'reversed', bytes: Buffer.from(bytes).reverse() },
    { form: 'base64', bytes: Buffer.from(bytes.toString('base64')) },
    { form: 'hex', bytes: Buffer.from(bytes.toString('hex')) },
  ];
}

/** Stored bytes (a database file, a log) hold the secret in no form anyone could read back. */
export function expectNoPlainSecret(stored: Buffer, secret: string): void {
  for (const { form, bytes } of plainForms(secret))
    expect(stored.includes(bytes), `the secret ${form} is in what was stored`).toBe(false);
}

/**
 * A sealed secret as stored: not the secret in any plain form, and yet the secret once the box that sealed
 * it opens it (so the row holds this secret sealed, not something else).
 */
export function expectSealed(stored: Buffer, secret: string, box: SecretBox): void {
  expect(stored.equals(Buffer.from(secret, 'utf8'))).toBe(false);
  expectNoPlainSecret(stored, secret);
  expect(box.open(stored)).toBe(secret);
}
