#!/usr/bin/env node
// The `adbatch` command runs the TypeScript sources directly (tsx), so `npx adbatch` works on a fresh
// clone after `npm install`, with no build step.
import { register } from 'tsx/esm/api';

register();
await import('../src-main/cli/main.ts');
