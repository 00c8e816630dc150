import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { adbatch } from '../../support/cli.ts';
import { adbatchInProcess } from '../../support/cli-in-process.ts';

// Defaults and choices in the help read as users type them: a rate limit is `60/60s`, never the object it
// parses to, a number is 4, never "4"; a mistake is answered in a line or two, not with the whole help.
// The program is parsed in this process (what commander answers needs no child); one test runs the real
// command to show that it prints the same.

describe('adbatch --help', () => {
  it.each(['run', 'resume', 'sandbox'])('%s shows the rate limit default as typed', async (command) => {
    const help = await adbatchInProcess([command, '--help']);
    expect(help.code).toBe(0);
    // Commander wraps long lines: compare the words, not the layout.
    const words = help.stdout.replace(/\s+/g, ' ');
    expect(words).toMatch(/--rate-limit <N\/Ws> [^-]*\(default: 60\/60s\)/);
    expect(help.stdout).not.toContain('{"limit"');
  });

  it('lists every exit status, "needs you" (9) among them', async () => {
    const help = await adbatchInProcess(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Exit status (run, resume, recheck, redownload, reshoot, videos):');
    expect(help.stdout).toContain(
      '  9    needs you: credits in doubt; adbatch recheck <batch> checks all again, free',
    );
    expect(help.stdout).toContain('  130  interrupted (Ctrl+C): resume continues');
  });

  it('run marks --style as required and prints choices and defaults bare, as users type them', async () => {
    const help = await adbatchInProcess(['run', '--help']);
    expect(help.code).toBe(0);
    const words = help.stdout.replace(/\s+/g, ' ');
    expect(words).toContain(
      '--style <style> shoot style (required; one of: classic, minimal, luxury, loud_luxury, magazine, editorial, avant_garde, element, influencer, lifestyle)',
    );
    expect(words).toContain('--shots <n> shots per product (one of: 1, 4, 6; default: 4)');
    expect(words).toContain('--quality <q> image quality (one of: standard, pro, 4k; default: standard)');
    expect(words).toContain('(default: ^(?<sku>.+)[_-]\\d+$)');
    expect(help.stdout).not.toMatch(/"/);
  });

  it('run prints every default one way, beside its environment variable, from the value the command uses', async () => {
    const help = await adbatchInProcess(['run', '--help']);
    expect(help.code).toBe(0);
    const words = help.stdout.replace(/\s+/g, ' ');
    expect(words).toContain('--s3-prefix <prefix> key prefix (default: adbatch/; env: ADBATCH_S3_PREFIX)');
    expect(words).toContain(
      '--s3-url-ttl <seconds> how long presigned URLs stay valid (default: 86400; env: ADBATCH_S3_URL_TTL)',
    );
    expect(words).toMatch(/--time-scale <factor> [^-]*\(default: 0\.1\)/);
    expect(words).not.toMatch(/\(default [^:]/);
  });

  it('marks an option commander requires as required too (reshoot --style)', async () => {
    const help = await adbatchInProcess(['reshoot', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout.replace(/\s+/g, ' ')).toContain(
      '--style <style> shoot style (required; one of: classic,',
    );
  });

  it('run without --style says in one line what is missing and names the styles, not the whole help', async () => {
    const result = await adbatchInProcess(['run', 'photos', '--sandbox']);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(
      'adbatch: say which --style to shoot in: one of classic, minimal, luxury, loud_luxury, magazine, editorial, avant_garde, element, influencer, lifestyle\n',
    );
  });

  it('answers a mistyped option in three lines, not with the whole help', async () => {
    const result = await adbatchInProcess(['run', 'photos', '--styl', 'classic']);
    expect(result.code).toBe(1);
    expect(result.stderr.trimEnd().split('\n')).toEqual([
      "error: unknown option '--styl'",
      '(Did you mean --style?)',
      "(add --help for the command's options)",
    ]);
  });

  it('--version prints the version package.json gives', async () => {
    const { version } = JSON.parse(await readFile(resolve(__dirname, '../../../package.json'), 'utf8'));
    const result = await adbatchInProcess(['--version']);
    expect(result.code).toBe(0);
    expect(result.stdout.trim()).toBe(version);
  });

  it('is what the real command prints, and exits with', async () => {
    const spawned = await adbatch(['run', '--help']);
    expect(spawned.code).toBe(0);
    expect(spawned.stderr).toBe('');
    expect(spawned.stdout).toBe((await adbatchInProcess(['run', '--help'])).stdout);
    expect(spawned.stdout).toMatch(/^Usage: adbatch run \[options\] <input\.\.\.>/);
  });
});
