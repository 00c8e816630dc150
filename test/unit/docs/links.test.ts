import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join, posix, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

// Every relative link of the README and docs/*.md names a file a clone has: one git tracks, inside the
// repository (a clone has no ../shared beside it).

const ROOT = resolve(import.meta.dirname, '../../..');
const tracked = new Set(
  execFileSync('git', ['ls-files'], { cwd: ROOT, encoding: 'utf8' }).trim().split('\n'),
);
const documents = [...tracked]
  .filter((file) => file === 'README.md' || /^docs\/[^/]+\.md$/.test(file))
  .sort();

/**
 * Markdown links and images, `[text](target)` and `![alt](target)`, whose target is not an address, and paths
 * documents in code spans that climb out of the document's folder (`../x.md`): a reader follows those too.
 */
function relativeTargets(markdown: string): string[] {
  const links = [...markdown.matchAll(/!?\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)].map((match) => match[1]!);
  const climbing = [...markdown.matchAll(/`(\.\.\/[^`\s]+\.md)`/g)].map((match) => match[1]!);
  const targets = [...links, ...climbing];
  return targets.filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target) && !target.startsWith('#'));
}

/** The repository path a link from `document` points at ('' for the root), or null when it leaves the repo. */
function linkedPath(document: string, target: string): string | null {
  const path = decodeURIComponent(target.split('#')[0]!.split('?')[0]!);
  const inRepo = relative(ROOT, join(ROOT, dirname(document), path))
    .split('\\')
    .join('/');
  return inRepo.startsWith('../') || inRepo === '..' ? null : posix.normalize(inRepo);
}

function resolves(path: string): boolean {
  return tracked.has(path) || [...tracked].some((file) => file.startsWith(`${path.replace(/\/$/, '')}/`));
}

describe('links in the README and docs', () => {
  it('finds the documents and their links', () => {
    expect(documents).toContain('README.md');
    expect(documents).toContain('docs/design.md');
    expect(
      relativeTargets(
        '[a](docs/a.md#x) ![b](shots/b.png) [c](https://x.org) [d](#top) `../shared/D.md` `x.ts`',
      ),
    ).toEqual(['docs/a.md#x', 'shots/b.png', '../shared/D.md']);
    expect(linkedPath('README.md', '../shared/DESIGN.md')).toBeNull();
    expect(linkedPath('docs/app.md', 'screenshots/a.png#x')).toBe('docs/screenshots/a.png');
  });

  it.each(documents)('%s links only to files in the repository', (document) => {
    const broken = relativeTargets(readFileSync(join(ROOT, document), 'utf8')).filter((target) => {
      const path = linkedPath(document, target);
      return path === null || !resolves(path);
    });
    expect(broken).toEqual([]);
  });
});
