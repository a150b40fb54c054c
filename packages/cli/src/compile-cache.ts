// A CommonJS script run with V8's code cache, kept in a file between runs: Node 20 has no
// `module.enableCompileCache` (Node 22), and compiling the bundled program (the filter parser,
// the regular-expression engine, commander) was a third of `listkit filter`'s start-up. The cache
// is written once, when the process exits after a run that had none, so it holds the functions
// that run compiled too, not only the top level. A cache V8 rejects (another Node, another
// build) is replaced; one that cannot be read or written only costs the compile.
import {
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
// (Renamed: ES module bundles of the CLI declare their own `createRequire` in a banner.)
import { createRequire as requireFrom } from 'node:module';
import { homedir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { Script } from 'node:vm';

/** Cache files kept per script: one per build, Node version and set of flags in use. */
const CACHES_KEPT = 4;

/**
 * Where the code cache lives: `$LISTKIT_COMPILE_CACHE` (a directory; `off` for none), else
 * `$XDG_CACHE_HOME/listkit`, else `~/.cache/listkit`.
 *
 * @example
 * ```ts
 * compileCacheDirectory({ XDG_CACHE_HOME: '/home/me/.cache' }); // '/home/me/.cache/listkit'
 * ```
 */
export function compileCacheDirectory(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const setting = env.LISTKIT_COMPILE_CACHE;
  if (setting === 'off') return undefined;
  if (setting) return setting;
  return join(env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'listkit');
}

/**
 * Runs the CommonJS script `file` as `require` would and returns its exports, compiled from the
 * code cache in `cacheDirectory` when one matches; without one, the cache is written at exit.
 * A few cache files per script are kept (see `CACHES_KEPT`); older ones are removed when a
 * new one is written.
 *
 * `write: false` (a worker thread) only reads the cache.
 *
 * @example
 * ```ts
 * const { runCli } = requireWithCodeCache(cliScript, compileCacheDirectory()) as typeof import('./cli.js');
 * ```
 */
export function requireWithCodeCache(
  file: string,
  cacheDirectory: string | undefined,
  write = true,
): unknown {
  const source = readFileSync(file, 'utf8');
  // The build's size and time name its cache (V8 checks only the source's length), and so do
  // Node's flags (V8 rejects a cache made under other flags, such as --cpu-prof's).
  const { size, mtimeMs } = statSync(file);
  const prefix = `${basename(file)}-`;
  const flags = hash(`${process.execArgv.join(' ')} ${process.env.NODE_OPTIONS ?? ''}`);
  const name = `${prefix}${process.version}-${process.arch}-${flags}-${size}-${Math.trunc(mtimeMs)}.v8`;
  const cacheFile = cacheDirectory === undefined ? undefined : join(cacheDirectory, name);
  let cachedData: Buffer | undefined;
  try {
    if (cacheFile) cachedData = readFileSync(cacheFile);
  } catch {
    // No cache yet (or an unreadable one): compile, and write it at exit.
  }
  const script = new Script(
    `(function (exports, require, module, __filename, __dirname) {${source}\n})`,
    { filename: file, ...(cachedData ? { cachedData } : {}) },
  );
  if (cacheFile && write && (cachedData === undefined || script.cachedDataRejected)) {
    process.once('exit', () => writeCache(script, cacheFile, prefix));
  }
  const module = { exports: {} };
  const wrapper = script.runInThisContext() as (...args: unknown[]) => void;
  wrapper(module.exports, requireFrom(file), module, file, dirname(file));
  return module.exports;
}

/** A short hash of `text` (FNV-1a), for a file name. */
function hash(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return (h >>> 0).toString(36);
}

/** Writes the cache (through a temporary file, so no reader sees half of it); never throws. */
function writeCache(script: Script, cacheFile: string, prefix: string): void {
  const directory = dirname(cacheFile);
  const temporary = `${cacheFile}.${process.pid}.tmp`;
  try {
    mkdirSync(directory, { recursive: true, mode: 0o700 });
    writeFileSync(temporary, script.createCachedData(), { mode: 0o600 });
    renameSync(temporary, cacheFile);
    // The newest few (other builds, Node versions or flags) stay; older ones are removed.
    const caches = readdirSync(directory)
      .filter((entry) => entry.startsWith(prefix) && entry.endsWith('.v8'))
      .map((entry) => ({
        path: join(directory, entry),
        time: statSync(join(directory, entry)).mtimeMs,
      }))
      .sort((a, b) => b.time - a.time);
    for (const { path } of caches.slice(CACHES_KEPT)) rmSync(path, { force: true });
  } catch {
    // A directory that cannot be written means no cache, not a failed command.
    try {
      rmSync(temporary, { force: true });
    } catch {
      // Nothing was written there.
    }
  }
}
