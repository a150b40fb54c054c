import { re2WasmEngine } from './re2-wasm-engine.js';
import type { RegexEngine } from './regex-engine.js';

/** The engine behind `#default-regex-engine` under Node (see the package's `imports` map). */
export const defaultRegexEngine: RegexEngine = re2WasmEngine;
