// @listkit/query/re2-wasm: the re2-wasm engine (Google's C++ RE2 compiled to WebAssembly).
// Node only; it is the default engine under Node, and exported here to be passed explicitly.
export { re2WasmEngine } from './filter/regex/re2-wasm-engine.js';
