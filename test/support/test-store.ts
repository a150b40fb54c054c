// Which store the emulator of this test run keeps its state in: vitest.config.ts runs the
// real-client suites (test/clients/) once per store, as the projects `memory`, `pglite` and
// `postgres`, and sets LISTKIT_TEST_STORE in the two stored ones. Suites put it in their names,
// so a failure says which store it happened on.

/** `memory`, `pglite` or `postgres`. */
export const TEST_STORE = process.env.LISTKIT_TEST_STORE ?? 'memory';

/** A suite's name with its store in front: `on pglite: concurrent inserts`. */
export const onStore = (name: string): string => `on ${TEST_STORE}: ${name}`;
