import { re2jsEngine } from './re2js-engine.js';
import type { RegexEngine } from './regex-engine.js';

/**
 * The engine behind `#default-regex-engine` outside Node (browsers, bundlers): re2js, pure JS.
 * Node resolves `default-regex-engine.node.ts` instead (see the package's `imports` map).
 */
export const defaultRegexEngine: RegexEngine = re2jsEngine;
