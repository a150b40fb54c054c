// Fails when a non-test function of the repository has more than 120 lines inside its body's
// braces (blank and comment lines included, signature and closing brace not). biome's
// noExcessiveLinesPerFunction enforces the same limit but skips some lines (multi-line template
// literals, nested closures), so this counts physical lines from the TypeScript syntax tree.
// Usage: node scripts/check-function-length.mjs [--top N]
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import ts from 'typescript';

const LIMIT = 120;
const top = Number(process.argv[process.argv.indexOf('--top') + 1]) || 0;
const files = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], {
  encoding: 'utf8',
})
  .split('\n')
  .filter(
    (f) =>
      /\.(ts|tsx|mjs|js|cjs)$/.test(f) &&
      !/\.test\.tsx?$/.test(f) &&
      !f.startsWith('test/') &&
      !f.includes('/dist/') &&
      !f.endsWith('.d.ts'),
  );

const rows = [];
for (const file of files) {
  const source = ts.createSourceFile(
    file,
    readFileSync(file, 'utf8'),
    ts.ScriptTarget.Latest,
    true,
  );
  const lineOf = (pos) => source.getLineAndCharacterOfPosition(pos).line;
  const visit = (node) => {
    if (ts.isFunctionLike(node) && node.body && ts.isBlock(node.body)) {
      const body = lineOf(node.body.getEnd()) - lineOf(node.body.getStart()) - 1;
      const name = node.name?.getText() ?? node.parent?.name?.getText?.() ?? '(anonymous)';
      rows.push({ body, where: `${file}:${lineOf(node.getStart()) + 1} ${name}` });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
}
rows.sort((a, b) => b.body - a.body);
const over = rows.filter((r) => r.body > LIMIT);
for (const r of top > 0 ? rows.slice(0, top) : over) console.log(`${r.body} lines  ${r.where}`);
if (over.length > 0) {
  console.error(`${over.length} non-test function(s) over ${LIMIT} body lines: split them.`);
  process.exit(1);
}
console.log(`${rows.length} non-test functions, none over ${LIMIT} body lines.`);
