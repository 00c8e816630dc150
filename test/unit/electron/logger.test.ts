import { describe, expect, it } from 'vitest';
import { redactedLogger } from '../../../src-main/electron/logger.ts';

describe('redactedLogger', () => {
  it('never lets an API key reach the log in full, in messages or error stacks', () => {
    const lines: string[] = [];
    const sink = {
      info: (l: unknown) => lines.push(String(l)),
      warn: (l: unknown) => lines.push(String(l)),
      error: (l: unknown) => lines.push(String(l)),
    };
    const key = `adsk_${'ab12'.repeat(16)}`;
    const logger = redactedLogger(sink);
    logger.info(`using ${key}`);
    logger.error('request failed', new Error(`401 for key ${key}`));
    expect(lines.join('\n')).not.toContain(key);
    expect(lines[0]).toBe('using …ab12');
    expect(lines[1]).toMatch(/^request failed: Error: 401 for key …ab12/);
  });
});
