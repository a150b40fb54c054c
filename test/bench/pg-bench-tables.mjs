// What test/bench/sql.mjs and sql-page-split.mjs share: the PostgreSQL client that keeps exact
// types as text, the one-message runner, and the name of a kept table of rules, so that the
// split bench finds the tables sql.mjs loaded.
import { simpleQueryText, sqlTable } from '@listkit/query/sql';
import { forwardingRuleSchema } from '@listkit/service';
import pg from 'pg';

/** int8, numeric, timestamp, interval: read as their text, as listFromSql's readers expect. */
const EXACT_AS_TEXT = new Set([20, 1700, 1114, 1184]);

/** A connected node-postgres client that leaves exact types as text. */
export async function openExactClient(url) {
  const client = new pg.Client({
    connectionString: url,
    types: {
      getTypeParser: (oid, format) =>
        EXACT_AS_TEXT.has(oid) ? (v) => v : pg.types.getTypeParser(oid, format),
    },
  });
  await client.connect();
  return client;
}

/** One message: the settings and the statement as one simple query (one implicit transaction). */
export const oneQueryRunner = (client) => async (statements) => {
  const results = await client.query(simpleQueryText(statements));
  return (Array.isArray(results) ? results.at(-1) : results).rows;
};

/** The rules' table in a layout, named by a hash of the layout (a changed layout loads afresh). */
export function benchTable(size, documentType) {
  const options = { required: ['creationTimestamp'], documentType };
  const layout = sqlTable(forwardingRuleSchema, { ...options, table: 'x' });
  const hash = [...layout.createTable()].reduce((h, c) => (h * 31 + c.charCodeAt(0)) >>> 0, 7);
  return sqlTable(forwardingRuleSchema, {
    ...options,
    table: `bench_rules_${size}_${hash.toString(36)}`,
  });
}
