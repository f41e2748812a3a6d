import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

// Import boundaries. src/core and src/cli stay free of VS Code (ports instead); only
// webview/src/ui/ touches the UI toolkit, so a swap is one folder (architecture, "UI toolkit").
const NO_VSCODE = {
  name: 'vscode',
  message: 'src/core and src/cli must stay free of VS Code: pass what you need through a port (src/core/ports.ts).',
};
const NO_TOOLKIT = {
  group: ['@vscode/webview-ui-toolkit', '@vscode/webview-ui-toolkit/*', '@microsoft/fast-*'],
  message: 'Use the wrappers in webview/src/ui/; only that folder imports the UI toolkit.',
};
const importBoundaries = (paths) => ({ 'no-restricted-imports': ['error', { paths, patterns: [NO_TOOLKIT] }] });

export default tseslint.config(
  // examples/ is a user's project to try the extension on, not ours to lint.
  {
    ignores: [
      'dist/**',
      'out/**',
      'node_modules/**',
      '.cache/**',
      'test-results/**',
      'examples/**',
      'reports/**',
      '.stryker-tmp/**',
      // Test bundles scripts/mutate-bundle.mjs leaves beside the tests when run by hand (git-ignored).
      '**/*.mutate.mjs',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-empty': ['error', { allowEmptyCatch: true }],
    },
  },
  {
    files: ['src/**', 'webview/**', 'test/**', 'bench/**'],
    ignores: ['webview/src/ui/**'],
    rules: importBoundaries([]),
  },
  { files: ['src/core/**', 'src/cli/**'], rules: importBoundaries([NO_VSCODE]) },
  // A core function longer than a screen mixes several rules; name the steps instead (issue 17 item 1).
  {
    files: ['src/core/**'],
    rules: {
      'max-lines-per-function': ['error', { max: 60, skipBlankLines: true, skipComments: true, IIFEs: true }],
    },
  },
  // A focused test (`.only`, `{ only: true }`) silently drops every other test of its run.
  {
    files: ['test/**', 'bench/**'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "MemberExpression[property.name='only'][object.name=/^(it|describe|test|suite|context|specify)$/]",
          message: 'No focused tests: `.only` drops every other test of the run.',
        },
        {
          selector:
            "CallExpression[callee.name=/^(it|describe|test|suite)$/] Property[key.name='only'][value.value=true]",
          message: 'No focused tests: `{ only: true }` drops every other test of the run.',
        },
      ],
    },
  },
  { files: ['webview/**'], languageOptions: { globals: { ...globals.browser } } },
  {
    files: ['scripts/**/*.mjs', 'test/**/*.mjs', 'test/**/*.js'],
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
  },
  // Type-aware rules on every file we lint: the TypeScript of tsconfig.json (src, webview/src, test,
  // bench) and, through the project service's default project, the few plain JS files beside it.
  {
    languageOptions: {
      parserOptions: {
        projectService: {
          allowDefaultProject: [
            'eslint.config.mjs',
            'stryker.config.mjs',
            'scripts/*.mjs',
            'webview/build/*.mjs',
            'test/fixtures/scripted-lm-extension/*.js',
            'bench/exthost/empty-extension/*.js',
          ],
          // Those globs match 18 files (the default cap is 8); they are small and share one program.
          maximumDefaultProjectFileMatchCount_THIS_WILL_SLOW_DOWN_LINTING: 24,
        },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      // node:test's test()/describe() return a promise that the runner itself tracks.
      '@typescript-eslint/no-floating-promises': [
        'error',
        {
          allowForKnownSafeCalls: [
            { from: 'package', package: 'node:test', name: ['test', 'describe', 'it', 'suite'] },
          ],
        },
      ],
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/await-thenable': 'error',
      // A union switch lists every member; a default case does not stand in for a forgotten one.
      '@typescript-eslint/switch-exhaustiveness-check': [
        'error',
        { considerDefaultExhaustiveForUnions: false, requireDefaultForNonUnion: false },
      ],
    },
  },
);
