// Shared set-up for the tests that drive the emulator with the real Google clients, pointed at a
// loopback emulator as /work/shared/reference/real-clients.md §2, §3 and §8 describe.
import {
  ForwardingRulesClient,
  GlobalForwardingRulesClient,
  GlobalOperationsClient,
  RegionOperationsClient,
} from '@google-cloud/compute';
import type { Emulator } from '@listkit/service';
import { googleAuthLibrary } from 'google-gax';
import { google } from 'googleapis';

/** The bearer token every test client sends (the emulator runs in `open` auth mode). */
export const FAKE_TOKEN = 'fake-token';

/**
 * `@google-cloud/compute` clients talking REST to `url` (http://127.0.0.1:PORT). Auth is always
 * given: without it the client would look for Application Default Credentials and probe the GCE
 * metadata server, which is not on loopback.
 */
export function computeClients(url: string): {
  rules: ForwardingRulesClient;
  operations: RegionOperationsClient;
  close(): Promise<void>;
} {
  const options = clientOptions(url);
  const rules = new ForwardingRulesClient(options);
  const operations = new RegionOperationsClient(options);
  return {
    rules,
    operations,
    close: async () => {
      await Promise.all([rules.close(), operations.close()]);
    },
  };
}

/**
 * `@google-cloud/compute`'s clients of global forwarding rules and global operations, set up as
 * {@link computeClients} sets up the regional ones.
 */
export function globalComputeClients(url: string): {
  rules: GlobalForwardingRulesClient;
  operations: GlobalOperationsClient;
  close(): Promise<void>;
} {
  const options = clientOptions(url);
  const rules = new GlobalForwardingRulesClient(options);
  const operations = new GlobalOperationsClient(options);
  return {
    rules,
    operations,
    close: async () => {
      await Promise.all([rules.close(), operations.close()]);
    },
  };
}

/** What every compute client is constructed with to talk REST to the emulator at `url`. */
function clientOptions(url: string) {
  const { hostname, port } = new URL(url);
  // google-gax's own copy of google-auth-library (11.x); googleapis has another one (10.x).
  const authClient = new googleAuthLibrary.OAuth2Client();
  authClient.setCredentials({ access_token: FAKE_TOKEN }); // no expiry_date: never refreshed
  return {
    apiEndpoint: hostname, // host only: the port goes in `port`, which defaults to 443
    port: Number(port),
    protocol: 'http', // default https
    fallback: true, // REST (already the compute client's default)
    authClient,
  };
}

/** googleapis' discovery-based Compute v1 client, with a per-API `rootUrl` at the emulator. */
export function googleapisCompute(url: string) {
  const auth = new google.auth.OAuth2(); // googleapis' own google-auth-library (10.x)
  auth.setCredentials({ access_token: FAKE_TOKEN });
  return google.compute({ version: 'v1', rootUrl: `${url}/`, auth });
}

/** A fresh request id (Compute Engine wants a UUID other than the zero UUID). */
export const newRequestId = (): string => crypto.randomUUID();

/** Runs `fn` and returns what it threw (fails if it did not throw). */
export async function thrown(fn: () => Promise<unknown>): Promise<Record<string, unknown>> {
  try {
    await fn();
  } catch (error) {
    return error as Record<string, unknown>;
  }
  throw new Error('expected the call to fail, but it succeeded');
}

/**
 * Puts `emulator` back where every real-client test starts: no resources, the clock at its
 * start, operations done at once, and no auth checks.
 */
export async function startClean(emulator: Emulator): Promise<void> {
  await emulator.reset();
  emulator.clock.reset();
  emulator.state.operationPolicy = { mode: 'immediate' };
  emulator.state.auth = { mode: 'open' };
}

/** What the polling loop reads of an operation (the compute client's `IOperation`). */
interface PolledOperation {
  name?: string | null;
  status?: unknown;
}

/**
 * The documented Node polling loop: calls `wait` on the operation until it is DONE and returns
 * every answer it saw, `first` first. More than ten answers fail the test rather than hang it.
 */
export async function pollOperation<Op extends PolledOperation>(
  first: Op,
  wait: (op: Op) => Promise<[Op, ...unknown[]]>,
): Promise<Op[]> {
  const seen = [first];
  let op = first;
  while (op.status !== 'DONE') {
    if (seen.length > 10) throw new Error(`operation ${op.name} never completed`);
    [op] = await wait(op);
    seen.push(op);
  }
  return seen;
}
