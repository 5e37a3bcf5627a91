// Lint, and the import direction of DESIGN.md: ui -> (types of) workers/api, common;
// workers -> engine, common; server -> engine, common; common -> nothing. Nothing imports ui/.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

const layer = (files, patterns) => ({
  files,
  rules: {
    '@typescript-eslint/no-restricted-imports': ['error', { patterns }],
  },
});
const forbid = (group, message) => ({ group, message, allowTypeImports: false });
const forbidValues = (group, message) => ({ group, message, allowTypeImports: true });

export default tseslint.config(
  { ignores: ['dist/', 'engine/build/', 'engine/assembly/', 'public/generated/', 'node_modules/', 'test-results/', 'playwright-report/', 'bench/out/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.browser, ...globals.node, ...globals.worker } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  layer(['common/**/*.ts'], [
    forbid(['**/ui/**', '**/workers/**', '**/engine/**', '**/server/**', 'react', 'react-dom', 'regl', 'fastify', 'node:*'], 'common/ imports nothing outside itself (DESIGN.md)'),
  ]),
  layer(['ui/**/*.{ts,tsx}'], [
    forbid(['**/server/**', '**/engine/**'], 'ui/ must not import server/ or engine/ (DESIGN.md)'),
    // The worker file itself may be referenced through new URL(); everything else from workers/ is types only.
    forbidValues(['**/workers/**', '!**/workers/render.worker.ts?worker*'], 'ui/ may import only types from workers/api.ts (DESIGN.md)'),
  ]),
  layer(['workers/**/*.ts'], [
    forbid(['**/ui/**', '**/server/**'], 'workers/ import engine/ and common/ only (DESIGN.md)'),
  ]),
  layer(['server/**/*.ts'], [
    forbid(['**/ui/**', '**/workers/**'], 'server/ imports engine/ and common/ only (DESIGN.md)'),
  ]),
  layer(['engine/**/*.ts'], [
    forbid(['**/ui/**', '**/workers/**', '**/server/**'], 'engine/ imports common/ only (DESIGN.md)'),
  ]),
);
