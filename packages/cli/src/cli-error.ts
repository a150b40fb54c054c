// How `listkit` ends: one error type carrying the documented exit status, so every command
// reports failures the same way (a message on stderr, nothing half-written on stdout).

/** Exit statuses of the `listkit` command, as documented in `listkit --help` and docs/cli.md. */
export const EXIT = {
  ok: 0,
  /** Malformed input, a file that cannot be read, or another I/O failure. */
  input: 1,
  /** Bad usage: an unknown option, a bad filter, orderBy, schema or page token. */
  usage: 2,
} as const;

/** A failure to report on stderr and end the process with `status`. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}
