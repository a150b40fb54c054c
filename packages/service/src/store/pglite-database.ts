import { PGlite } from '@electric-sql/pglite';
import { lockDataDirectory } from './data-dir-lock.js';
import type { SqlDatabase } from './sql-database.js';

/**
 * PGlite (PostgreSQL compiled to WebAssembly) in this process, persistent in `dataDir` (or in
 * memory without one). The directory is locked for this process first: PGlite does not lock it.
 *
 * @example
 * ```ts
 * const db = await openPgliteDatabase('/var/lib/listkit'); // a second opener gets StoreError 'locked'
 * ```
 */
export async function openPgliteDatabase(dataDir?: string): Promise<SqlDatabase> {
  const release = dataDir ? lockDataDirectory(dataDir) : () => undefined;
  let db: PGlite;
  try {
    db = await PGlite.create(dataDir);
  } catch (error) {
    release();
    throw error;
  }
  return {
    kind: 'pglite',
    // PGlite has one connection and runs one transaction at a time.
    transaction: (work) =>
      db.transaction((tx) =>
        work({
          query: async (text, params = []) =>
            (await tx.query<Record<string, unknown>>(text, [...params])).rows as never,
        }),
      ),
    close: async () => {
      try {
        await db.close();
      } finally {
        release();
      }
    },
  };
}
