// A database of its own on the LISTKIT_PG_URL server, for a test or a suite that must not see
// another's data: created on demand, dropped (with any sessions still on it) when asked.
import { randomBytes } from 'node:crypto';
import pg from 'pg';

/**
 * Creates a database named `<prefix>_<random>` on the LISTKIT_PG_URL server; returns its URL and
 * how to drop it.
 */
export async function freshPostgresDatabase(
  prefix: string,
): Promise<{ url: string; drop: () => Promise<void> }> {
  const server = process.env.LISTKIT_PG_URL;
  if (!server) throw new Error('a fresh PostgreSQL database needs LISTKIT_PG_URL');
  const name = `${prefix}_${randomBytes(6).toString('hex')}`;
  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: server });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  await admin(`CREATE DATABASE ${name}`);
  const url = new URL(server);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: () => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
  };
}
