import { startAppServer } from './app-server.ts';

// The browser harness in a process of its own, for the tests that kill it and start it again
// (test/e2e/review-kill.test.ts): the test core on a temporary folder, or on ADBATCH_HARNESS_DIR, which it
// keeps. "Open Folder…" answers with the bundled example products. Not `npm run app:web`, which is the
// product's (src-main/web/main.ts). Only the printed URL gets in: it carries this run's token.

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
