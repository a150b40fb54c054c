// Checks the packages as they would be published: packs each one (`pnpm pack`, into a temporary
// directory outside the checkout), then on each tarball
//   - its README.md is there, its LICENSE is byte for byte the repository's LICENSE, and its
//     `repository` names its own directory;
//   - publint reports nothing at all (suggestions included, warnings count as errors);
//   - attw (@arethetypeswrong/cli) finds no problem in any entry point, for ESM and CJS importers
//     under node16/nodenext and bundler resolution.
// Needs a build (`pnpm -r run build`; `pnpm check` runs it first), works offline from the
// project's own devDependencies, and writes no tracked file. Exits 1 on any problem.
//
// attw profiles: `@listkit/query` ships ESM and CJS, so it is checked with `node16` (ESM and CJS
// importers under node16/nodenext, and bundler). That profile leaves out `node10`
// (`moduleResolution: node`), which does not read `exports` and so cannot see the subpath
// entries (`@listkit/query/sql`) at all. `@listkit/service` and `listkit` are ESM only (top-level
// await, and their dependencies PGlite and hono are ESM), so they are checked with `esm-only`,
// which also leaves out CommonJS importers: `require()` of them is not supported, by design.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { publint } from 'publint';
import { formatMessage } from 'publint/utils';

const root = fileURLToPath(new URL('..', import.meta.url));

const PACKAGES = [
  { dir: 'packages/query', profile: 'node16', built: 'dist/index.cjs' },
  { dir: 'packages/service', profile: 'esm-only', built: 'dist/index.js' },
  { dir: 'packages/cli', profile: 'esm-only', built: 'dist/cli.js' },
];

const attwBin = join(
  root,
  'node_modules/@arethetypeswrong/cli',
  JSON.parse(readFileSync(join(root, 'node_modules/@arethetypeswrong/cli/package.json'), 'utf8'))
    .bin.attw,
);
const license = readFileSync(join(root, 'LICENSE'));

function run(command, args, cwd) {
  const result = spawnSync(command, args, { cwd, encoding: 'utf8' });
  if (result.error) throw result.error;
  return { status: result.status, output: `${result.stdout}${result.stderr}`.trim() };
}

/** The problems of one package's tarball, as lines of text (none when all is well). */
async function checkPackage({ dir, profile, built }, work) {
  const problems = [];
  if (!existsSync(join(root, dir, built))) {
    return [`${dir}/${built} is missing: run \`pnpm -r run build\` first`];
  }

  const destination = join(work, dir.replaceAll('/', '-'));
  mkdirSync(destination);
  const packed = run('pnpm', ['pack', '--pack-destination', destination], join(root, dir));
  const tarballs = readdirSync(destination).filter((f) => f.endsWith('.tgz'));
  if (packed.status !== 0 || tarballs.length !== 1) {
    return [`pnpm pack failed (status ${packed.status}):\n${packed.output}`];
  }
  const tarball = join(destination, tarballs[0]);

  // The files every package carries.
  const unpacked = join(destination, 'unpacked');
  mkdirSync(unpacked);
  const untar = run('tar', ['-xzf', tarball, '-C', unpacked], root);
  if (untar.status !== 0) return [`tar could not unpack ${tarball}:\n${untar.output}`];
  const files = join(unpacked, 'package');
  const manifest = JSON.parse(readFileSync(join(files, 'package.json'), 'utf8'));
  if (!existsSync(join(files, 'README.md'))) problems.push('the tarball has no README.md');
  if (!existsSync(join(files, 'LICENSE'))) problems.push('the tarball has no LICENSE');
  else if (!readFileSync(join(files, 'LICENSE')).equals(license)) {
    problems.push(`its LICENSE differs from the repository's LICENSE (copy it to ${dir}/LICENSE)`);
  }
  if (manifest.repository?.directory !== dir) {
    problems.push(`package.json repository.directory is not "${dir}"`);
  }

  // publint: every message counts, suggestions included.
  const bytes = readFileSync(tarball);
  const linted = await publint({
    pack: { tarball: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) },
    level: 'suggestion',
    strict: true,
  });
  for (const message of linted.messages) {
    problems.push(
      `publint ${message.type}: ${formatMessage(message, linted.pkg, { color: false })}`,
    );
  }

  // attw on the tarball; --no-definitely-typed keeps it from asking the registry for @types.
  const attw = run(
    process.execPath,
    [
      attwBin,
      tarball,
      '--profile',
      profile,
      '--no-definitely-typed',
      '--format',
      'ascii',
      '--no-color',
      '--no-emoji',
    ],
    root,
  );
  if (attw.status !== 0) problems.push(`attw --profile ${profile}:\n${attw.output}`);

  return problems;
}

const work = mkdtempSync(join(tmpdir(), 'listkit-check-packages-'));
let failed = false;
try {
  for (const pkg of PACKAGES) {
    const problems = await checkPackage(pkg, work);
    if (problems.length === 0) {
      console.log(
        `ok   ${pkg.dir} (publint: no messages; attw --profile ${pkg.profile}: no problems)`,
      );
    } else {
      failed = true;
      console.error(`FAIL ${pkg.dir}`);
      for (const problem of problems) console.error(`  - ${problem.replaceAll('\n', '\n    ')}`);
    }
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
