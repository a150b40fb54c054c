// The layering of @listkit/service, checked from the imports (`pnpm lint` runs it; see
// docs/service-layout.md). Arrows point down the floors; nothing imports a floor above its own,
// and no module reaches itself again through its imports.
//
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
const SRC = '^packages/service/src/';
const EDGE_IN_RESOURCE = '-(routes|permissions)\\.ts$';
const RESOURCES = '(global-forwarding-rules|forwarding-rules|operations|orders|state)/';
const APP = `${SRC}(emulator|emulator-app|emulator-server|serve-command|serve-config|cli|index|schema)\\.ts$`;
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
      { path: SRC, pathNot: '\\.test\\.ts$' },
      { path: ['\\.test\\.ts$', '^packages/service/test-support/'] },
    ),
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: ['\\.test\\.ts$', '(^|/)dist/'] },
    tsPreCompilationDeps: true,
  },
};
