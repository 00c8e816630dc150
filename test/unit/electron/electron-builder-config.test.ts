import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import type { Configuration } from 'electron-builder';
import { beforeAll, describe, expect, it } from 'vitest';
import config from '../../../electron-builder.config.ts';

// The packaging configuration, judged by electron-builder's own code: its loader and schema, its file
// matchers (the very filters its asar packer and copier apply), and its fuse translation flipping a fuse wire
// with @electron/fuses. Only the Electron binary is missing here: the fuse wire is laid in a stand-in file the
// way Electron's binary carries it. Modules are loaded from where electron-builder itself loads them.

const ROOT = resolve(import.meta.dirname, '../../..');
const fromBuilder = createRequire(createRequire(join(ROOT, 'package.json')).resolve('electron-builder'));
const fromLib = createRequire(fromBuilder.resolve('app-builder-lib'));

type Filter = (file: string, stat: { isDirectory(): boolean }) => boolean;
interface Matcher {
  createFilter(): Filter;
  from: string;
  to: string;
}
const { getConfig, validateConfiguration } = fromBuilder('app-builder-lib/out/util/config/config.js') as {
  getConfig(projectDir: string, configPath: string, fromOptions: null): Promise<Configuration>;
  validateConfiguration(config: Configuration, debugLogger: { isEnabled: boolean }): Promise<void>;
};
const { getFileMatchers, getMainFileMatchers, getNodeModuleFileMatcher } = fromBuilder(
  'app-builder-lib/out/fileMatcher.js',
) as {
  getFileMatchers(
    config: Configuration,
    name: string,
    destination: string,
    options: object,
  ): Matcher[] | null;
  getMainFileMatchers(...args: unknown[]): Matcher[];
  getNodeModuleFileMatcher(...args: unknown[]): Matcher;
};
const { PlatformPackager } = fromBuilder('app-builder-lib') as {
  PlatformPackager: { prototype: { generateFuseConfig(fuses: unknown): Promise<Record<string, unknown>> } };
};
const fuses = fromLib('@electron/fuses') as {
  FuseV1Options: Record<string, number | string>;
  flipFuses(path: string, config: Record<string, unknown>): Promise<number>;
  getCurrentFuseWire(path: string): Promise<Record<string, unknown>>;
};

const DESTINATION = '/packaged/resources/app';
const expand = (pattern: string) => pattern;
const file = { isDirectory: () => false };
const matcherOptions = { macroExpander: expand, customBuildOptions: {}, globalOutDir: join(ROOT, 'dist') };

// The configuration as electron-builder loads it from the file (it normalises `files` into file sets).
let loaded: Configuration;
const packagerInfo = () => ({
  projectDir: ROOT,
  buildResourcesDir: 'build',
  config: loaded,
  isPrepackedAppAsar: false,
  debugLogger: { isEnabled: false, add() {} },
});

beforeAll(async () => {
  loaded = await getConfig(ROOT, join(ROOT, 'electron-builder.config.ts'), null);
});

/** Every package a production install holds: dependencies and optional ones, transitively. */
function productionPackages(): string[] {
  const seen = new Set<string>();
  const visit = (name: string) => {
    if (seen.has(name) || !existsSync(join(ROOT, 'node_modules', name, 'package.json'))) return;
    seen.add(name);
    const manifest = JSON.parse(readFileSync(join(ROOT, 'node_modules', name, 'package.json'), 'utf8'));
    for (const dep of Object.keys({ ...manifest.dependencies, ...manifest.optionalDependencies })) visit(dep);
  };
  for (const dep of Object.keys(JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).dependencies))
    visit(dep);
  return [...seen];
}

describe('electron-builder.config.ts', () => {
  it('is what electron-builder loads, and passes its schema', async () => {
    expect(loaded).toMatchObject({
      appId: config.appId,
      asar: true,
      asarUnpack: config.asarUnpack,
      electronFuses: config.electronFuses,
      npmRebuild: false,
    });
    await expect(validateConfiguration(loaded, { isEnabled: false })).resolves.toBeUndefined();
  });

  it('unpacks from the asar every native binary a production dependency ships, and nothing else', () => {
    const unpacked = getFileMatchers(loaded, 'asarUnpack', DESTINATION, {
      ...matcherOptions,
      defaultSrc: ROOT,
    })!;
    const filter = unpacked[0]!.createFilter();
    const natives = productionPackages().flatMap((name) =>
      readdirSync(join(ROOT, 'node_modules', name), { recursive: true, encoding: 'utf8' })
        .filter((path) => /\.(node|dylib|dll)$|\.so(\.\d+)*$/.test(path))
        .map((path) => join(ROOT, 'node_modules', name, path)),
    );
    const names = natives.map((path) => relative(ROOT, path));
    // What this machine installed: better-sqlite3's prebuilds, sharp's addon for this platform and (but on
    // Windows, where it sits beside the addon) libvips' shared library in its own package.
    const platform = `${process.platform}-${process.arch}`;
    expect(names).toContain(join('node_modules', 'better-sqlite3', 'prebuilds', `${platform}.node`));
    expect(names.some((name) => name.includes(`sharp-${platform}`) && name.endsWith('.node'))).toBe(true);
    if (process.platform !== 'win32')
      expect(
        names.some((name) => name.includes(`sharp-libvips-${platform}`)),
        names.join(),
      ).toBe(true);
    for (const path of natives) expect(filter(path, file), relative(ROOT, path)).toBe(true);
    // The bundled ffmpeg and ffprobe are started as processes: they too must be outside the archive.
    for (const tool of ['ffmpeg', 'ffprobe']) {
      const binary = join(ROOT, 'node_modules', `@${tool}-installer`, platform, tool);
      expect(existsSync(binary), binary).toBe(true);
      expect(filter(binary, file), binary).toBe(true);
    }
    for (const path of ['node_modules/zod/package.json', 'node_modules/undici/index.js', 'out/main/index.js'])
      expect(filter(join(ROOT, path), file), path).toBe(false);
  });

  it('packs the built app and package.json only: no sources, tests, docs or harness build', () => {
    const [main] = getMainFileMatchers(
      ROOT,
      DESTINATION,
      expand,
      {},
      { info: packagerInfo() },
      join(ROOT, 'dist'),
      false,
    );
    const filter = main!.createFilter();
    const tracked = execFileSync('git', ['ls-files'], { cwd: ROOT, encoding: 'utf8' }).trim().split('\n');
    const built = [
      'out/main/index.js',
      'out/main/export-worker.js',
      'out/main/chunks/place-file-abc.js',
      'out/preload/index.cjs',
      'out/renderer/index.html',
      'out/renderer/assets/index-abc.js',
      'out/harness/index.html',
      'out/harness/assets/index-abc.js',
    ];
    const packed = [...tracked, ...built].filter((path) => filter(join(ROOT, path), file));
    expect(packed.sort()).toEqual(
      [
        'package.json',
        'out/main/index.js',
        'out/main/export-worker.js',
        'out/main/chunks/place-file-abc.js',
        'out/preload/index.cjs',
        'out/renderer/index.html',
        'out/renderer/assets/index-abc.js',
      ].sort(),
    );
  });

  it("packs better-sqlite3's library and prebuilds, not its sources", () => {
    const filter = getNodeModuleFileMatcher(ROOT, DESTINATION, expand, {}, packagerInfo()).createFilter();
    const at = (path: string) => filter(join(ROOT, 'node_modules', 'better-sqlite3', path), file);
    expect(at('lib/database.js')).toBe(true);
    expect(at('prebuilds/linux-x64.node')).toBe(true);
    expect(at('package.json')).toBe(true);
    expect(at('deps/sqlite3/sqlite3.c')).toBe(false);
    expect(at('src/better_sqlite3.cpp')).toBe(false);
  });

  it('puts the sandbox assets where the packaged app looks for them (resources/sandbox)', () => {
    const [resources] = getFileMatchers(loaded, 'extraResources', '/packaged/resources', {
      ...matcherOptions,
      defaultSrc: ROOT,
    })!;
    expect(resources).toMatchObject({
      from: join(ROOT, 'resources', 'sandbox'),
      to: '/packaged/resources/sandbox',
    });
    expect(existsSync(join(resources!.from, 'fallback.mp4'))).toBe(true);
  });

  it('flips every fuse of the wire as decided: no run-as-node, NODE_OPTIONS or inspector; asar only, checked', async () => {
    const wire = await PlatformPackager.prototype.generateFuseConfig.call(null, loaded.electronFuses);
    const names = Object.keys(fuses.FuseV1Options).filter((key) => Number.isNaN(Number(key)));
    // Electron's own defaults in its binary, as its fuse wire ships them ('1' on, '0' off).
    const shipped = '10110001';
    expect(names).toHaveLength(shipped.length);
    const dir = await mkdtemp(join(tmpdir(), 'adbatch-fuses-'));
    try {
      const binary = join(dir, 'Adbatch');
      await writeFile(
        binary,
        Buffer.concat([
          randomBytes(4096),
          Buffer.from('dL7pKGdnNz796PbbjQWNKmHXBZaB9tsX'),
          Buffer.from([1, shipped.length]),
          Buffer.from(shipped),
          randomBytes(4096),
        ]),
      );
      await fuses.flipFuses(binary, wire);
      const flipped = await fuses.getCurrentFuseWire(binary);
      const state = Object.fromEntries(
        names.map((name) => [name, String.fromCharCode(flipped[fuses.FuseV1Options[name]!] as number)]),
      );
      expect(state).toEqual({
        RunAsNode: '0',
        EnableCookieEncryption: '1',
        EnableNodeOptionsEnvironmentVariable: '0',
        EnableNodeCliInspectArguments: '0',
        EnableEmbeddedAsarIntegrityValidation: '1',
        OnlyLoadAppFromAsar: '1',
        LoadBrowserProcessSpecificV8Snapshot: '0',
        GrantFileProtocolExtraPrivileges: '0',
      });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
