import { execFileSync } from 'node:child_process';
import { cpSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';

export const ROOT = resolve(import.meta.dirname, '../..');

export interface LintDiagnostic {
  /** The file, relative to the copy's root, with forward slashes. */
  path: string;
  line: number;
  category: string;
  message: string;
}

/**
 * Lints files that exist only for a test, at the paths they name, under the project's own biome.json and
 * lint plugins: a copy of both in a temporary folder, so that the rules are proved where they apply without
 * a file written into the source tree.
 */
export async function lintInCopy(files: ReadonlyMap<string, string>): Promise<LintDiagnostic[]> {
  const dir = await mkdtemp(join(tmpdir(), 'adbatch-lint-'));
  try {
    cpSync(join(ROOT, 'biome.json'), join(dir, 'biome.json'));
    cpSync(join(ROOT, 'lint'), join(dir, 'lint'), { recursive: true });
    for (const [path, code] of files) {
      await mkdir(join(dir, dirname(path)), { recursive: true });
      await writeFile(join(dir, path), code.endsWith('\n') ? code : `${code}\n`);
    }
    let output: string;
    try {
      output = execFileSync(
        join(ROOT, 'node_modules', '.bin', 'biome'),
        ['lint', '--vcs-enabled=false', '--reporter=json', '--max-diagnostics=none', '.'],
        { cwd: dir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] },
      );
    } catch (error) {
      // Biome exits non-zero when it reports errors, as it must in most of these tests.
      output = (error as { stdout: string }).stdout;
    }
    const report = JSON.parse(output) as {
      diagnostics: Array<{
        category: string;
        message: string;
        location: { path: string; start: { line: number } };
      }>;
    };
    return report.diagnostics.map((diagnostic) => ({
      path: diagnostic.location.path.replaceAll('\\', '/'),
      line: diagnostic.location.start.line,
      category: diagnostic.category,
      message: diagnostic.message,
    }));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
