// @listkit/query/re2-wasm: the re2-wasm engine (Google's C++ RE2 compiled to WebAssembly).
// Node only, and opt-in: pass it as `regexEngine` for trusted patterns (docs/regex-engines.md
// explains why re2js is the default).
export { re2WasmEngine } from './filter/regex/re2-wasm-engine.js';
