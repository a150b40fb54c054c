import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

// The public surface of both packages, read from their entry points with the TypeScript checker
// (no build needed): each entry exports exactly the names listed in SURFACE (a change to the
// surface is a change to this list, made on purpose), every export is documented with an
// @example, and no exported declaration mentions a type of the package that is not itself
// exported (it would appear in dist/*.d.ts as an undocumented, unimportable name).

const root = (path: string) => fileURLToPath(new URL(`../${path}`, import.meta.url));

/**
 * Every entry point and the names it exports, sorted. `@listkit/query` (the root) leaves the
 * PostgreSQL planner to its own entry, `@listkit/query/sql`.
 */
const SURFACE: Record<string, string[]> = {
  'packages/query/src/index.ts': [
    'AccessPath',
    'AipFilter',
    'AndNode',
    'ArgNode',
    'BoundPageQuery',
    'CallArg',
    'CallNode',
    'CheckResourceOptions',
    'CheckResult',
    'CheckedNode',
    'CheckedVisitor',
    'Collection',
    'CollectionOptions',
    'ComparableNode',
    'Comparator',
    'CompileOptions',
    'CompiledFilter',
    'CompiledRegex',
    'CompositeNode',
    'DEFAULT_FIELD_MASK_LIMITS',
    'DEFAULT_FILTER_LIMITS',
    'DEFAULT_REGEX_CACHE_BYTES',
    'Duration',
    'EmptyFilter',
    'EnumType',
    'ExpressionNode',
    'FieldMask',
    'FieldMaskLimits',
    'FieldMaskOptions',
    'FieldNames',
    'FieldOptions',
    'FieldRef',
    'FieldType',
    'FieldValue',
    'Fields',
    'FilterAst',
    'FilterClause',
    'FilterLimits',
    'FilterNode',
    'FilterStyle',
    'FilterToken',
    'FilterTokenKind',
    'FilterTrace',
    'FilterVisitor',
    'FunctionDeclaration',
    'FunctionValue',
    'Infer',
    'InferSchemaOptions',
    'Instant',
    'ItemOf',
    'JsonSchemaOptions',
    'ListInput',
    'ListPage',
    'ListPlan',
    'ListRequest',
    'ListkitError',
    'ListkitErrorCode',
    'MapType',
    'MaskSegment',
    'MaskSelection',
    'MemberNode',
    'MessageType',
    'NotNode',
    'Operand',
    'OrNode',
    'OrderBy',
    'OrderByOptions',
    'OrderTerm',
    'PageTokenBinding',
    'PageTokenCodec',
    'PageTokenCodecOptions',
    'ParseOptions',
    'PathStep',
    'Problem',
    'RegexCache',
    'RegexCacheLimits',
    'RegexEngine',
    'RegexFilter',
    'RegexPattern',
    'RegexSyntaxError',
    'RegexTermNode',
    'RegexTooLargeError',
    'RepeatedType',
    'ResourceSchema',
    'RestrictionNode',
    'ScalarKind',
    'ScalarType',
    'ScalarValues',
    'SchemaSourceError',
    'SchemaSourceErrorCode',
    'SchemaSourceOptions',
    'SchemaWarning',
    'Segment',
    'SegmentKind',
    'SequenceNode',
    'Simplify',
    'SortKey',
    'SortValue',
    'SortedIndex',
    'Span',
    'Tokenized',
    'checkFilter',
    'checkResource',
    'checkedChildren',
    'checkedFieldsOf',
    'compileFieldMask',
    'compileFilter',
    'defineSchema',
    'detectFilterStyle',
    'explainFilter',
    'fieldsRead',
    'formatExplanation',
    'formatProblem',
    'inferSchema',
    'listResponseType',
    'parseDuration',
    'parseFieldMask',
    'parseFilter',
    'parseOrderBy',
    'parseSchemaJson',
    'parseTimestamp',
    'printFilter',
    're2jsEngine',
    'resolvePageSize',
    'schemaFromJsonSchema',
    't',
    'tokenize',
    'traceFilter',
    'walkChecked',
    'walkFilter',
  ],
  'packages/query/src/sql.ts': [
    'AddParameter',
    'DEFAULT_SCAN_BUDGET',
    'JsonSql',
    'MAX_PUSHDOWN_REGEX_SIZE',
    'Mysql2Connection',
    'Mysql2Pool',
    'OwnColumnInput',
    'OwnColumnSql',
    'PatternPiece',
    'PgClient',
    'PgPool',
    'PgliteDatabase',
    'SqlColumn',
    'SqlColumnSpec',
    'SqlColumnType',
    'SqlDialect',
    'SqlDialectCapabilities',
    'SqlDialectName',
    'SqlInexactColumn',
    'SqlListOptions',
    'SqlListPlan',
    'SqlListQuery',
    'SqlParamType',
    'SpannerDatabase',
    'SpannerRunnerOptions',
    'SqlPlanOptions',
    'SqlRunner',
    'SqlStatement',
    'SqlStatementLimits',
    'SqlTable',
    'SqlTableOptions',
    'SqliteDatabase',
    'SuggestIndexesOptions',
    'listFromSql',
    'listStatementSettings',
    'mysql2Runner',
    'pgRunner',
    'pgliteRunner',
    'planListQuery',
    'readPlannedPage',
    'regexLiteralFragments',
    'regexLiteralPrefix',
    'regexPushdownSize',
    'simpleQueryText',
    'spannerRunner',
    'sqlDialect',
    'sqlTable',
    'sqliteRunner',
    'suggestIndexes',
    'translateRegex',
  ],
  'packages/query/src/re2-wasm.ts': ['re2WasmEngine'],
  'packages/query/src/kysely.ts': ['KyselyPage', 'kyselyPage', 'kyselySql'],
  'packages/query/src/drizzle.ts': [
    'DrizzleListOptions',
    'DrizzleListTable',
    'DrizzlePage',
    'drizzleListTable',
    'drizzlePage',
    'drizzleSql',
  ],
  'packages/query/src/typeorm.ts': ['typeormPage', 'typeormSql'],
  'packages/query/src/proto.ts': [
    'DescFieldLike',
    'DescMessageLike',
    'ProtoSchemaOptions',
    'schemaFromProto',
  ],
  'packages/query/src/list-method.ts': [
    'BadRequestDetail',
    'ErrorInfoDetail',
    'GoogleError',
    'GoogleErrorOptions',
    'GoogleStatus',
    'ListDialect',
    'ListExtras',
    'ListParameterError',
    'ListParameters',
    'ListRequestSource',
    'ListResponse',
    'ListResponseOptions',
    'ListStyle',
    'Lister',
    'MaskAndSkipOptions',
    'ReadListRequestOptions',
    'RunListRequestOptions',
    'readListRequest',
    'runListRequest',
    'toGoogleError',
    'toListResponse',
  ],
  'packages/service/src/index.ts': [
    'AddressPoolKind',
    'ApiError',
    'AuthConfig',
    'CONTROL_PREFIX',
    'ClashContext',
    'CompressionOptions',
    'ComputeUrls',
    'DEFAULT_COMPUTE_BASE_URL',
    'DEFAULT_SNAPSHOT_LIMITS',
    'Emulator',
    'EmulatorClock',
    'EmulatorControls',
    'EmulatorEnv',
    'EmulatorOptions',
    'EmulatorSnapshots',
    'EmulatorStateStore',
    'EmulatorStore',
    'ErrorItem',
    'FORWARDING_RULE_ENUMS',
    'FaultRule',
    'ForwardingRuleJson',
    'ForwardingRuleStore',
    'LOCK_FILE',
    'MemoryStoreOptions',
    'Money',
    'NewOperation',
    'OperationJson',
    'OperationPolicy',
    'OperationRecord',
    'OperationStore',
    'OrderKind',
    'OrderSeed',
    'OrderState',
    'OrderStore',
    'PgliteDatabaseOptions',
    'PostgresDatabaseOptions',
    'Principal',
    'REFUND_WINDOW_YEARS',
    'REQUEST_LOG_LIMITS',
    'RegionCheck',
    'RegionRef',
    'RequestRecord',
    'RuleWrite',
    'SCHEMA_VERSION',
    'ScopeCheck',
    'ScopeRef',
    'Seed',
    'SnapshotFile',
    'SnapshotInfo',
    'SnapshotLimits',
    'SnapshotShelf',
    'SqlBatchSession',
    'SqlBatchStatement',
    'SqlDatabase',
    'SqlRows',
    'SqlSession',
    'SqlStoreOptions',
    'SqlValue',
    'StatementTimeoutError',
    'StoreError',
    'StoreErrorCode',
    'StoreImage',
    'StoreListRequest',
    'StoreLocation',
    'TokenGrant',
    'TransactionSettings',
    'WriteResult',
    'aggregatedTokenParent',
    'createEmulator',
    'forwardingRuleSchema',
    'isStatementTimeout',
    'isStoreError',
    'lockDataDirectory',
    'migrate',
    'openMemoryStore',
    'openPgliteDatabase',
    'openPostgresDatabase',
    'openSqlStore',
    'openStore',
    'operationSchema',
    'refundDeadline',
    'regionCheckFor',
    'regionParent',
    'sampleForwardingRules',
    'sampleOrders',
    'scopeCheckFor',
    'tokenParent',
  ],
  'packages/service/src/schema.ts': [
    'FORWARDING_RULE_ENUMS',
    'ForwardingRuleJson',
    'forwardingRuleSchema',
    'sampleForwardingRules',
    'seededRandom',
  ],
};
const ENTRIES = Object.keys(SURFACE).map(root);
const SOURCES = [root('packages/query/src/'), root('packages/service/src/')];

const program = ts.createProgram(ENTRIES, {
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  target: ts.ScriptTarget.ES2022,
  strict: true,
  skipLibCheck: true,
  noEmit: true,
});
const checker = program.getTypeChecker();

/** Every public export: its name and the declarations it stands for. */
const exported = ENTRIES.flatMap((entry) => {
  const module = checker.getSymbolAtLocation(program.getSourceFile(entry)!)!;
  return checker.getExportsOfModule(module).map((symbol) => {
    const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
    return { name: symbol.name, symbol: target, declarations: target.declarations ?? [] };
  });
});
const exportedSymbols = new Set(exported.map((e) => e.symbol));

const relative = (file: string) => file.slice(root('').length);

function hasExample(declaration: ts.Declaration): boolean {
  const documented = ts.isVariableDeclaration(declaration)
    ? declaration.parent.parent
    : declaration;
  return ts.getJSDocTags(documented).some((tag) => tag.tagName.text === 'example');
}

/** The package types a declaration's signature names (bodies and private members aside). */
function namedTypes(declaration: ts.Node): ts.Symbol[] {
  const found: ts.Symbol[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isBlock(node)) return; // a function body is not part of the declaration
    const hidden =
      (ts.isPropertyDeclaration(node) ||
        ts.isMethodDeclaration(node) ||
        ts.isParameter(node) ||
        ts.isConstructorDeclaration(node)) &&
      (node.modifiers?.some((m) => m.kind === ts.SyntaxKind.PrivateKeyword) ||
        (!ts.isParameter(node) &&
          !ts.isConstructorDeclaration(node) &&
          ts.isPrivateIdentifier(node.name)));
    if (hidden) return; // d.ts keeps a private member's name only
    if (ts.isVariableDeclaration(node) && node.initializer && !node.type) return;
    if (ts.isTypeReferenceNode(node) || ts.isExpressionWithTypeArguments(node)) {
      const name = ts.isTypeReferenceNode(node) ? node.typeName : node.expression;
      let symbol = checker.getSymbolAtLocation(name);
      if (symbol && symbol.flags & ts.SymbolFlags.Alias) symbol = checker.getAliasedSymbol(symbol);
      if (symbol) found.push(symbol);
    }
    ts.forEachChild(node, visit);
  };
  visit(declaration);
  return found;
}

describe('the public surface', () => {
  it('is what SURFACE lists, entry by entry', () => {
    for (const [entry, names] of Object.entries(SURFACE)) {
      const module = checker.getSymbolAtLocation(program.getSourceFile(root(entry))!)!;
      const actual = checker.getExportsOfModule(module).map((symbol) => symbol.name);
      expect(actual.sort(), entry).toEqual([...names].sort());
    }
  });

  it('keeps the PostgreSQL planner out of the root entry of @listkit/query', () => {
    const rootNames = new Set(SURFACE['packages/query/src/index.ts']);
    const sqlNames = SURFACE['packages/query/src/sql.ts'] ?? [];
    expect(sqlNames.filter((name) => rootNames.has(name))).toEqual([]);
  });

  it('documents every export with an @example', () => {
    const missing = new Set(
      exported
        .filter((e) => e.declarations.length > 0 && !e.declarations.some(hasExample))
        .map((e) => e.name),
    );
    expect([...missing]).toEqual([]);
  });

  it('names no unexported type of the packages in an exported declaration', () => {
    const leaks = new Set<string>();
    for (const { name, declarations } of exported) {
      for (const declaration of declarations) {
        for (const symbol of namedTypes(declaration)) {
          const home = symbol.declarations?.[0]?.getSourceFile().fileName ?? '';
          const inPackages = SOURCES.some((source) => home.startsWith(source));
          // Type parameters and members of the declaration itself are local names.
          const local = symbol.flags & (ts.SymbolFlags.TypeParameter | ts.SymbolFlags.EnumMember);
          if (inPackages && !local && !exportedSymbols.has(symbol)) {
            leaks.add(`${name} names ${symbol.name} (${relative(home)})`);
          }
        }
      }
    }
    expect([...leaks]).toEqual([]);
  });
});
