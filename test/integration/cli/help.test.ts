import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { adbatch } from '../../support/cli.ts';

// Defaults in the help read as users type them: a rate limit is `60/60s`, never the object it parses to.

describe('adbatch --help', () => {
  it.each(['run', 'resume', 'sandbox'])('%s shows the rate limit default as typed', async (command) => {
    const help = await adbatch([command, '--help']);
    expect(help.code).toBe(0);
    // Commander wraps long lines: compare the words, not the layout.
    const words = help.stdout.replace(/\s+/g, ' ');
    expect(words).toMatch(/--rate-limit <N\/Ws> [^-]*\(default: 60\/60s\)/);
    expect(help.stdout).not.toContain('{"limit"');
  });

  it('--version prints the version package.json gives', async () => {
    const { version } = JSON.parse(await readFile(resolve(__dirname, '../../../package.json'), 'utf8'));
    const result = await adbatch(['--version']);
    expect(result.code).toBe(0);
    expect(result.stdout.trim()).toBe(version);
  });
});
