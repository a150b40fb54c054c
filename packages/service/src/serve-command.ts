// `listkit serve`: the emulator as a process, with sample data, logging one JSON line per request.
// The `listkit` bin (packages/cli) and this package's own dist/cli.js both run it.
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import type { AuthConfig } from './auth/auth.js';
import type { Seed } from './control/seed.js';
import { createEmulator, type Emulator } from './emulator.js';
import { sampleForwardingRules } from './forwarding-rules/sample-forwarding-rules.js';
import { mountPlayground } from './http/playground-static.js';
import type { OperationPolicy } from './operations/operation-policy.js';
import { sampleOrders } from './orders/sample-orders.js';
import {
  ConfigError,
  exposureWarning,
  parseAuthConfig,
  parsePageTokenSecrets,
} from './serve-config.js';
import { prepareNewDataDir } from './serve-prepare.js';

const USAGE = `usage: listkit serve [options]

  --port <n>              port to listen on (default 8787; 0 picks a free one)
  --host <addr>           address to listen on (default 127.0.0.1, loopback only)
  --base-url <url>        base of links in answers (default https://www.googleapis.com/compute/v1/)
  --no-sample-data        start empty instead of with 300 generated forwarding rules and 6 orders
  --auth-config <file>    strict auth: JSON {"tokens": {"<token>": {"identity", "scopes", "permissions"}},
                          "controlToken": "<secret>"} (also LISTKIT_AUTH_CONFIG); without it any
                          bearer token is accepted. In strict mode the control plane (/_listkit)
                          needs the control token (or LISTKIT_CONTROL_TOKEN) and is off without one.
  --allowed-host <name>   also accept this Host header (name or name:port; repeatable; also
                          LISTKIT_ALLOWED_HOSTS, comma-separated). IP literals and localhost on the
                          served port are always accepted; other names get 403 (DNS rebinding).
  --operation-policy <p>  immediate | polls:<n> | duration:<ms> (default immediate)
  --data-dir <dir>        keep rules, operations and orders in PGlite in <dir> (created if absent;
                          survives restarts; one emulator per directory). Default: in memory.
  --database <url>        keep them in PostgreSQL (postgres://user@host/db; also
                          LISTKIT_DATABASE_URL), which several emulators may share: give them the
                          same LISTKIT_PAGE_TOKEN_SECRETS so page tokens move between them.
  --from-snapshot <file>  start from a snapshot file (GET /_listkit/snapshots/{name}, or one
                          --save-on-exit wrote) instead of the sample data; it is also kept
                          under its name, to restore again (POST /_listkit/snapshots/{name}:restore)
  --save-on-exit <file>   on SIGINT or SIGTERM, write the whole state to <file> as a snapshot
                          file (named on-exit) before stopping
  --prepare-only          make the --data-dir or --database ready as a start does (its tables,
                          the sample data if it is new, the --from-snapshot state) and exit
                          without serving; a new --data-dir is made ready this way, in a process
                          of its own, before it is served

  Page-token secrets come from LISTKIT_PAGE_TOKEN_SECRETS (comma-separated, newest first, at least
  16 bytes each); without it each start draws a random secret.`;

function fail(message: string): never {
  console.error(`listkit: ${message}\n\n${USAGE}`);
  process.exit(2);
}

/** The auth configuration (`--auth-config`, LISTKIT_AUTH_CONFIG, LISTKIT_CONTROL_TOKEN) and the page-token secrets; bad ones stop with usage. */
function authAndSecrets(authConfig: string | undefined): {
  auth: AuthConfig;
  secrets: string[] | undefined;
} {
  const authFile = authConfig ?? process.env.LISTKIT_AUTH_CONFIG;
  const controlTokenFromEnv = process.env.LISTKIT_CONTROL_TOKEN || undefined;
  let auth: AuthConfig = { mode: 'open' };
  let secrets: string[] | undefined;
  try {
    if (authFile) {
      let config: unknown;
      try {
        config = JSON.parse(readFileSync(authFile, 'utf8'));
      } catch (error) {
        throw new ConfigError(`--auth-config ${authFile}: ${(error as Error).message}`);
      }
      auth = parseAuthConfig(config, `--auth-config ${authFile}`, controlTokenFromEnv);
    } else if (controlTokenFromEnv !== undefined) {
      auth = { mode: 'open', controlToken: controlTokenFromEnv };
    }
    secrets = parsePageTokenSecrets(process.env.LISTKIT_PAGE_TOKEN_SECRETS);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    fail(error.message);
  }
  return { auth, secrets };
}

/** `--operation-policy immediate | polls:N | duration:MS`. */
function operationPolicyOf(text: string): OperationPolicy {
  const [mode, amount] = text.split(':');
  return mode === 'immediate'
    ? ({ mode } as const)
    : mode === 'polls' && Number(amount) >= 1
      ? ({ mode, polls: Number(amount) } as const)
      : mode === 'duration' && Number(amount) >= 0
        ? ({ mode, ms: Number(amount) } as const)
        : fail(`--operation-policy: '${text}'`);
}

/** The sample data `listkit serve` starts with (none with --no-sample-data). */
function sampleSeed(none: boolean): Seed {
  return {
    forwardingRules: none
      ? []
      : sampleForwardingRules(300).map((rule) => ({
          project: 'my-project',
          region: String(rule.region).split('/').pop()!,
          rule,
        })),
    orders: none ? [] : sampleOrders(Date.now()),
  };
}

/**
 * Runs `listkit serve` with its command-line arguments (after the word `serve`): parses them,
 * starts the emulator and keeps it running until SIGINT or SIGTERM. Bad arguments print the
 * usage and exit with status 2.
 *
 * @example
 * ```ts
 * await serve(['--port', '0', '--no-sample-data']);
 * ```
 */
export async function serve(args: readonly string[]): Promise<void> {
  const { positionals, values } = (() => {
    try {
      return parseArgs({
        args: [...args],
        allowPositionals: true,
        options: {
          port: { type: 'string', default: '8787' },
          host: { type: 'string', default: '127.0.0.1' },
          'base-url': { type: 'string' },
          'no-sample-data': { type: 'boolean', default: false },
          'auth-config': { type: 'string' },
          'allowed-host': { type: 'string', multiple: true, default: [] },
          'operation-policy': { type: 'string', default: 'immediate' },
          'data-dir': { type: 'string' },
          database: { type: 'string' },
          'from-snapshot': { type: 'string' },
          'save-on-exit': { type: 'string' },
          'prepare-only': { type: 'boolean', default: false },
          help: { type: 'boolean', short: 'h', default: false },
        },
      });
    } catch (error) {
      return fail((error as Error).message);
    }
  })();

  if (values.help) {
    console.log(USAGE);
    process.exit(0);
  }
  if (positionals.length > 0) fail(`unexpected argument '${positionals[0]}'`);

  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    fail(`--port: '${values.port}' is not a port`);

  const { auth, secrets } = authAndSecrets(values['auth-config']);
  const allowedHosts = [
    ...(values['allowed-host'] ?? []),
    ...(process.env.LISTKIT_ALLOWED_HOSTS?.split(',').filter(Boolean) ?? []),
  ];

  const policy = operationPolicyOf(values['operation-policy'] ?? 'immediate');

  const dataDir = values['data-dir'];
  const database = values.database ?? (process.env.LISTKIT_DATABASE_URL || undefined);
  if (dataDir !== undefined && database !== undefined)
    fail('--data-dir and --database (or LISTKIT_DATABASE_URL) exclude each other');
  if (database !== undefined && secrets === undefined) {
    console.error(
      'listkit: warning: --database without LISTKIT_PAGE_TOKEN_SECRETS: page tokens of this process will not open on another one sharing the database',
    );
  }

  const fromSnapshot = values['from-snapshot'];
  const noSampleData = (values['no-sample-data'] ?? false) || fromSnapshot !== undefined;
  const seed = sampleSeed(noSampleData);
  const prepareOnly = values['prepare-only'] ?? false;
  if (prepareOnly && dataDir === undefined && database === undefined)
    fail('--prepare-only needs --data-dir or --database: the memory store has nothing to keep');
  if (dataDir !== undefined && !prepareOnly) {
    // What a new directory holds at start depends on these; the snapshot is loaded here, below.
    const shaping = [
      ...['--data-dir', dataDir, '--operation-policy', values['operation-policy'] ?? 'immediate'],
      ...(values['base-url'] !== undefined ? ['--base-url', values['base-url']] : []),
      ...(noSampleData ? ['--no-sample-data'] : []),
    ];
    await prepareNewDataDir(dataDir, shaping).catch((error: unknown) => {
      console.error(`listkit: ${(error as Error).message}`);
      process.exit(1);
    });
  }

  const emulator = await createEmulator({
    ...(dataDir !== undefined ? { dataDir } : {}),
    ...(database !== undefined ? { database } : {}),
    allowedHosts,
    baseUrl: values['base-url'],
    auth,
    operationPolicy: policy,
    pageTokenSecrets: secrets,
    seed,
    log: (record) => console.log(JSON.stringify(record)),
  }).catch((error: unknown) => {
    // A data directory in use, a database that cannot be reached: say so and stop.
    console.error(`listkit: ${(error as Error).message}`);
    process.exit(1);
  });
  if (fromSnapshot !== undefined) await startFrom(emulator, fromSnapshot);
  if (prepareOnly) {
    await emulator.close();
    console.error(`listkit: ${dataDir ?? 'the database'} is ready`);
    return;
  }
  // The browser playground, built into playground/dist by `pnpm build`, at /playground/.
  const playgroundBuilt = mountPlayground(
    emulator.app,
    fileURLToPath(new URL('../../../playground/dist', import.meta.url)),
  );
  const url = await emulator.listen(port, values.host);
  const warning = exposureWarning(values.host ?? '127.0.0.1', auth);
  if (warning) console.error(warning);
  const kept =
    dataDir !== undefined
      ? `data in ${dataDir}`
      : database !== undefined
        ? 'data in PostgreSQL'
        : 'data in memory';
  console.error(
    `listkit emulator on ${url} (auth: ${auth.mode}; ${kept}; sample data: ${seed.forwardingRules?.length ?? 0} forwarding rules in project my-project, ${seed.orders?.length ?? 0} orders of com.example.app${dataDir !== undefined || database !== undefined ? ', loaded into an empty store only' : ''})`,
  );
  console.error(
    `  try: curl -H 'authorization: Bearer x' '${url}/compute/v1/projects/my-project/regions/us-central1/forwardingRules?maxResults=2'`,
  );

  console.error(
    `  playground: ${url}/playground/${playgroundBuilt ? '' : ' (not built yet: run pnpm build)'}`,
  );

  stopOnSignals(emulator, values['save-on-exit']);
}

/** `--from-snapshot`: the state of a snapshot file; one that cannot be read stops with status 1. */
async function startFrom(emulator: Emulator, file: string): Promise<void> {
  try {
    const info = await emulator.snapshots.import(readFileSync(file, 'utf8'));
    console.error(`listkit: started from snapshot '${info.name}' of ${info.takenAt} (${file})`);
  } catch (error) {
    console.error(`listkit: --from-snapshot ${file}: ${(error as Error).message}`);
    await emulator.close();
    process.exit(1);
  }
}

/**
 * Stops on SIGINT and SIGTERM: with `--save-on-exit`, the state is written first (to a file
 * beside the target, then renamed over it, so a stop part-way never leaves half a file).
 */
function stopOnSignals(emulator: Emulator, saveTo: string | undefined): void {
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    let status = 0;
    if (saveTo !== undefined) {
      try {
        const partial = `${saveTo}.${process.pid}.partial`;
        writeFileSync(partial, await emulator.snapshots.current('on-exit'));
        renameSync(partial, saveTo);
        console.error(`listkit: state saved to ${saveTo}`);
      } catch (error) {
        console.error(`listkit: --save-on-exit ${saveTo}: ${(error as Error).message}`);
        status = 1;
      }
    }
    await emulator.close();
    process.exit(status);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}
