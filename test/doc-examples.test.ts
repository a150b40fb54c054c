// The examples in the docs that claim to run, run. The convention: a fenced code block whose info
// string is `ts run`, `js run` or `sh run` (```ts run) is a whole program, run as written; every
// other block (```ts, ```sh, …) is a fragment and is not run. Blocks are read from README.md,
// packages/*/README.md and docs/*.md.
//
// A `ts run` or `js run` block is bundled by esbuild from a temporary directory outside the
// checkout, with `@listkit/*` imports resolved to the packages' TypeScript sources (no build
// needed), and run with node. An `sh run` block runs under `bash -e -o pipefail` with `listkit`
// on the PATH (the command bundled from its sources). Each must exit 0; to check what it prints,
// the example asserts it itself (node:assert); LISTKIT_SHOW_EXAMPLE_OUTPUT=1 prints what each
// printed. Examples run in the temporary directory, with HOME and XDG_CONFIG_HOME inside it.
//
// A `ts serve` block is a whole server program: it listens on `Number(process.env.PORT ?? 8080)`
// and answers `GET /v1/shelves/{shelf}/books` as docs/list-method.md describes. It may import
// `./books.js`, the file of the last ```ts block before it in the same doc whose first line is
// `// books.ts` (the doc's own block, not a stand-in). It is bundled like a `ts run` block (with
// TypeScript's legacy decorators, which NestJS's block uses, as its doc says), started with a free
// port in PORT, and once it answers it must list shelf 1's book (200) and refuse `page_size=-1`
// with a Google error body (400, INVALID_ARGUMENT); then it is stopped.
import { spawn } from 'node:child_process';
import {
  chmodSync,
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { type AddressInfo, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleFromSources } from './support/bundle-service.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const RUNNABLE = /^(ts|js|sh) run$|^ts serve$/;
/** The first line of the doc block a `ts serve` block's `./books.js` comes from. */
const BOOKS_BLOCK = '// books.ts';

interface Example {
  /** Where the block starts, as `file:line`. */
  where: string;
  lang: 'ts' | 'js' | 'sh';
  code: string;
  /** A `ts serve` block: a server to start and ask, with its doc's `books.ts` block, if any. */
  serve?: { books?: string };
}

/** The Markdown files whose examples are checked, relative to the root (every package has a README). */
function markdownFiles(): string[] {
  const packages = readdirSync(join(root, 'packages')).map((p) => `packages/${p}/README.md`);
  const docs = readdirSync(join(root, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`);
  return ['README.md', ...packages, ...docs];
}

/**
 * The blocks of one file marked runnable. A `run` or `serve` marker on another language is an
 * error, and so is a `ts serve` block importing `./books.js` with no `books.ts` block before it.
 */
function examplesIn(file: string): Example[] {
  const examples: Example[] = [];
  let books: string | undefined;
  let open: { fence: string; info: string; line: number; body: string[] } | undefined;
  readFileSync(join(root, file), 'utf8')
    .split('\n')
    .forEach((text, i) => {
      if (open) {
        if (!text.startsWith(open.fence)) open.body.push(text);
        else {
          const where = `${file}:${open.line}`;
          const code = `${open.body.join('\n')}\n`;
          if (open.info === 'ts' && open.body[0]?.trim() === BOOKS_BLOCK) books = code;
          if (open.info === 'ts serve') {
            if (code.includes("from './books.js'") && books === undefined)
              throw new Error(
                `${where}: imports ./books.js but no \`${BOOKS_BLOCK}\` block precedes it`,
              );
            examples.push({ where, lang: 'ts', code, serve: books === undefined ? {} : { books } });
          } else if (RUNNABLE.test(open.info)) {
            examples.push({ where, lang: open.info.split(' ')[0] as Example['lang'], code });
          } else if (/\b(run|serve)\b/.test(open.info)) {
            throw new Error(`${where}: \`${open.info}\` is not ts run, js run, sh run or ts serve`);
          }
          open = undefined;
        }
        return;
      }
      const fence = /^(`{3,})(.*)$/.exec(text);
      if (fence)
        open = { fence: fence[1] ?? '```', info: (fence[2] ?? '').trim(), line: i + 1, body: [] };
    });
  return examples;
}

const files = markdownFiles();
const examples = files.flatMap(examplesIn);

const work = mkdtempSync(join(tmpdir(), 'listkit-doc-examples-'));
const bin = join(work, 'bin');
const home = join(work, 'home');

interface Run {
  status: number | null;
  output: string;
}

interface Started {
  /** Resolves when the process ends, with its status and everything it printed. */
  done: Promise<Run>;
  /** What it has printed so far. */
  output: () => string;
  stop: () => void;
}

function start(command: string, args: string[], extraEnv: Record<string, string> = {}): Started {
  const child = spawn(command, args, {
    cwd: work,
    env: {
      ...process.env,
      PATH: `${bin}:${process.env.PATH}`,
      HOME: home,
      XDG_CONFIG_HOME: join(home, '.config'),
      LISTKIT_PAGE_TOKEN_SECRETS: '',
      NODE_OPTIONS: '',
      ...extraEnv,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (d) => {
    output += d;
  });
  child.stderr.on('data', (d) => {
    output += d;
  });
  const done = new Promise<Run>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, output }));
  });
  return { done, output: () => output, stop: () => child.kill('SIGTERM') };
}

const run = (command: string, args: string[]): Promise<Run> => start(command, args).done;

/** A port nothing listens on now, for a server example to take. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/**
 * Left to node to load from node_modules: NestJS requires packages it does not depend on
 * (class-validator, @nestjs/microservices, …) inside `try`, only when they are used, which a bundler
 * cannot follow. Nest projects are not bundled either.
 */
const NOT_BUNDLED = ['@nestjs/*'];

/** How long a server example may take to answer its first request (bundled, on a busy machine). */
const SERVER_START_LIMIT_MS = 90_000;

/** GETs `url` until the server answers, it exits, or the limit passes (then throws). */
async function firstAnswer(url: string, server: Started, exited: () => boolean): Promise<Response> {
  const deadline = Date.now() + SERVER_START_LIMIT_MS;
  for (;;) {
    try {
      return await fetch(url);
    } catch {
      if (exited()) throw new Error(`the server exited before answering:\n${server.output()}`);
      if (Date.now() > deadline)
        throw new Error(`no answer on ${url} in ${SERVER_START_LIMIT_MS} ms:\n${server.output()}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  }
}

/**
 * Bundles a `ts serve` example beside its doc's `books.ts`, starts it on a free port, asks it for
 * shelf 1's books and for a page of size -1, checks the answers, and stops it.
 */
async function serveExample(example: Example, name: string): Promise<void> {
  const dir = join(work, name);
  mkdirSync(dir);
  // Nest's decorators are TypeScript's legacy decorators; the doc tells readers to enable them.
  writeFileSync(
    join(dir, 'tsconfig.json'),
    JSON.stringify({ compilerOptions: { experimentalDecorators: true } }),
  );
  if (example.serve?.books !== undefined) writeFileSync(join(dir, 'books.ts'), example.serve.books);
  writeFileSync(join(dir, 'server.mts'), example.code);
  const program = join(dir, 'server.bundle.mjs');
  await bundleFromSources(join(dir, 'server.mts'), program, 'esm', NOT_BUNDLED);
  const port = await freePort();
  const server = start(process.execPath, [program], { PORT: String(port) });
  let exited = false;
  void server.done.then(() => {
    exited = true;
  });
  const base = `http://127.0.0.1:${port}/v1/shelves/1/books`;
  try {
    const ok = await firstAnswer(base, server, () => exited);
    const why = `${example.where} (its output:\n${server.output()})`;
    expect(ok.status, why).toBe(200);
    const page = (await ok.json()) as { books?: { name?: string }[] };
    expect(
      page.books?.map((b) => b.name),
      why,
    ).toEqual(['shelves/1/books/1']);
    const bad = await fetch(`${base}?page_size=-1`);
    expect(bad.status, why).toBe(400);
    const body = (await bad.json()) as { error?: { code?: number; status?: string } };
    expect(body.error, why).toMatchObject({ code: 400, status: 'INVALID_ARGUMENT' });
  } finally {
    server.stop();
    const { output } = await server.done;
    if (process.env.LISTKIT_SHOW_EXAMPLE_OUTPUT) console.log(`${example.where}:\n${output}`);
  }
}

beforeAll(async () => {
  mkdirSync(bin);
  mkdirSync(home);
  // Bare imports left outside the bundles resolve from the repository's dependencies.
  symlinkSync(join(root, 'node_modules'), join(work, 'node_modules'), 'dir');
  // The PGlite store starts its worker thread, and the process that creates a new database, from
  // files beside the module that starts them.
  for (const started of ['pglite-worker.js', 'pglite-create.js']) {
    copyFileSync(join(root, 'packages/service/src/db', started), join(work, started));
  }
  if (examples.some((e) => e.lang === 'sh')) {
    await bundleFromSources(join(root, 'packages/cli/src/main.ts'), join(work, 'listkit.mjs'));
    const listkit = join(bin, 'listkit');
    writeFileSync(listkit, `#!/bin/sh\nexec "${process.execPath}" "${work}/listkit.mjs" "$@"\n`);
    chmodSync(listkit, 0o755);
  }
}, 120_000);

afterAll(() => {
  rmSync(work, { recursive: true, force: true });
});

describe('runnable examples in the docs', () => {
  it('are marked in the README and in every package README', () => {
    const marked = new Set(examples.map((e) => e.where.split(':')[0]));
    const packages = files.filter((f) => f.startsWith('packages/'));
    expect(packages.length).toBeGreaterThanOrEqual(3);
    for (const file of ['README.md', ...packages]) expect(marked, file).toContain(file);
  });

  it.each(examples.map((e, i) => [e.where, e, i] as const))(
    '%s runs',
    async (_where, example, i) => {
      const name = `example-${i}`;
      if (example.serve) return serveExample(example, name);
      let result: Run;
      if (example.lang === 'sh') {
        const script = join(work, `${name}.sh`);
        writeFileSync(script, example.code);
        result = await run('bash', ['-e', '-o', 'pipefail', script]);
      } else {
        const source = join(work, `${name}.${example.lang === 'ts' ? 'mts' : 'mjs'}`);
        writeFileSync(source, example.code);
        const program = join(work, `${name}.bundle.mjs`);
        await bundleFromSources(source, program);
        result = await run(process.execPath, [program]);
      }
      if (process.env.LISTKIT_SHOW_EXAMPLE_OUTPUT)
        console.log(`${example.where}:\n${result.output}`);
      expect(result.status, `${example.where} exited ${result.status}:\n${result.output}`).toBe(0);
    },
    // A bundle, a start and a request or two: sized for a slow, busy machine.
    180_000,
  );
});
