// `listkit serve` as users start it: a child process of a bundled CLI (bundle-service.ts), on a
// free loopback port, its URL read from the line it prints once it listens.
import { type ChildProcess, spawn } from 'node:child_process';

/** A started `listkit serve`: its URL, its process, and what it printed on stderr until it listened. */
export interface ServeProcess {
  url: string;
  child: ChildProcess;
  printed: string;
}

/** Every serving process started here and not exited yet, for a test file's `afterAll` to end. */
export const servingProcesses = new Set<ChildProcess>();

/**
 * Starts `node cli serve --port 0 flags…` with `env` over this process's environment; resolves
 * once it listens, or rejects with what it printed (and its exit status as `code`) if it exits
 * first.
 */
export function startServe(
  cli: string,
  flags: readonly string[],
  env: Record<string, string> = {},
): Promise<ServeProcess> {
  const child = spawn(process.execPath, [cli, 'serve', '--port', '0', ...flags], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  servingProcesses.add(child);
  child.on('exit', () => servingProcesses.delete(child));
  return new Promise((resolve, reject) => {
    let printed = '';
    child.stderr!.on('data', (chunk: Buffer) => {
      printed += chunk.toString();
      const url = /listkit emulator on (http:\/\/\S+)/.exec(printed)?.[1];
      if (url) resolve({ url, child, printed });
    });
    child.on('exit', (code) => reject(Object.assign(new Error(printed), { code })));
  });
}
