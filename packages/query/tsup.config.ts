import { defineConfig } from 'tsup';

// The default RE2 engine is chosen at run time through the package's `imports` map
// (`#default-regex-engine`): re2-wasm under Node, re2js everywhere else (browsers, bundlers).
// It therefore stays an external import and each engine module is its own entry.
export default defineConfig({
  entry: {
    index: 'src/index.ts',
    're2-wasm': 'src/re2-wasm.ts',
    'default-regex-engine': 'src/filter/regex/default-regex-engine.ts',
    'default-regex-engine.node': 'src/filter/regex/default-regex-engine.node.ts',
  },
  format: ['esm', 'cjs'],
  dts: true,
  sourcemap: true,
  clean: true,
  target: 'es2022',
  external: ['#default-regex-engine'],
});
