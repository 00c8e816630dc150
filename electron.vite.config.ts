import { resolve } from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'electron-vite';

// Our folders are src-main, src-preload and src-renderer, so every entry is set explicitly
// (electron-vite only finds src/main, src/preload and src/renderer by itself).
//
// Two builds: `electron-vite build` is the app (main, preload, and a renderer that talks to main through the
// preload bridge only); `electron-vite build --mode harness` is the renderer alone for the browser harness
// (npm run app:web, the UI tests, bench:ui), with its WebSocket transport, in out/harness. The flag below is
// a compile-time constant, so the app's bundle does not contain the WebSocket code at all.
const HARNESS_MODE = 'harness';

export default defineConfig(({ mode }) => {
  const harness = mode === HARNESS_MODE;
  const renderer = {
    root: resolve(__dirname, 'src-renderer'),
    plugins: [react()],
    define: { __ADBATCH_HARNESS__: JSON.stringify(harness) },
    build: {
      outDir: resolve(__dirname, harness ? 'out/harness' : 'out/renderer'),
      minify: true,
      rollupOptions: { input: { index: resolve(__dirname, 'src-renderer/index.html') } },
    },
  };
  // Main and preload are left out on purpose (npm run build:harness passes --ignoreConfigWarning, or
  // electron-vite warns that they are missing on every npm run app:web).
  if (harness) return { renderer };
  return {
    main: {
      build: {
        outDir: 'out/main',
        rollupOptions: {
          // The export's worker thread (core/export/run-in-worker.ts) is an entry of its own, built beside
          // index.js as export-worker.js, where the bundled run-in-worker looks for it.
          input: {
            index: resolve(__dirname, 'src-main/index.ts'),
            'export-worker': resolve(__dirname, 'src-main/core/export/export-worker.ts'),
          },
        },
      },
    },
    preload: {
      build: {
        outDir: 'out/preload',
        // A sandboxed preload cannot be ESM and may only require electron: bundle it whole as CommonJS.
        externalizeDeps: false,
        rollupOptions: {
          input: { index: resolve(__dirname, 'src-preload/index.ts') },
          output: { format: 'cjs', entryFileNames: '[name].cjs' },
        },
      },
    },
    renderer,
  };
});
