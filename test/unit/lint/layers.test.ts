import { beforeAll, describe, expect, it } from 'vitest';
import { type LintDiagnostic, lintInCopy } from '../../support/lint-copy.ts';

// The layer map of docs/architecture.md, proved rule by rule: for each layer, an import that would run back
// up is refused with the layer's own reason, and the import the layer is meant to make passes. The files
// exist only in a temporary copy linted with the project's biome.json (test/support/lint-copy.ts).
//
//   shared  <  core/{util,db,api}  <  core/app's context (context, errors, events, files, handler map)
//           <  domains (core/accounts, agents, downloads, export, hosting, ingest, ledger, queue, review,
//              scheduler, settings)  <  create-core.ts, core/app's dispatch and public API  <  front ends

interface Case {
  /** Where the importing file is. */
  path: string;
  /** What it imports. */
  from: string;
  /** A few words of the refusal expected, or null: the import is allowed. */
  refused: string | null;
}

const CASES: Case[] = [
  // Electron loads in the shell only.
  { path: 'src-main/core/queue/a.ts', from: 'electron', refused: "Electron's modules load only" },
  { path: 'src-main/sandbox/a.ts', from: 'electron', refused: "Electron's modules load only" },
  { path: 'src-main/shared/a.ts', from: 'electron', refused: "Electron's modules load only" },
  { path: 'src-main/electron/a.ts', from: 'electron', refused: null },
  // core never imports the sandbox.
  {
    path: 'src-main/core/scheduler/a.ts',
    from: '../../sandbox/http.ts',
    refused: 'core never imports the sandbox',
  },
  // shared imports nothing of core, the sandbox or a front end.
  { path: 'src-main/shared/a.ts', from: '../core/catalog.ts', refused: 'shared/ is the contract beneath' },
  { path: 'src-main/shared/a.ts', from: '../sandbox/http.ts', refused: 'shared/ is the contract beneath' },
  { path: 'src-main/shared/a.ts', from: '../cli/main.ts', refused: 'shared/ is the contract beneath' },
  { path: 'src-main/shared/a.ts', from: './models.ts', refused: null },
  // core/util, core/db and core/api lie beneath the domains and the map.
  {
    path: 'src-main/core/db/a.ts',
    from: '../queue/store.ts',
    refused: 'core/util, core/db and core/api lie beneath',
  },
  {
    path: 'src-main/core/api/a.ts',
    from: '../accounts/account-store.ts',
    refused: 'lie beneath the domains',
  },
  {
    path: 'src-main/core/util/a.ts',
    from: '../app/errors.ts',
    refused: 'core/util, core/db and core/api lie beneath',
  },
  {
    path: 'src-main/core/util/a.ts',
    from: '../create-core.ts',
    refused: 'core/util, core/db and core/api lie beneath',
  },
  { path: 'src-main/core/db/a.ts', from: '../util/local-fault.ts', refused: null },
  // core/app's context names no domain.
  {
    path: 'src-main/core/app/context.ts',
    from: '../accounts/account-store.ts',
    refused: "core/app's context",
  },
  { path: 'src-main/core/app/events.ts', from: '../queue/store.ts', refused: "core/app's context" },
  { path: 'src-main/core/app/context.ts', from: './events.ts', refused: null },
  // A domain takes its services as parameters; it never imports the root, the dispatcher or the public API.
  { path: 'src-main/core/ledger/a.ts', from: '../create-core.ts', refused: 'A domain lies beneath' },
  { path: 'src-main/core/agents/a.ts', from: '../app/dispatch.ts', refused: 'A domain lies beneath' },
  { path: 'src-main/core/export/a.ts', from: '../app/public-api.ts', refused: 'A domain lies beneath' },
  { path: 'src-main/core/review/a.ts', from: '../app/context.ts', refused: null },
  { path: 'src-main/core/agents/a.ts', from: '../queue/batch-maker.ts', refused: null },
  // Front ends reach core through the composition root and core/app only.
  { path: 'src-main/cli/a.ts', from: '../core/queue/store.ts', refused: 'Front ends reach core through' },
  { path: 'src-main/mcp/a.ts', from: '../core/ledger/usage.ts', refused: 'Front ends reach core through' },
  { path: 'src-main/web/a.ts', from: '../core/ingest/scan.ts', refused: 'Front ends reach core through' },
  { path: 'src-main/web/a.ts', from: 'electron', refused: "Electron's modules load only" },
  {
    path: 'src-main/electron/a.ts',
    from: '../core/accounts/secrets.ts',
    refused: 'Front ends reach core through',
  },
  {
    path: 'test/harness/a.ts',
    from: '../../src-main/core/export/handlers.ts',
    refused: 'Front ends reach core',
  },
  { path: 'src-main/cli/a.ts', from: '../core/app/public-api.ts', refused: null },
  { path: 'src-main/mcp/a.ts', from: '../core/create-core.ts', refused: null },
  { path: 'src-main/web/a.ts', from: '../core/app/library-choice.ts', refused: null },
  // The renderer and the preload reach main through the contract in shared, only.
  { path: 'src-renderer/src/a.ts', from: '../../src-main/core/pricing.ts', refused: 'through the contract' },
  { path: 'src-preload/a.ts', from: '../src-main/core/app/dispatch.ts', refused: 'through the contract' },
  { path: 'src-renderer/src/a.ts', from: '../../src-main/shared/ipc.ts', refused: null },
];

/** Each case in a file of its own (a.ts, b.ts… in its folder), so a diagnostic names its case. */
function filesOf(cases: Case[]): Map<string, Case> {
  const files = new Map<string, Case>();
  for (const item of cases) {
    const folder = item.path.slice(0, item.path.lastIndexOf('/'));
    const name = item.path.slice(item.path.lastIndexOf('/') + 1);
    let path = item.path;
    for (let n = 0; files.has(path); n++) path = `${folder}/${name.replace(/\.ts$/, '')}-${n}.ts`;
    files.set(path, item);
  }
  return files;
}

describe('the layer map', () => {
  const files = filesOf(CASES);
  let diagnostics: LintDiagnostic[];

  beforeAll(async () => {
    diagnostics = await lintInCopy(
      new Map(
        [...files].map(([path, item]) => [path, `import * as m from '${item.from}';\nexport const n = m;`]),
      ),
    );
  });

  it.each([...files].map(([path, item]) => ({ ...item, file: path, name: `${item.path} ← ${item.from}` })))(
    '$name',
    ({ file, refused }) => {
      const found = diagnostics.filter(
        (diagnostic) => diagnostic.path === file && diagnostic.category === 'lint/style/noRestrictedImports',
      );
      if (refused === null) expect(found).toEqual([]);
      else expect(found.map((diagnostic) => diagnostic.message)).toEqual([expect.stringContaining(refused)]);
    },
  );
});
