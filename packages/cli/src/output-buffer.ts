// The output of one `--atomic` run, held back until the input is known good: a malformed line
// near the end of a large input must not leave half a result on stdout. Up to a bound it is kept
// in memory; beyond it, in a temporary file (mode 0600), so memory stays bounded however much
// matches. The file is removed whichever way the process ends: normally, on an error, when stdout
// closes (| head), or on SIGINT, SIGTERM, SIGHUP or SIGPIPE.
import { closeSync, mkdtempSync, openSync, readSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const MEMORY_BYTES = 16 * 1024 * 1024;

/** Temporary directories of every live buffer, removed at exit whatever ends the process. */
const live = new Set<string>();
let hooked = false;

function removeLive(): void {
  for (const dir of live) rmSync(dir, { recursive: true, force: true });
  live.clear();
}

/** Exit statuses of a process ended by a signal, as a shell reports them (128 + number). */
const SIGNALS = { SIGINT: 130, SIGTERM: 143, SIGHUP: 129, SIGPIPE: 141 } as const;

function hookExit(): void {
  if (hooked) return;
  hooked = true;
  process.once('exit', removeLive);
  for (const [signal, status] of Object.entries(SIGNALS)) {
    process.once(signal as NodeJS.Signals, () => {
      removeLive();
      process.exit(status);
    });
  }
}

export class OutputBuffer {
  private chunks: string[] = [];
  private bytes = 0;
  private spill: { dir: string; fd: number } | undefined;

  constructor(private readonly memoryBytes = MEMORY_BYTES) {}

  write(text: string): void {
    this.chunks.push(text);
    this.bytes += text.length;
    if (this.bytes >= this.memoryBytes) this.flushToSpill();
  }

  /** Writes everything held to `out` (in order) and releases the temporary file. */
  async drainTo(write: (chunk: string | Buffer) => Promise<void>): Promise<void> {
    try {
      if (this.spill) {
        this.flushToSpill();
        const buffer = Buffer.alloc(1024 * 1024);
        let position = 0;
        for (;;) {
          const read = readSync(this.spill.fd, buffer, 0, buffer.length, position);
          if (read === 0) break;
          position += read;
          await write(Buffer.from(buffer.subarray(0, read)));
        }
      } else if (this.chunks.length > 0) {
        await write(this.chunks.join(''));
      }
    } finally {
      this.discard();
    }
  }

  /** Forgets the output (the input turned out malformed). */
  discard(): void {
    this.chunks = [];
    this.bytes = 0;
    if (this.spill) {
      closeSync(this.spill.fd);
      rmSync(this.spill.dir, { recursive: true, force: true });
      live.delete(this.spill.dir);
      this.spill = undefined;
    }
  }

  private flushToSpill(): void {
    if (!this.spill) {
      hookExit();
      const dir = mkdtempSync(join(tmpdir(), 'listkit-output-'));
      live.add(dir);
      this.spill = { dir, fd: openSync(join(dir, 'output'), 'w+', 0o600) };
    }
    if (this.chunks.length > 0) writeSync(this.spill.fd, this.chunks.join(''));
    this.chunks = [];
    this.bytes = 0;
  }
}
