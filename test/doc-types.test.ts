// Every ```ts block of the docs type-checks (README.md, packages/*/README.md, docs/*.md), runnable
// (`ts run`, `ts serve`) or not, under `strict` and `exactOptionalPropertyTypes`: a reader pasting
// an example into a strict project must not meet a type error the docs hid.
//
// Each block is one module, checked in memory (nothing is written) as if it were a file in docs/,
// with `@listkit/*` resolved to the packages' sources. A fragment (a block that is not a whole
// program: a route handler, one call) uses names it does not declare (`app`, `books`, `schema`);
// they are declared once per Markdown file in docs/examples/<file>.d.ts (README.md's in
// docs/examples/README.d.ts, packages/query/README.md's in docs/examples/query-README.d.ts), a
// script of `declare const …` whose declarations every block of that file sees. A block the
// context cannot make whole is a doc to fix, not to skip: there is no opt-out marker.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));

interface Block {
  /** `file:line` of the fence. */
  where: string;
  /** The virtual path the block is checked as. */
  path: string;
  code: string;
  /** The context declarations of its Markdown file, if any. */
  context?: string;
}

function markdownFiles(): string[] {
  const packages = readdirSync(join(root, 'packages')).map((p) => `packages/${p}/README.md`);
  const docs = readdirSync(join(root, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`);
  return ['README.md', ...packages, ...docs].filter((f) => existsSync(join(root, f)));
}

/** The context file of a Markdown file: docs/examples/<name>.d.ts. */
function contextOf(file: string): string | undefined {
  const name = file.startsWith('packages/')
    ? `${file.split('/')[1]}-README`
    : basename(file, '.md');
  const path = join(root, 'docs/examples', `${name}.d.ts`);
  return existsSync(path) ? path : undefined;
}

/**
 * The one block not checked, and why: Prisma's client is generated at install time (its engines
 * are downloaded then), which our machines cannot do, so docs/query-builders.md shows Prisma's
 * `$queryRaw` route on paper and says it is untested (issue 35). It is named here, not marked in
 * the doc, so that the exception cannot grow unseen; a test below checks it is still there.
 */
const UNCHECKED = { file: 'docs/query-builders.md', imports: "from '@prisma/client'" };
const isUnchecked = (file: string, body: string) =>
  file === UNCHECKED.file && body.includes(UNCHECKED.imports);

function blocksOf(file: string): Block[] {
  const blocks: Block[] = [];
  const context = contextOf(file);
  let open: { fence: string; info: string; line: number; body: string[] } | undefined;
  readFileSync(join(root, file), 'utf8')
    .split('\n')
    .forEach((text, i) => {
      if (open) {
        if (!text.startsWith(open.fence)) {
          open.body.push(text);
          return;
        }
        const body = open.body.join('\n');
        if (/^ts( run| serve)?$/.test(open.info) && !isUnchecked(file, body)) {
          // A block without imports or exports is still a module of its own.
          const code = /^\s*(import|export)\s/m.test(body) ? body : `${body}\nexport {};`;
          blocks.push({
            where: `${file}:${open.line}`,
            path: join(root, 'docs/examples', `${file.replaceAll('/', '__')}__${open.line}.ts`),
            code: `${code}\n`,
            ...(context ? { context } : {}),
          });
        }
        open = undefined;
        return;
      }
      const fence = /^(`{3,})(.*)$/.exec(text);
      if (fence) open = { fence: fence[1]!, info: (fence[2] ?? '').trim(), line: i + 1, body: [] };
    });
  return blocks;
}

const OPTIONS: ts.CompilerOptions = {
  strict: true,
  // NestJS's decorators (docs/list-method.md) are TypeScript's legacy decorators, which every Nest
  // project compiles with; no other block uses decorators.
  experimentalDecorators: true,
  exactOptionalPropertyTypes: true,
  noUncheckedIndexedAccess: false,
  noEmit: true,
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.ESNext,
  moduleResolution: ts.ModuleResolutionKind.Bundler,
  lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'],
  types: ['node'],
  typeRoots: [join(root, 'node_modules/@types')],
  skipLibCheck: true,
  esModuleInterop: true,
  allowImportingTsExtensions: false,
  baseUrl: root,
  paths: {
    '@listkit/query': ['packages/query/src/index.ts'],
    '@listkit/query/list-method': ['packages/query/src/list-method.ts'],
    '@listkit/query/proto': ['packages/query/src/proto.ts'],
    '@listkit/query/re2-wasm': ['packages/query/src/re2-wasm.ts'],
    '@listkit/query/sql': ['packages/query/src/sql.ts'],
    '@listkit/query/kysely': ['packages/query/src/kysely.ts'],
    '@listkit/query/drizzle': ['packages/query/src/drizzle.ts'],
    '@listkit/query/typeorm': ['packages/query/src/typeorm.ts'],
    '@listkit/service': ['packages/service/src/index.ts'],
  },
};

/**
 * Type-checks every block in one program (the packages' sources are checked once) and returns
 * the diagnostics of each block, by its `where`. Each block sees its own file's context only:
 * blocks of files with different contexts go to separate programs.
 */
function check(blocks: Block[]): Map<string, string[]> {
  const found = new Map<string, string[]>(blocks.map((b) => [b.where, []]));
  const byContext = new Map<string, Block[]>();
  for (const block of blocks) {
    const key = block.context ?? '';
    byContext.set(key, [...(byContext.get(key) ?? []), block]);
  }
  for (const [context, group] of byContext) {
    const virtual = new Map(group.map((b) => [b.path, b]));
    const host = ts.createCompilerHost(OPTIONS);
    const { getSourceFile, fileExists, readFile } = host;
    host.fileExists = (f) => virtual.has(f) || fileExists.call(host, f);
    host.readFile = (f) => virtual.get(f)?.code ?? readFile.call(host, f);
    host.getSourceFile = (f, language, ...rest) => {
      const block = virtual.get(f);
      return block
        ? ts.createSourceFile(f, block.code, language, true)
        : getSourceFile.call(host, f, language, ...rest);
    };
    const names = [...virtual.keys(), ...(context ? [context] : [])];
    const program = ts.createProgram(names, OPTIONS, host);
    for (const d of ts.getPreEmitDiagnostics(program)) {
      // The packages' own sources are checked by `pnpm typecheck` under their own options; a
      // reader meets their declarations, not their bodies.
      if (d.file && !virtual.has(d.file.fileName) && d.file.fileName !== context) continue;
      const block = d.file ? virtual.get(d.file.fileName) : undefined;
      const text = ts.flattenDiagnosticMessageText(d.messageText, '\n');
      const at =
        d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start) : undefined;
      const where = block?.where ?? group[0]!.where;
      const line = at ? ` line ${at.line + 1}` : '';
      found
        .get(where)!
        .push(
          `TS${d.code}${line}${block ? '' : ` (in ${d.file?.fileName ?? 'options'})`}: ${text}`,
        );
    }
  }
  return found;
}

const blocks = markdownFiles().flatMap(blocksOf);

describe('every ```ts example in the docs', () => {
  it('is found in the README, the package READMEs and docs/', () => {
    expect(blocks.length).toBeGreaterThan(20);
  });

  it('leaves out only the Prisma block, which is still in its doc', () => {
    const text = readFileSync(join(root, UNCHECKED.file), 'utf8');
    expect(text.split(UNCHECKED.imports).length - 1).toBe(1);
  });

  it('type-checks under strict and exactOptionalPropertyTypes', () => {
    const problems = [...check(blocks)].filter(([, p]) => p.length > 0);
    expect(problems.map(([where, p]) => `${where}:\n  ${p.join('\n  ')}`).join('\n')).toBe('');
  }, 300_000);
});
