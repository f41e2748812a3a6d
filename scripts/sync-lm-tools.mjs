// Writes package.json's `contributes.languageModelTools` from the shared planning gates
// (src/core/gates: each tool's model description and input schema) and the VS Code details in
// src/extension/lm-tool-manifest.ts. Run after changing either:
//   node scripts/sync-lm-tools.mjs
// test/unit/extension/lm-tool-manifest.test.ts fails while package.json and the gates differ.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { tsImport } from 'tsx/esm/api';

const root = fileURLToPath(new URL('..', import.meta.url));
const { lmToolContributions } = await tsImport('../src/extension/lm-tool-contributions.ts', import.meta.url);
const file = join(root, 'package.json');
const pkg = JSON.parse(readFileSync(file, 'utf8'));
pkg.contributes.languageModelTools = lmToolContributions();
writeFileSync(file, `${JSON.stringify(pkg, null, 2)}\n`);
console.log(`package.json: ${pkg.contributes.languageModelTools.length} language model tools written`);
