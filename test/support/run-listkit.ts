// The `listkit` command run as users run it: a child process of the bundled CLI, with its output
// and exit status, and (on request) the peak resident memory the process reached.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
  /** The process's peak resident set size in bytes (`process.resourceUsage().maxRSS`), if asked. */
  peakRss?: number;
}

/** A module preloaded into the child: on exit it writes its peak RSS to LISTKIT_PEAK_RSS_FILE. */
const PEAK_RSS_PRELOAD = fileURLToPath(new URL('./peak-rss-on-exit.cjs', import.meta.url));

/**
 * Runs `node cli args` with NO_COLOR set, `stdin` written to its standard input (none: an
 * empty input); `measureRss` adds the peak RSS of the run, read by the child itself as it exits (so it
 * covers the whole run, however short).
 */
export function runListkit(
  cli: string,
  args: string[],
  options: { env?: Record<string, string>; measureRss?: boolean; stdin?: string | Buffer } = {},
): Promise<Run> {
  const dir = options.measureRss ? mkdtempSync(join(tmpdir(), 'listkit-rss-')) : undefined;
  const rssFile = dir ? join(dir, 'peak-rss') : undefined;
  return new Promise<Run>((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [...(rssFile ? ['--require', PEAK_RSS_PRELOAD] : []), cli, ...args],
      {
        env: {
          ...process.env,
          NO_COLOR: '1',
          ...options.env,
          ...(rssFile ? { LISTKIT_PEAK_RSS_FILE: rssFile } : {}),
        },
        stdio: ['pipe', 'pipe', 'pipe'],
      },
    );
    // No stdin given: an empty input, ended at once.
    child.stdin.on('error', () => undefined);
    child.stdin.end(options.stdin ?? '');
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => {
      stdout += d;
    });
    child.stderr.on('data', (d) => {
      stderr += d;
    });
    child.on('error', reject);
    child.on('close', (status) => {
      let peakRss: number | undefined;
      if (rssFile && dir) {
        try {
          peakRss = Number(readFileSync(rssFile, 'utf8'));
        } catch {
          peakRss = undefined; // the process died before its exit handler ran
        }
        rmSync(dir, { recursive: true, force: true });
      }
      resolve({ status, stdout, stderr, ...(rssFile ? { peakRss } : {}) });
    });
  });
}
