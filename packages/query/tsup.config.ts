import { defineConfig } from 'tsup';

// One form for every entry: a re-export file at src/'s root, named as its subpath and its
// dist/ file (docs/query-layout.md). `re2-wasm` is its own entry so that importing the main
// entry never loads re2-wasm (which needs Node's fs and path, and would break browser bundles).
export default defineConfig({
  entry: {
    index: 'src/index.ts',
    're2-wasm': 'src/re2-wasm.ts',
    sql: 'src/sql.ts',
    // kysely (an optional peer) only for those who import it.
    kysely: 'src/kysely.ts',
    // drizzle-orm (an optional peer) only for those who import it; typeorm only as types.
    drizzle: 'src/drizzle.ts',
    typeorm: 'src/typeorm.ts',
    // protobufjs only for those who import it.
    proto: 'src/proto.ts',
    'list-method': 'src/list-method.ts',
  },
  format: ['esm', 'cjs'],
  dts: true,
  sourcemap: true,
  clean: true,
  target: 'es2022',
});
