// ESLint for the TypeScript code (npm run lint). Formatting is Prettier's job, boundaries are
// scripts/check-imports.mjs's; these rules catch what tsc cannot: promises nobody awaits, promises
// passed where a callback's result is ignored, type-only imports that would load a module at run time.
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'renderer/public/**', 'resources/**', '**/*.d.ts'] },
  {
    files: ['**/*.ts', '**/*.tsx', '**/*.mts'],
    languageOptions: {
      parser: tseslint.parser,
      parserOptions: {
        // scripts/ and the root configs belong to no tsconfig; they get a default project.
        projectService: { allowDefaultProject: ['scripts/*.ts', '*.ts'] },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    plugins: { '@typescript-eslint': tseslint.plugin },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports', disallowTypeAnnotations: false }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
    },
  },
);
