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
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleFromSources } from './support/bundle-service.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const RUNNABLE = /^(ts|js|sh) run$/;

interface Example {
  /** Where the block starts, as `file:line`. */
  where: string;
  lang: 'ts' | 'js' | 'sh';
  code: string;
}

/** The Markdown files whose examples are checked, relative to the root (every package has a README). */
function markdownFiles(): string[] {
  const packages = readdirSync(join(root, 'packages')).map((p) => `packages/${p}/README.md`);
  const docs = readdirSync(join(root, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`);
  return ['README.md', ...packages, ...docs];
}

/** The blocks of one file marked runnable. A `run` marker on another language is an error. */
function examplesIn(file: string): Example[] {
  const examples: Example[] = [];
  let open: { fence: string; info: string; line: number; body: string[] } | undefined;
  readFileSync(join(root, file), 'utf8')
    .split('\n')
    .forEach((text, i) => {
      if (open) {
        if (!text.startsWith(open.fence)) open.body.push(text);
        else {
          if (RUNNABLE.test(open.info)) {
            examples.push({
              where: `${file}:${open.line}`,
              lang: open.info.split(' ')[0] as Example['lang'],
              code: `${open.body.join('\n')}\n`,
            });
          } else if (/\brun\b/.test(open.info)) {
            throw new Error(
              `${file}:${open.line}: \`${open.info}\` is not ts run, js run or sh run`,
            );
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

function run(command: string, args: string[]): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: work,
      env: {
        ...process.env,
        PATH: `${bin}:${process.env.PATH}`,
        HOME: home,
        XDG_CONFIG_HOME: join(home, '.config'),
        LISTKIT_PAGE_TOKEN_SECRETS: '',
        NODE_OPTIONS: '',
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
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, output }));
  });
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
}, 60_000);

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
    60_000,
  );
});
