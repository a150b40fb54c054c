// The names docs/testing-with-snapshots.md's fragments use (see README.md here): the hooks jest
// (and vitest with `globals: true`) provide as globals.
declare function beforeAll(fn: () => unknown, timeout?: number): void;
declare function beforeEach(fn: () => unknown, timeout?: number): void;
declare function afterAll(fn: () => unknown, timeout?: number): void;
