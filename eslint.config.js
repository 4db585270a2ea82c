// @ts-check
/**
 * Lint for the whole repository: typescript-eslint's type-aware recommended rules (they know the
 * types the compiler knows: floating promises, unsafe `any`, misused promises), React's hooks
 * rules for the components, and nothing about formatting (Prettier owns that: .prettierrc.json).
 * `npm run lint` runs it with --max-warnings 0, with Prettier's check and the seams
 * (.dependency-cruiser.cjs); CI runs `npm run lint`.
 */
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', '.test-build/**', 'build/**', 'scratch/**', '**/*.cjs'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      // One program per side of the seams (tsconfig.*.json), so each file is linted with the
      // globals its side really has (DOM for client code, Node for node code, neither for shared).
      parserOptions: {
        project: [
          './tsconfig.shared.json',
          './tsconfig.client.json',
          './tsconfig.worker.json',
          './tsconfig.node.json',
          './tsconfig.json',
        ],
        tsconfigRootDir: import.meta.dirname,
      },
    },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      // Destructuring with a rest is how the code leaves fields out of an object
      // (`const { hast: _h, ...rest } = page`): the names before the rest are the fields dropped.
      '@typescript-eslint/no-unused-vars': ['error', { ignoreRestSiblings: true }],
    },
  },
  {
    files: ['**/*.tsx', 'src/**/client/**/*.ts', 'src/client/**/*.ts'],
    plugins: { 'react-hooks': reactHooks },
    rules: reactHooks.configs.recommended.rules,
  },
  {
    files: ['**/*.mjs', '**/*.js'],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: {
      ...tseslint.configs.disableTypeChecked.languageOptions,
      globals: globals.node,
    },
  },
);
