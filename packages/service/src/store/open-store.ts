import type { PageTokenCodec } from '@listkit/query';
import { openPgliteDatabase } from '../db/pglite-database.js';
import { openPostgresDatabase } from '../db/postgres-database.js';
import { openMemoryStore } from './memory-store.js';
import { openSqlStore } from './sql-store.js';
import type { EmulatorStore } from './store.js';

/**
 * Where the emulator keeps its state.
 *
 * @example
 * ```ts
 * const location: StoreLocation = { kind: 'pglite', dataDir: './listkit-data' };
 * const store = await openStore(location, { pageTokens });
 * ```
 */
export type StoreLocation =
  | { kind: 'memory' }
  /** PGlite persistent in this directory (locked for this process). */
  | { kind: 'pglite'; dataDir: string }
  /** A PostgreSQL server many emulator processes may share. */
  | { kind: 'postgres'; url: string; maxConnections?: number };

/**
 * Opens the store at a location, migrating a database to this build's schema first.
 *
 * @example
 * ```ts
 * const pageTokens = await PageTokenCodec.create({ secrets: [process.env.LISTKIT_PAGE_TOKEN_SECRET!] });
 * const store = await openStore({ kind: 'postgres', url: process.env.LISTKIT_DATABASE_URL! }, { pageTokens });
 * ```
 */
export async function openStore(
  location: StoreLocation,
  options: { pageTokens: PageTokenCodec },
): Promise<EmulatorStore> {
  if (location.kind === 'memory') return openMemoryStore(options);
  const db =
    location.kind === 'pglite'
      ? await openPgliteDatabase(location.dataDir)
      : await openPostgresDatabase(location);
  try {
    return await openSqlStore(db, options);
  } catch (error) {
    await db.close();
    throw error;
  }
}
