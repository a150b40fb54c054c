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
// Then the tarballs are installed together into a project outside the checkout (pnpm, from the
// store the workspace install filled, the registry only for what is missing there), as a user
// would install them, and used: an ES module program imports every entry of @listkit/query
// and lists from the emulator on a PGlite data directory (its worker thread is a file of the
// package); a CommonJS TypeScript program is compiled by tsc under `module: node16` (no
// skipLibCheck) and run; `listkit filter` runs from the installed bin.
//
// attw profiles: `@listkit/query` ships ESM and CJS, so it is checked with `node16` (ESM and CJS
// importers under node16/nodenext, and bundler). That profile leaves out `node10`
// (`moduleResolution: node`), which does not read `exports` and so cannot see the subpath
// entries (`@listkit/query/sql`) at all. `@listkit/service` and `listkit` are ESM only (top-level
// await, and their dependencies PGlite and hono are ESM), so they are checked with `esm-only`,
// which also leaves out CommonJS importers: `require()` of them is not supported, by design.
import { spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { publint } from 'publint';
import { formatMessage } from 'publint/utils';

const root = fileURLToPath(new URL('..', import.meta.url));

const PACKAGES = [
  { dir: 'packages/query', profile: 'node16', built: 'dist/index.cjs' },
  { dir: 'packages/service', profile: 'esm-only', built: 'dist/index.js' },
  { dir: 'packages/cli', profile: 'esm-only', built: 'dist/bin.js' },
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

/** The tarball of each package packed so far, by its directory. */
const packedTarballs = new Map();

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
  packedTarballs.set(dir, tarball);

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

// The consumer programs. Each asserts what it needs and exits non-zero otherwise.
const ESM_PROGRAM = `
import assert from 'node:assert/strict';
import { compileFilter, defineSchema, t } from '@listkit/query';
import { readListRequest } from '@listkit/query/list-method';
import { schemaFromProto } from '@listkit/query/proto';
import { sqlTable } from '@listkit/query/sql';
import { createEmulator } from '@listkit/service';
const schema = defineSchema({ key: 'name', fields: { name: t.string(), size: t.int64() } });
assert.equal(compileFilter('size > 3', schema).matches({ name: 'a', size: 5 }), true);
assert.equal(readListRequest(new URLSearchParams('pageSize=2')).pageSize, 2);
assert.equal(typeof sqlTable, 'function');
assert.equal(typeof schemaFromProto, 'function');
const emulator = await createEmulator({ dataDir: process.argv[2] });
try {
  const url = await emulator.listen(0);
  const rules = url + '/compute/v1/projects/p/regions/us-east1/forwardingRules';
  const headers = { authorization: 'Bearer x', 'content-type': 'application/json' };
  const insert = await fetch(rules, { method: 'POST', headers, body: JSON.stringify({ name: 'web', IPProtocol: 'TCP' }) });
  assert.equal(insert.status, 200);
  const list = await (await fetch(rules + '?filter=name%20eq%20web', { headers })).json();
  assert.deepEqual(list.items.map((r) => r.name), ['web']);
} finally {
  await emulator.close();
}
`;
const CJS_PROGRAM = `
import { compileFilter, defineSchema, t } from '@listkit/query';
import { toGoogleError } from '@listkit/query/list-method';
import { sqlTable } from '@listkit/query/sql';
const schema = defineSchema({ key: 'name', fields: { name: t.string(), size: t.int64() } });
if (!compileFilter('size > 3', schema).matches({ name: 'a', size: 5 })) throw new Error('no match');
if (typeof sqlTable !== 'function' || typeof toGoogleError !== 'function') {
  throw new Error('an entry is missing');
}
`;
const TSCONFIG = {
  compilerOptions: {
    module: 'node16',
    moduleResolution: 'node16',
    strict: true,
    outDir: 'out',
    types: [],
  },
  files: ['consumer.cts'],
};

/** Installs the packed tarballs into a new project in `work` and uses them; returns the problems. */
function checkInstalled(work) {
  const app = join(work, 'consumer');
  mkdirSync(app);
  const tarball = (dir) => packedTarballs.get(dir);
  writeFileSync(
    join(app, 'package.json'),
    JSON.stringify({ name: 'consumer', private: true, type: 'module' }),
  );
  // The service's tarball names @listkit/query 0.1.0, which is not on the registry: the
  // overrides point each workspace package at its tarball, as a published release would.
  writeFileSync(
    join(app, 'pnpm-workspace.yaml'),
    [
      'allowBuilds:',
      '  protobufjs: false',
      'overrides:',
      `  "@listkit/query": "file:${tarball('packages/query')}"`,
      `  "@listkit/service": "file:${tarball('packages/service')}"`,
      '',
    ].join('\n'),
  );
  const installed = run(
    'pnpm',
    ['add', '--prefer-offline', ...PACKAGES.map((p) => tarball(p.dir))],
    app,
  );
  if (installed.status !== 0) return [`pnpm add of the tarballs failed:\n${installed.output}`];

  const problems = [];
  writeFileSync(join(app, 'consumer.mjs'), ESM_PROGRAM);
  const esm = run(process.execPath, ['consumer.mjs', join(app, 'data')], app);
  if (esm.status !== 0) problems.push(`the ES module consumer failed:\n${esm.output}`);

  writeFileSync(join(app, 'consumer.cts'), CJS_PROGRAM);
  writeFileSync(join(app, 'tsconfig.json'), JSON.stringify(TSCONFIG));
  const tsc = run(
    process.execPath,
    [join(root, 'node_modules/typescript/bin/tsc'), '-p', '.'],
    app,
  );
  if (tsc.status !== 0) problems.push(`tsc (module node16) on a CommonJS consumer:\n${tsc.output}`);
  else {
    const cjs = run(process.execPath, ['out/consumer.cjs'], app);
    if (cjs.status !== 0) problems.push(`the CommonJS consumer failed:\n${cjs.output}`);
  }

  const filtered = spawnSync(join(app, 'node_modules/.bin/listkit'), ['filter', 'size > 3'], {
    cwd: app,
    input: '[{"name":"a","size":5},{"name":"b","size":1}]',
    encoding: 'utf8',
  });
  if (filtered.status !== 0 || filtered.stdout.trim() !== '{"name":"a","size":5}') {
    problems.push(`the installed listkit filter printed:\n${filtered.stdout}${filtered.stderr}`);
  }
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
  if (!failed) {
    const problems = checkInstalled(work);
    if (problems.length === 0) {
      console.log(
        'ok   installed outside the checkout: ES module, CommonJS under node16, the listkit bin',
      );
    } else {
      failed = true;
      console.error('FAIL installed outside the checkout');
      for (const problem of problems) console.error(`  - ${problem.replaceAll('\n', '\n    ')}`);
    }
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
