#!/usr/bin/env node
// Prints the largest functions of src/core (or the folders given) with their line counts, counted
// exactly as the `max-lines-per-function` limit in eslint.config.mjs counts them (blank and comment
// lines skipped, a nested function's lines also count for the function around it).
//   node scripts/largest-functions.mjs [--top N] [folder ...]
import { ESLint } from 'eslint';
import tseslint from 'typescript-eslint';

const args = process.argv.slice(2);
const topAt = args.indexOf('--top');
const top = topAt >= 0 ? Number(args.splice(topAt, 2)[1]) : 10;
if (!Number.isInteger(top) || top < 1) throw new Error('--top needs a positive whole number');
const folders = args.length > 0 ? args : ['src/core'];

const eslint = new ESLint({
  overrideConfigFile: true,
  overrideConfig: [
    {
      files: ['**/*.ts'],
      languageOptions: { parser: tseslint.parser },
      // max 0: every function is reported, with its count in the message.
      rules: {
        'max-lines-per-function': ['error', { max: 0, skipBlankLines: true, skipComments: true, IIFEs: true }],
      },
    },
  ],
});

const COUNT = /^(.*) has too many lines \((\d+)\)/;
const found = [];
for (const result of await eslint.lintFiles(folders.map((f) => `${f}/**/*.ts`))) {
  for (const m of result.messages) {
    if (m.fatal) throw new Error(`${result.filePath}:${m.line}: ${m.message}`);
    const match = COUNT.exec(m.message);
    if (m.ruleId !== 'max-lines-per-function' || !match) continue;
    const file = result.filePath.slice(process.cwd().length + 1);
    found.push({ lines: Number(match[2]), what: match[1], where: `${file}:${m.line}` });
  }
}
found.sort((a, b) => b.lines - a.lines || a.where.localeCompare(b.where));
for (const f of found.slice(0, top)) console.log(`${String(f.lines).padStart(4)}  ${f.where}  ${f.what}`);
