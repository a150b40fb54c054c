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
    // expect.poll gives up after 1 s by default: on a loaded 2-core CI machine a browser page can
    // take longer than that to apply data or re-run a list, and the test then fails on time alone.
    // A poll still returns as soon as its condition holds.
    expect: { poll: { timeout: 10_000 } },
  },
});
