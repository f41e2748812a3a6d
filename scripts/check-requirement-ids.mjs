// Every requirement id (`GATE-5`, `RO-2`) cited in src/, test/, bench/, scripts/ or webview/ must
// be explained in docs/requirements.md, once. Run by the static tier; exit 1 lists what is missing.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const FOLDERS = ['src', 'test', 'bench', 'scripts', 'webview'];
const DOC = 'docs/requirements.md';
const ID = /\b[A-Z]{2,}-\d+\b/g;
// Standard names that look like ids.
const NOT_REQUIREMENTS = new Set(['UTF', 'ISO']);

function filesUnder(dir) {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? filesUnder(p) : [p];
  });
}

const documented = new Map();
for (const [, id] of readFileSync(join(root, DOC), 'utf8').matchAll(/^- \*\*([A-Z]+-\d+)\*\*/gm)) {
  documented.set(id, (documented.get(id) ?? 0) + 1);
}

const missing = new Map();
for (const file of FOLDERS.flatMap((f) => filesUnder(join(root, f)))) {
  const bytes = readFileSync(file);
  if (bytes.includes(0)) continue;
  for (const [id] of bytes.toString('utf8').matchAll(ID)) {
    if (NOT_REQUIREMENTS.has(id.split('-')[0]) || documented.has(id)) continue;
    missing.set(id, [...(missing.get(id) ?? []), relative(root, file)]);
  }
}

const twice = [...documented].filter(([, n]) => n > 1).map(([id]) => id);
for (const [id, files] of missing)
  console.error(`${id} is cited in ${[...new Set(files)].join(', ')} but not listed in ${DOC}`);
for (const id of twice) console.error(`${id} is listed more than once in ${DOC}`);
if (missing.size > 0 || twice.length > 0) process.exit(1);
