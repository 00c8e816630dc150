import { startAppServer } from './app-server.ts';

// `npm run app:web`: the app in any browser, on the real core and the embedded sandbox, with a temporary
// data dir (or ADBATCH_HARNESS_DIR, kept: the tests that kill the app and start it again use it). "Open
// Folder…" answers with the bundled example products (a browser has no folder dialog). Only the printed
// URL gets in: it carries this run's token (see app-server.ts).

const app = await startAppServer({
  port: Number(process.env.PORT ?? 0),
  timeScale: 0.1,
  ...(process.env.ADBATCH_HARNESS_DIR ? { dir: process.env.ADBATCH_HARNESS_DIR } : {}),
}).catch((error: Error) => {
  console.error(error.message);
  process.exit(1);
});
console.log(`Adbatch (browser harness) at ${app.url}`);
console.log('Open exactly this address: the token after # is what lets the page in.');
console.log(`Data and library: ${app.harness.dir}. Ctrl+C stops it.`);
const stop = async () => {
  await app.close();
  process.exit(0);
};
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
