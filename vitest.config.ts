import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const src = (path: string) => fileURLToPath(new URL(path, import.meta.url));

// Tests run against the TypeScript sources, so `pnpm test` needs no build; CI builds separately.
export default defineConfig({
  resolve: {
    alias: [
      { find: /^@listkit\/query\/sql$/, replacement: src('./packages/query/src/sql/index.ts') },
      { find: /^@listkit\/query\/re2-wasm$/, replacement: src('./packages/query/src/re2-wasm.ts') },
      { find: /^@listkit\/query$/, replacement: src('./packages/query/src/index.ts') },
      { find: /^@listkit\/service$/, replacement: src('./packages/service/src/index.ts') },
    ],
  },
  test: {
    include: ['packages/*/src/**/*.test.ts', 'test/**/*.test.ts'],
    exclude: ['**/node_modules/**', '**/dist/**'],
    testTimeout: 30_000,
  },
});
