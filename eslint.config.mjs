// typescript-eslint's recommended type-checked rules over every hand-written source; generated code
// (ts-proto, the OpenAPI types) and built bundles are not ours to lint.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '.state/**',
      '**/dist/**',
      'coverage/**',
      'proto/gen/**',
      '**/generated/**',
      'hosted/public/**',
      'hosted/test/artifacts/**',
      '**/*.js',
      '**/*.cjs',
      '**/*.mjs',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
  },
);
