// @ts-check
/**
 * Creates a PGlite database in a directory (PGlite's initdb) and exits: `node pglite-create.js
 * <dir>`. pglite-thread.ts runs it as a process of its own before it starts the thread that
 * serves a new directory. initdb runs a second PGlite instance and copies its heap: the serving
 * process peaked at 870 MB and kept ~500 MB of it (in a thread of its own, still ~100 MB of
 * allocator arenas); a process gives all of it back when it exits.
 *
 * Plain JavaScript, not TypeScript, so the same file runs from the sources (tests) and from dist
 * (tsup copies it as an entry of its own).
 */
import { PGlite } from '@electric-sql/pglite';

const dataDir = process.argv[2];
if (!dataDir) throw new Error('usage: node pglite-create.js <data directory>');
const db = await PGlite.create(dataDir);
await db.close();
