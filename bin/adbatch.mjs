#!/usr/bin/env node
// The `adbatch` command runs the CLI built into out/cli (scripts/build-cli.mjs: npm install's prepare step,
// npm run build). GUESS: in a checkout the sources change under the bundle (an edit, a pull, a checkout),
// so it is built again first, in about a second, whenever a file it was built from changed: `node
// bin/adbatch.mjs`, an `adbatch` installed by `npm link` and the tests that spawn it always run the sources
// as they are, with no tsx at run time and no build step to remember.
// On a Node older than package.json's engines it runs itself again under a newer one (project-node.mjs)
// before anything else, since an old Node may not run the bundle.
import module from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { buildCli, bundleIsCurrent, CLI_ENTRY } from '../scripts/build-cli.mjs';
import { ensureDependencies, environmentFor, projectNode, runAndExit } from './project-node.mjs';

const node = projectNode();
ensureDependencies(node);
if (node) {
  runAndExit(node, [fileURLToPath(import.meta.url), ...process.argv.slice(2)], environmentFor(node));
} else {
  if (!bundleIsCurrent()) await buildCli();
  // V8's compiled code kept on disk between runs (in the OS temp folder): the bundle and the dependencies'
  // modules are not compiled again at every start, a sixth or so of what `adbatch status` costs.
  module.enableCompileCache();
  process.setSourceMapsEnabled(true);
  await import(pathToFileURL(CLI_ENTRY).href);
}
