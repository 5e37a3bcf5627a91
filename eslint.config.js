// Lint, and the import direction of DESIGN.md: ui -> (types of) workers/api, common;
// workers -> engine, common; server -> engine, common; common -> nothing. Nothing imports ui/.
// engine/assembly (AssemblyScript, compiled to WASM on its own) imports only its own files.
import { dirname, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

const layer = (files, patterns, ignores = []) => ({
  files,
  ignores,
  rules: {
    '@typescript-eslint/no-restricted-imports': ['error', { patterns }],
  },
});
const forbid = (group, message) => ({ group, message, allowTypeImports: false });
const forbidValues = (group, message) => ({ group, message, allowTypeImports: true });

const UI_IMPORTS = [
  forbid(['**/server/**', '**/engine/**'], 'ui/ must not import server/ or engine/ (DESIGN.md)'),
  // From workers/ only workers/api.ts, and only its types; the worker file itself is started
  // through new URL() (or a ?worker import).
  forbid(['**/workers/**', '!**/workers/api.ts', '!**/workers/render.worker.ts?worker*'], 'ui/ may import from workers/ only the types of workers/api.ts (DESIGN.md)'),
  forbidValues(['**/workers/api.ts'], 'ui/ may import only types from workers/api.ts (DESIGN.md)'),
];

const ASSEMBLY = 'engine/assembly/';
const root = dirname(fileURLToPath(import.meta.url));

/**
 * AssemblyScript is TypeScript's syntax plus decorators on functions and globals (@inline,
 * @external...), which the TypeScript parser refuses. This parser blanks a decorator that starts a
 * line (spaces of the same length: every position stays where it was) and hands the rest to
 * typescript-eslint's parser.
 */
const assemblyScriptParser = {
  meta: { name: 'isobar/assemblyscript' },
  parseForESLint(code, options) {
    const blanked = code.replace(/^[ \t]*@[A-Za-z_$][\w$]*(?:\([^)\n]*\))?/gm, (decorator) => ' '.repeat(decorator.length));
    return tseslint.parser.parseForESLint(blanked, options);
  },
};

/** A file of `within` (a folder of the repository) imports only files of that folder. */
const importsWithin = {
  meta: {
    type: 'problem',
    schema: [{ type: 'object', properties: { within: { type: 'string' }, message: { type: 'string' } }, required: ['within', 'message'], additionalProperties: false }],
    messages: { outside: "'{{ source }}' is outside {{ within }}: {{ message }}" },
  },
  create(context) {
    const [{ within, message }] = context.options;
    const folder = resolve(root, within);
    const check = (node) => {
      const source = node.source?.value;
      if (typeof source !== 'string') return;
      const target = source.startsWith('.') ? resolve(dirname(context.filename), source) : null;
      const inside = target !== null && (target === folder || target.startsWith(folder + sep));
      if (!inside) context.report({ node: node.source, messageId: 'outside', data: { source, within: relative(root, folder), message } });
    };
    return { ImportDeclaration: check, ExportNamedDeclaration: check, ExportAllDeclaration: check, ImportExpression: check };
  },
};

export default tseslint.config(
  { ignores: ['dist/', '**/dist-*/', 'engine/build/', 'public/generated/', 'node_modules/', 'test-results/', 'playwright-report/', 'bench/out/', 'var/'] },
  {
    ignores: [`${ASSEMBLY}**`],
    extends: [js.configs.recommended, ...tseslint.configs.recommended],
    languageOptions: { globals: { ...globals.browser, ...globals.node, ...globals.worker } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  layer(['common/**/*.ts'], [
    forbid(['**/ui/**', '**/workers/**', '**/engine/**', '**/server/**', 'react', 'react-dom', 'regl', 'fastify', 'node:*'], 'common/ imports nothing outside itself (DESIGN.md)'),
  ]),
  layer(['ui/**/*.{ts,tsx}'], UI_IMPORTS),
  // Windows and controls are given the account and the app services (ui/services/ServicesContext.tsx):
  // they never start them, so their modules only name the types.
  layer(['ui/panels/**/*.{ts,tsx}', 'ui/components/**/*.{ts,tsx}'], [
    ...UI_IMPORTS,
    forbidValues(['**/account/account.ts', '**/services/appServices.ts', '**/services/compose.ts'], 'windows and controls get the services from the composition root (useServices, useAccount, withAccount), never start them (DESIGN.md)'),
  ]),
  layer(['workers/**/*.ts'], [
    forbid(['**/ui/**', '**/server/**'], 'workers/ import engine/ and common/ only (DESIGN.md)'),
  ]),
  layer(['server/**/*.ts'], [
    forbid(['**/ui/**', '**/workers/**'], 'server/ imports engine/ and common/ only (DESIGN.md)'),
  ]),
  layer(['engine/**/*.ts'], [
    forbid(['**/ui/**', '**/workers/**', '**/server/**'], 'engine/ imports common/ only (DESIGN.md)'),
  ], [`${ASSEMBLY}**`]),
  // AssemblyScript: only the import rule (the TypeScript rules do not know its types and built-ins).
  {
    files: [`${ASSEMBLY}**/*.ts`],
    languageOptions: { parser: assemblyScriptParser },
    plugins: { isobar: { rules: { 'imports-within': importsWithin } } },
    rules: {
      'isobar/imports-within': ['error', { within: ASSEMBLY, message: 'AssemblyScript compiles to WASM on its own and imports only engine/assembly/ (DESIGN.md)' }],
    },
  },
);
