import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { RENDERER_DIR, startAppServer } from './app-server.ts';

// `npm run app:web`: the app in any browser, on the real core and the embedded sandbox, with a temporary
// data dir. "Open Folder…" answers with the bundled example products (a browser has no folder dialog).

if (!existsSync(join(RENDERER_DIR, 'index.html'))) {
  console.error('The renderer is not built: run `npm run build` first (npm run app:web does).');
  process.exit(1);
}
const app = await startAppServer({ port: Number(process.env.PORT ?? 0), timeScale: 0.1 });
console.log(`Adbatch (browser harness) at ${app.url}`);
console.log(`Data and library: ${app.harness.dir}. Ctrl+C stops it.`);
const stop = async () => {
  await app.close();
  process.exit(0);
};
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
