import { fileURLToPath } from 'node:url';
import { defineConfig, type TestProjectInlineConfiguration } from 'vitest/config';

const src = (path: string) => fileURLToPath(new URL(path, import.meta.url));

// Tests run against the TypeScript sources, so `pnpm test` needs no build; CI builds separately.
const aliases = (service: string) => [
  { find: /^@listkit\/query\/sql$/, replacement: src('./packages/query/src/sql.ts') },
  { find: /^@listkit\/query\/kysely$/, replacement: src('./packages/query/src/kysely.ts') },
  { find: /^@listkit\/query\/drizzle$/, replacement: src('./packages/query/src/drizzle.ts') },
  { find: /^@listkit\/query\/typeorm$/, replacement: src('./packages/query/src/typeorm.ts') },
  { find: /^@listkit\/query\/proto$/, replacement: src('./packages/query/src/proto.ts') },
  {
    find: /^@listkit\/query\/list-method$/,
    replacement: src('./packages/query/src/list-method.ts'),
  },
  { find: /^@listkit\/query\/re2-wasm$/, replacement: src('./packages/query/src/re2-wasm.ts') },
  { find: /^@listkit\/query$/, replacement: src('./packages/query/src/index.ts') },
  { find: /^@listkit\/service$/, replacement: service },
];

const common = {
  exclude: ['**/node_modules/**', '**/dist/**'],
  testTimeout: 30_000,
  // Hooks start and stop servers, databases and browsers. On a busy 2-core machine (load 5+)
  // closing a PGlite store took over vitest's default 10 s; a hook that is slow is not a failure.
  hookTimeout: 120_000,
  // expect.poll gives up after 1 s by default: on a loaded 2-core CI machine a browser page can
  // take longer than that to apply data or re-run a list, and the test then fails on time alone.
  // A poll still returns as soon as its condition holds; 10 s was still too short once (a shared
  // link's 40 rules applied in a Chromium page while two other test runs shared the 2 cores).
  expect: { poll: { timeout: 30_000 } },
};

// The real-client suites run once more over each stored emulator, unchanged: in these projects
// `@listkit/service` is test/support/store-emulator.ts, whose createEmulator gives every emulator
// a fresh PGlite directory or PostgreSQL database.
const STORED_SUITES = [
  'test/clients/compute.test.ts',
  'test/clients/compute-update.test.ts',
  'test/clients/compute-concurrency.test.ts',
  'test/clients/global-forwarding-rules.test.ts',
  'test/clients/publisher.test.ts',
  'test/stores/snapshots.test.ts',
  'test/clients/partial-responses.test.ts',
];
const stored = (store: 'pglite' | 'postgres'): TestProjectInlineConfiguration => ({
  resolve: { alias: aliases(src('./test/support/store-emulator.ts')) },
  test: {
    ...common,
    name: store,
    include: STORED_SUITES,
    env: { LISTKIT_TEST_STORE: store },
    testTimeout: 60_000,
  },
});

/** PostgreSQL suites need a server (LISTKIT_PG_URL, as .ci/with-postgres.sh exports). */
function postgresProjects(): TestProjectInlineConfiguration[] {
  if (process.env.LISTKIT_PG_URL) return [stored('postgres')];
  const reason =
    'real-client suites over PostgreSQL skipped: no server configured (set LISTKIT_PG_URL or run under .ci/with-postgres.sh)';
  if (process.env.LISTKIT_REQUIRE_PG === '1') throw new Error(`LISTKIT_REQUIRE_PG=1 but ${reason}`);
  console.warn(reason);
  return [];
}

export default defineConfig({
  test: {
    projects: [
      {
        resolve: { alias: aliases(src('./packages/service/src/index.ts')) },
        test: {
          ...common,
          name: 'memory',
          include: ['packages/*/src/**/*.test.ts', 'test/**/*.test.ts'],
        },
      },
      stored('pglite'),
      ...postgresProjects(),
    ],
  },
});
