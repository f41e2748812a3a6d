// esbuild plugin for the webview bundle: drops what the UI toolkit ships but the panel never
// reaches, which esbuild cannot see on its own. Behaviour is unchanged.
//   - Indentation in the toolkit's and FAST's sources goes: it sits inside their css`…` and
//     html`…` templates, which a minifier must keep verbatim (~2 KB). Only whitespace around
//     line breaks goes, so JavaScript keeps its line breaks (no ASI change) and a template keeps
//     a line break where it had one: CSS and the shadow DOM's whitespace-only text nodes render
//     the same.
//   - The toolkit's design tokens are created at module level, each with a side effect (it joins
//     the theme listener's map), so esbuild keeps all ~90 of them. Marked pure, only the tokens a
//     used component's styles reference remain; a dropped token had nothing to style.
//   - fast-web-utilities' deprecated `KeyCodes` enum (a TypeScript enum, an IIFE esbuild must
//     keep) is made a pure expression; FAST only uses the `keyEnter` string from that module.
// Usage in scripts/build.mjs, webview build: `plugins: [..., toolkitDeadCode]`.
import { readFileSync } from 'node:fs';

const PACKAGES =
  /[\\/]node_modules[\\/](@vscode[\\/]webview-ui-toolkit|@microsoft[\\/]fast-(element|foundation|web-utilities))[\\/].*\.js$/;

/** Whitespace around line breaks, outside of what a line break cannot end (no line continuations in these files). */
function stripIndentation(source, file) {
  if (/\\\r?\n/.test(source))
    throw new Error(`toolkit-dead-code: ${file} continues a string over a line break; extend the plugin`);
  return source.replace(/[ \t]*\r?\n[ \t]*/g, '\n');
}

function pureDesignTokens(source, file) {
  const marked = source.replace(/= create\(/g, '= /* @__PURE__ */ create(');
  if (marked === source) throw new Error(`toolkit-dead-code: no design token found in ${file}; extend the plugin`);
  return marked;
}

function pureEnums(source, file) {
  const marked = source.replace(
    /export var (\w+);\n\(function \(\1\) \{([\s\S]*?)\n\}\)\(\1 \|\| \(\1 = \{\}\)\);/g,
    'export var $1 = /* @__PURE__ */ (function ($1) {$2\nreturn $1;\n})({});',
  );
  if (marked === source) throw new Error(`toolkit-dead-code: no enum found in ${file}; extend the plugin`);
  return marked;
}

export const toolkitDeadCode = {
  name: 'toolkit-dead-code',
  setup(build) {
    build.onLoad({ filter: PACKAGES }, (args) => {
      let source = stripIndentation(readFileSync(args.path, 'utf8'), args.path);
      if (/webview-ui-toolkit[\\/]dist[\\/]design-tokens\.js$/.test(args.path))
        source = pureDesignTokens(source, args.path);
      if (/fast-web-utilities[\\/]dist[\\/]key-codes\.js$/.test(args.path)) source = pureEnums(source, args.path);
      return { contents: source, loader: 'js' };
    });
  },
};
