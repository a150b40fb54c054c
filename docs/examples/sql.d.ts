// The names docs/sql.md's fragments use (see README.md here): the schema and table of its first
// example, a runner, a database and a client of the drivers it shows.
type Rule = { name: string; creationTimestamp?: string; labels?: Record<string, string> };
declare const schema: import('@listkit/query').ResourceSchema<Rule>;
declare const table: import('@listkit/query/sql').SqlTable<Rule>;
declare const rule: Rule;
declare const run: import('@listkit/query/sql').SqlRunner;
declare const pageTokens: import('@listkit/query').PageTokenCodec;
declare const pool: import('pg').Pool;
declare const client: import('pg').PoolClient;
declare const db: import('kysely').Kysely<Record<string, never>>;
declare const books: import('@listkit/query/sql').SqlTable<{ id: string | number }>;
type SqlRunner = import('@listkit/query/sql').SqlRunner;
declare const sqlTable: typeof import('@listkit/query/sql').sqlTable;
declare const suggestIndexes: typeof import('@listkit/query/sql').suggestIndexes;
declare const listFromSql: typeof import('@listkit/query/sql').listFromSql;
declare const defineSchema: typeof import('@listkit/query').defineSchema;
declare const t: typeof import('@listkit/query').t;
