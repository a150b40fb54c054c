// The runnable examples of docs/query-builders.md (run by test/doc-examples.test.ts) also
// type-check: each `ts run` block is compiled by tsc under test/tsconfig.json's settings, in a
// temporary directory outside the checkout (its node_modules linked to the repository's).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, expect, it } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));
const DOCS = ['docs/query-builders.md'];
const work = mkdtempSync(join(tmpdir(), 'listkit-doc-types-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

it('type-checks the runnable examples of the query builders page', () => {
  symlinkSync(join(root, 'node_modules'), join(work, 'node_modules'), 'dir');
  const files: string[] = [];
  for (const doc of DOCS) {
    const blocks = [...readFileSync(join(root, doc), 'utf8').matchAll(/```ts run\n([\s\S]*?)```/g)];
    blocks.forEach((block, i) => {
      const file = join(work, `${doc.replace(/\W/g, '_')}_${i}.ts`);
      // A module of its own (top-level await), as the example runs.
      writeFileSync(file, `${block[1]}\nexport {};\n`);
      files.push(file);
    });
  }
  expect(files.length).toBeGreaterThanOrEqual(3);
  writeFileSync(
    join(work, 'tsconfig.json'),
    JSON.stringify({
      extends: join(root, 'test/tsconfig.json'),
      include: files,
      compilerOptions: { baseUrl: join(root, 'test') },
    }),
  );
  const tsc = spawnSync(
    process.execPath,
    [join(root, 'node_modules/typescript/bin/tsc'), '-p', join(work, 'tsconfig.json'), '--noEmit'],
    { encoding: 'utf8' },
  );
  expect(tsc.status, `${tsc.stdout}${tsc.stderr}`).toBe(0);
}, 120_000);
