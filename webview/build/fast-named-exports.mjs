// esbuild plugin for the webview bundle: @vscode/webview-ui-toolkit imports FAST's packages through
// their `export *` barrels, and esbuild then keeps every FAST component (~190 KB minified) although
// the panel uses three. This plugin replaces each barrel with explicit named re-exports of the
// same files, which esbuild prunes per name: the toolkit's button, badge and progress ring cost
// ~85 KB instead of ~250 KB. Behaviour is unchanged; only unreachable modules drop out.
// Usage in scripts/build.mjs, webview build: `plugins: [fastNamedExports]`.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, resolve } from 'node:path';

const BARRELS = {
  '@microsoft/fast-foundation': 'dist/esm/index.js',
  '@microsoft/fast-web-utilities': 'dist/index.js',
};

const require = createRequire(import.meta.url);

/** Every name a module exports, with the file that defines it (following `export *` and re-exports). */
function namedExports(file, seen = new Set()) {
  if (seen.has(file)) return [];
  seen.add(file);
  const source = readFileSync(file, 'utf8');
  const here = dirname(file);
  const found = [];
  for (const m of source.matchAll(/^export\s+(?:abstract\s+)?(?:class|function\*?|const|let|var)\s+([\w$]+)/gm)) {
    found.push({ name: m[1], file, original: m[1] });
  }
  for (const m of source.matchAll(/^export\s*\{([^}]*)\}\s*(?:from\s*["']([^"']+)["'])?/gm)) {
    const from = m[2] ? resolve(here, m[2]) : file;
    if (m[2] && !m[2].startsWith('.'))
      throw new Error(`fast-named-exports: ${file} re-exports a package (${m[2]}); extend the plugin`);
    for (const part of m[1]
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean)) {
      const [original, alias] = part.split(/\s+as\s+/);
      found.push({ name: alias ?? original, file: from, original });
    }
  }
  for (const m of source.matchAll(/^export\s*\*\s*from\s*["']([^"']+)["']/gm)) {
    if (!m[1].startsWith('.'))
      throw new Error(`fast-named-exports: ${file} re-exports all of a package (${m[1]}); extend the plugin`);
    found.push(...namedExports(resolve(here, m[1]), seen));
  }
  return found;
}

function barrelSource(pkg) {
  const entry = resolve(dirname(require.resolve(`${pkg}/package.json`)), BARRELS[pkg]);
  const names = new Set();
  const lines = [];
  for (const { name, file, original } of namedExports(entry)) {
    if (names.has(name)) continue;
    names.add(name);
    const spec = original === name ? name : `${original} as ${name}`;
    lines.push(`export { ${spec} } from ${JSON.stringify(file)};`);
  }
  return lines.join('\n');
}

export const fastNamedExports = {
  name: 'fast-named-exports',
  setup(build) {
    const filter = new RegExp(
      `^(${Object.keys(BARRELS)
        .map((p) => p.replace(/[/.]/g, '\\$&'))
        .join('|')})$`,
    );
    build.onResolve({ filter }, (args) => ({ path: args.path, namespace: 'fast-named-exports' }));
    build.onLoad({ filter: /.*/, namespace: 'fast-named-exports' }, (args) => ({
      contents: barrelSource(args.path),
      resolveDir: dirname(require.resolve(`${args.path}/package.json`)),
    }));
  },
};
