// The service package as the real-client suites see it when they run over a stored emulator
// (vitest.config.ts, projects `pglite` and `postgres`): everything as exported, except that
// createEmulator keeps its state in a fresh PGlite directory or a fresh PostgreSQL database,
// dropped again when the emulator closes, so suites never see each other's data.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
// The real module, by path: `@listkit/service` itself points here in these projects.
import {
  createEmulator as createMemoryEmulator,
  type Emulator,
  type EmulatorOptions,
} from '../../packages/service/src/index.js';
import { freshPostgresDatabase } from './fresh-postgres.js';

export * from '../../packages/service/src/index.js';

const kind = process.env.LISTKIT_TEST_STORE;

/** createEmulator, over the store this project runs on. */
export async function createEmulator(options: EmulatorOptions = {}): Promise<Emulator> {
  if (kind === 'pglite') {
    const dataDir = mkdtempSync(join(tmpdir(), 'listkit-suite-'));
    const emulator = await createMemoryEmulator({ ...options, dataDir });
    return closing(emulator, async () => rmSync(dataDir, { recursive: true, force: true }));
  }
  if (kind === 'postgres') {
    const database = await freshPostgresDatabase('listkit_test');
    const emulator = await createMemoryEmulator({ ...options, database: database.url });
    return closing(emulator, database.drop);
  }
  return createMemoryEmulator(options);
}

/** The emulator, whose close also removes its data. */
function closing(emulator: Emulator, cleanUp: () => Promise<void>): Emulator {
  const close = emulator.close.bind(emulator);
  return Object.assign(emulator, {
    close: async () => {
      await close();
      await cleanUp();
    },
  });
}
