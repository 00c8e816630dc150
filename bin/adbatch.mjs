#!/usr/bin/env node
// The `adbatch` command runs the TypeScript sources directly (tsx), so `npx adbatch` works on a fresh
// clone with no build step. On a Node older than package.json's engines it runs itself again under a newer
// one (project-node.mjs); tsx is imported only after that, since an old Node may not load it.
import { fileURLToPath } from 'node:url';
import { ensureDependencies, environmentFor, projectNode, runAndExit } from './project-node.mjs';

const node = projectNode();
ensureDependencies(node);
if (node) {
  runAndExit(node, [fileURLToPath(import.meta.url), ...process.argv.slice(2)], environmentFor(node));
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import('../src-main/cli/main.ts');
}
