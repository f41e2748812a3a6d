import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

const noVscodeInCore = {
  'no-restricted-imports': ['error', {
    paths: [{ name: 'vscode', message: 'src/core and src/cli must stay free of VS Code: pass what you need through a port (src/core/ports.ts).' }],
  }],
};

export default tseslint.config(
  // examples/ is a user's project to try the extension on, not ours to lint.
  { ignores: ['dist/**', 'out/**', 'node_modules/**', '.cache/**', 'test-results/**', 'examples/**'] },
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
  { files: ['src/core/**', 'src/cli/**'], rules: noVscodeInCore },
  { files: ['webview/**'], languageOptions: { globals: { ...globals.browser } } },
  { files: ['scripts/**/*.mjs', 'test/**/*.mjs', 'test/**/*.js'], languageOptions: { globals: { ...globals.node, ...globals.browser } } },
);
