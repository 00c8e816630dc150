#!/usr/bin/env node
// `node bin/with-project-node.mjs <command> [args...]`: the command under a Node new enough for Adbatch,
// found or fetched (project-node.mjs), after a first `npm ci` on a fresh clone. `npm test` goes through it.
import { ensureDependencies, environmentFor, projectNode, runAndExit } from './project-node.mjs';

const [command, ...args] = process.argv.slice(2);
if (!command) {
  process.stderr.write('usage: node bin/with-project-node.mjs <command> [args...]\n');
  process.exit(2);
}
const node = projectNode();
ensureDependencies(node);
runAndExit(command, args, environmentFor(node));
