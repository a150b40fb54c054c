// The layering of both packages, checked from the imports (`pnpm lint` runs it as
// `pnpm lint:layers`). Arrows point down the floors; nothing imports a floor above its own, and
// no module reaches itself again through its imports.
//
// @listkit/service (docs/service-layout.md):
//   app         emulator*.ts, serve-*.ts, cli.ts, index.ts, schema.ts   (composes everything)
//   edge        http/, auth/, control/, emulator-state.ts, emulator-controls.ts, and in each
//               resource folder its *-routes.ts and *-permissions.ts   (speaks HTTP)
//   store       store/                   (composes the per-resource stores into EmulatorStore)
//   resources   global-forwarding-rules/ → forwarding-rules/ → operations/;  orders/;  state/
//               (domain + store port + memory and SQL implementations; a rule write records its
//               operation, so forwarding rules sit above operations; global rules are the
//               regional ones' domain and store in the global scope, with their own target
//               rules; resources otherwise do not meet)
//   db          db/                      (PGlite, its thread, PostgreSQL, lock, timeouts, statistics)
//   names       names/                   (resource names and URLs)
//   core        core/                    (clock, ids, the domain refusal, Compute's wording)
//
// @listkit/query (docs/query-layout.md):
//   entries     index.ts, sql.ts, kysely.ts, drizzle.ts, typeorm.ts, proto.ts, re2-wasm.ts,
//               list-method.ts (re-exports only)
//   adapters    list-method/ (over list/),  kysely/, drizzle/, typeorm/ (query builders, over sql/)
//   engines     list/ (in memory)  ←  sql/ (PostgreSQL)
//   paging      page-token/
//   language    filter/ (regex/ inside)  ←  order-by/, explain/
//   schema      schema/ (sources/ inside)
//   base        errors.ts
const SRC = '^packages/service/src/';
const EDGE_IN_RESOURCE = '-(routes|permissions)\\.ts$';
const RESOURCES = '(global-forwarding-rules|forwarding-rules|operations|orders|state)/';
const APP = `${SRC}(emulator|emulator-app|emulator-server|serve-command|serve-config|serve-prepare|cli|index|schema)\\.ts$`;
const EDGE = [
  `${SRC}(http|auth|control)/`,
  `${SRC}emulator-(state|controls)\\.ts$`,
  `${SRC}${RESOURCES}.*${EDGE_IN_RESOURCE}`,
];

/** A rule: modules matching `from` import nothing matching `to`. */
const forbid = (name, comment, from, to) => ({
  name,
  comment,
  severity: 'error',
  from,
  to,
});

// @listkit/query's floors, bottom up; each may import its own and those below.
const Q = '^packages/query/src/';
const Q_ENTRY = `${Q}(index|sql|kysely|drizzle|typeorm|proto|re2-wasm|list-method)\\.ts$`;
/** The query builders' adapters: Kysely, Drizzle and TypeORM, each over sql/. */
const Q_BUILDERS = 'kysely|drizzle|typeorm';
const Q_SQL_SIDE = [`${Q}(sql|${Q_BUILDERS})/`, `${Q}(sql|${Q_BUILDERS})\\.ts$`];
/** Everything of the query package that is not in `allowed` (folders or root files). */
const queryOutside = (...allowed) => ({
  path: Q,
  pathNot: allowed.map((a) => (a.endsWith('.ts') ? `${Q}${a.replace('.', '\\.')}$` : `${Q}${a}/`)),
});
const queryRules = [
  {
    name: 'query-no-circular',
    comment: 'No module of @listkit/query reaches itself through its imports (types included).',
    severity: 'error',
    from: { path: Q },
    to: { circular: true },
  },
  forbid(
    'query-errors-is-the-floor',
    'errors.ts (ListkitError, the one error) imports nothing else of the package.',
    { path: `${Q}errors\\.ts$` },
    queryOutside('errors.ts'),
  ),
  forbid(
    'query-schema-over-errors-only',
    'schema/ (field types, values, schema sources) knows no filter, order or list.',
    { path: `${Q}schema/` },
    queryOutside('schema', 'errors.ts'),
  ),
  forbid(
    'query-filter-over-schema-only',
    'filter/ (lexer, parser, checker, compiler, regex engines) is read by order-by/ and explain/, never the reverse.',
    { path: `${Q}filter/` },
    queryOutside('filter', 'schema', 'errors.ts'),
  ),
  forbid(
    'query-language-below-paging',
    'order-by/, explain/ and field-mask/ build on filter/ and schema/ only.',
    { path: `${Q}(order-by|explain|field-mask)/` },
    queryOutside('order-by', 'explain', 'field-mask', 'filter', 'schema', 'errors.ts'),
  ),
  forbid(
    'query-page-tokens-below-the-engines',
    'page-token/ binds a query (filter, orderBy) into tokens; it knows no engine.',
    { path: `${Q}page-token/` },
    queryOutside('page-token', 'order-by', 'filter', 'schema', 'errors.ts'),
  ),
  forbid(
    'query-memory-engine-below-sql',
    'list/ (Collection, access paths, page size) knows nothing of SQL or of the adapters.',
    { path: `${Q}list/` },
    queryOutside(
      'list',
      'page-token',
      'order-by',
      'explain',
      'field-mask',
      'filter',
      'schema',
      'errors.ts',
    ),
  ),
  forbid(
    'query-core-imports-no-sql',
    'sql/ and the query builders are only reached through their entries: the core never imports them.',
    { path: Q, pathNot: Q_SQL_SIDE },
    { path: `${Q}(sql|${Q_BUILDERS})/` },
  ),
  forbid(
    'query-sql-below-its-adapter',
    'sql/ plans for each SQL dialect; the query-builder adapters and the list-method glue sit above it.',
    { path: `${Q}sql/` },
    { path: `${Q}(${Q_BUILDERS}|list-method)/` },
  ),
  forbid(
    'query-list-method-over-list',
    'list-method/ (request in, response and Google errors out) stands on list/, not on SQL.',
    { path: `${Q}list-method/` },
    { path: `${Q}(${Q_BUILDERS})/` },
  ),
  forbid(
    'query-nothing-imports-an-entry',
    'Entries are the top floor: they re-export rooms, and no module (entry or room) imports one.',
    { path: Q },
    { path: Q_ENTRY },
  ),
  forbid(
    'query-optional-engines-behind-their-entry',
    'protobufjs, re2-wasm and the query builders load only through @listkit/query/proto, /re2-wasm, /kysely, /drizzle and /typeorm, so the main entry stays browser-safe and light.',
    { path: Q_ENTRY, pathNot: `${Q}(proto|re2-wasm|${Q_BUILDERS})\\.ts$` },
    {
      path: [
        `${Q}schema/sources/proto/(from-protobufjs|schema-from-proto)\\.ts$`,
        `${Q}filter/regex/re2-wasm-engine\\.ts$`,
        `${Q}(${Q_BUILDERS})/`,
      ],
      reachable: true,
    },
  ),
];

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'No module reaches itself through its imports (types included).',
      severity: 'error',
      from: { path: SRC },
      to: { circular: true },
    },
    forbid(
      'core-is-the-floor',
      'core/ imports nothing else of the service.',
      { path: `${SRC}core/` },
      { path: SRC, pathNot: `${SRC}core/` },
    ),
    forbid(
      'names-over-core-only',
      'names/ builds on core/ only.',
      { path: `${SRC}names/` },
      { path: SRC, pathNot: `${SRC}(core|names)/` },
    ),
    forbid(
      'db-over-core-only',
      'db/ is database plumbing: it knows no resource.',
      { path: `${SRC}db/` },
      { path: SRC, pathNot: `${SRC}(core|db)/` },
    ),
    forbid(
      'domain-speaks-no-http',
      'A resource domain or store refuses with core/refusal.ts; only the edge speaks HTTP.',
      { path: `${SRC}${RESOURCES}`, pathNot: EDGE_IN_RESOURCE },
      { path: [`${SRC}(store|http|auth|control)/`, ...EDGE.slice(1), APP] },
    ),
    forbid(
      'operations-below-forwarding-rules',
      'Operations know no resource that records them.',
      { path: `${SRC}operations/`, pathNot: EDGE_IN_RESOURCE },
      { path: `${SRC}(global-forwarding-rules|forwarding-rules|orders|state)/` },
    ),
    forbid(
      'regional-below-global-forwarding-rules',
      'Regional forwarding rules know nothing of the global ones built on them.',
      { path: `${SRC}forwarding-rules/`, pathNot: EDGE_IN_RESOURCE },
      { path: `${SRC}global-forwarding-rules/` },
    ),
    forbid(
      'orders-and-state-alone',
      'Orders and the emulator state meet no other resource.',
      { path: `${SRC}(orders|state)/`, pathNot: EDGE_IN_RESOURCE },
      {
        path: `${SRC}(global-forwarding-rules|forwarding-rules|operations|orders|state)/`,
        pathNot: `${SRC}$1/`,
      },
    ),
    forbid(
      'store-composes-below-the-edge',
      'store/ composes resource stores; it knows nothing of HTTP or the app.',
      { path: `${SRC}store/` },
      { path: [...EDGE, APP] },
    ),
    forbid(
      'edge-below-the-app',
      'The edge does not import the app that composes it.',
      { path: EDGE },
      { path: APP },
    ),
    forbid(
      'production-code-imports-no-tests',
      'Production modules import no test and no test support.',
      { path: [SRC, Q], pathNot: '\\.test\\.ts$' },
      { path: ['\\.test\\.ts$', '^test/'] },
    ),
    ...queryRules,
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: ['\\.test\\.ts$', '(^|/)dist/'] },
    tsPreCompilationDeps: true,
  },
};
