// esbuild plugin for the webview bundle only: markdown-it's named-entity decoder (`entities`,
// ~24 KB minified of a 150 KB budget) is replaced by webview/src/entities-lite.ts.
// Usage in scripts/build.mjs, webview build: `plugins: [markdownItSlim]`.
import { fileURLToPath } from 'node:url';

const lite = fileURLToPath(new URL('../src/entities-lite.ts', import.meta.url));

export const markdownItSlim = {
  name: 'markdown-it-slim',
  setup(build) {
    build.onResolve({ filter: /^entities$/ }, (args) => (/[\\/]markdown-it[\\/]/.test(args.importer) ? { path: lite } : undefined));
  },
};
