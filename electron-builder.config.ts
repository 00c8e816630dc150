import type { Configuration } from 'electron-builder';

// How the app is packaged (`npm run dist`, after `npm run build`). A typed TypeScript module rather than
// electron-builder.yml: tsc checks every key against electron-builder's own types, and the test of this
// configuration (test/unit/electron/electron-builder-config.test.ts) loads it through electron-builder's
// own loader and file matchers. Packaging itself needs the Electron binary, so it runs on release machines,
// not in CI here.

const NATIVE_MODULES = [
  // better-sqlite3 loads its prebuilt .node from prebuilds/; Electron reads it through the asar path.
  '**/node_modules/better-sqlite3/**',
  // sharp's .node links libvips' shared libraries by relative path at load time: the dynamic linker cannot
  // read inside an asar, so sharp and every @img package go out whole (smart unpack has missed the
  // libraries: electron-builder #6880, sharp #3985).
  '**/node_modules/sharp/**',
  '**/node_modules/@img/**',
  // The ffmpeg and ffprobe that make videos for the channels (core/export/video-tools.ts) are started as
  // processes, which cannot run from inside an archive: their platform packages go out whole.
  '**/node_modules/@ffmpeg-installer/**',
  '**/node_modules/@ffprobe-installer/**',
];

const config: Configuration = {
  // A guess until the publisher's reverse-DNS name is settled; it keys the macOS keychain entry, the Windows
  // AppUserModelID (notifications) and the user data folder's name on some systems, so set it once.
  appId: 'com.adbatch.app',
  productName: 'Adbatch',
  directories: { output: 'dist', buildResources: 'build' },
  // Only the built app: main, preload and the renderer (not the browser harness's build in out/harness),
  // plus package.json, which electron-builder always adds. Sources, tests, docs and benches stay out.
  files: [
    'out/main/**',
    'out/preload/**',
    'out/renderer/**',
    // Sources and build files of better-sqlite3 (its SQLite amalgamation alone is 9 MB): only lib/ and
    // prebuilds/ run.
    '!**/node_modules/better-sqlite3/{src,deps,build}/**',
  ],
  // The sandbox's assets, found at process.resourcesPath/sandbox by src-main/sandbox/resources.ts.
  extraResources: [{ from: 'resources/sandbox', to: 'sandbox' }],
  asar: true,
  asarUnpack: NATIVE_MODULES,
  // better-sqlite3 and sharp ship Node-API prebuilds that load in Electron as they are: no rebuild against
  // Electron's headers (which would need them downloaded).
  npmRebuild: false,
  // Electron's fuses, flipped in the binary at package time (electron-builder's electronFuses, which runs
  // @electron/fuses before signing). Every fuse is set here, none left to Electron's default.
  electronFuses: {
    // ELECTRON_RUN_AS_NODE would turn the signed app into a general Node interpreter.
    runAsNode: false,
    enableCookieEncryption: true,
    // NODE_OPTIONS and NODE_EXTRA_CA_CERTS from the environment would reach into the main process.
    enableNodeOptionsEnvironmentVariable: false,
    // --inspect and SIGUSR1 would open a debugger on the main process. Playwright's _electron.launch needs
    // it: the Electron smoke test runs the unpackaged build, not this package.
    enableNodeCliInspectArguments: false,
    enableEmbeddedAsarIntegrityValidation: true,
    onlyLoadAppFromAsar: true,
    loadBrowserProcessSpecificV8Snapshot: false,
    // The renderer is served from app://, so file:// needs no extra privileges.
    grantFileProtocolExtraPrivileges: false,
  },
  mac: {
    category: 'public.app-category.graphics-design',
    // sharp cannot be universal (one architecture's libvips per package: sharp #3622): one build per arch.
    // The updater needs the zip beside the dmg (electron-builder #6951).
    target: [
      { target: 'dmg', arch: ['arm64', 'x64'] },
      { target: 'zip', arch: ['arm64', 'x64'] },
    ],
    hardenedRuntime: true,
    // Runs only where the release machine provides Apple's credentials in the environment.
    notarize: true,
  },
  win: { target: [{ target: 'nsis', arch: ['x64'] }] },
  nsis: { oneClick: false, perMachine: false, allowToChangeInstallationDirectory: true },
  linux: { target: ['AppImage'], category: 'Graphics' },
};

export default config;
