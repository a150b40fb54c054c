// `listkit`: Google-style list filters for any JSON (`filter`), and the emulator (`serve`). The
// program itself: main.ts runs it as an ES module, bin.ts (the installed bin) as a script with a
// compile cache; both hand in how to load the emulator, an ES module package outside the bundle.
import { availableParallelism } from 'node:os';
import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import { CliError, EXIT } from './cli-error.js';
import type { ConformCommandOptions } from './conform/conform-command.js';
import { protectFilter, unprotectFilter } from './filter-argument.js';
import { type FilterOptions, type OutputFormat, runFilter } from './filter-command.js';
import { runFilterWorker } from './filter-worker.js';
import { DEFAULT_LIMITS, DEFAULT_RESPONSE_DEPTH, MAX_DEPTH_CEILING } from './input-limits.js';
import { isFilterWorkerArgv } from './worker-marker.js';

const EXIT_CODES = `
Exit status:
  0  success (also when nothing matches, and when stdout is closed early, as by | head)
  1  malformed input (named by file, line and column) or a file that cannot be read
  2  bad usage: an unknown option, a bad filter, orderBy, schema or page token`;

const boundedInteger = (flag: string, max: number) => (value: string) => {
  if (!/^\d+$/.test(value) || Number(value) < 1 || Number(value) > max) {
    throw new InvalidArgumentError(`${flag} must be a positive integer (at most ${max})`);
  }
  return Number(value);
};
const positiveInteger = (flag: string) => boundedInteger(flag, 1_000_000_000);

/** The most threads --workers may start. */
const MAX_WORKERS = 64;
/**
 * Threads started when --workers is not given: the machine's cores, at most 4 (each thread
 * holds some 25 MiB of its own; one main thread finding line breaks keeps about that many busy).
 */
const DEFAULT_WORKERS = Math.min(availableParallelism(), 4);

/** Set by {@link runCli}. */
let host: CliHost | undefined;

/** The values of `conform --style`: the list method's styles (`ListStyle`). */
const LIST_STYLES = ['compute', 'aip'];

const program = new Command('listkit')
  .description(
    'Google-style list filters (AIP-160 and Compute Engine regex style) for any JSON, a conformance check of live list endpoints, and a local emulator of Google list APIs.',
  )
  .addHelpText('after', EXIT_CODES)
  .showHelpAfterError('(run with --help for usage)')
  .exitOverride();

program
  .command('filter')
  .description(
    'Filter JSON records with a Google-style list filter: a JSON array, NDJSON, or a list response ' +
      '({"items": [...]} or an AIP-style plural field), from files or stdin (\'-\'); gzip is recognised.',
  )
  .argument(
    '[filter]',
    "the filter, AIP-160 ('labels.env = prod AND size > 3') or regex style ('name eq \"web-.*\"'); empty matches everything",
    '',
  )
  .argument('[files...]', "files to read (default: stdin, also '-')")
  .option('--order-by <orderBy>', "AIP-132 order, such as 'createTime desc, name'")
  .option(
    '--page-size <n>',
    'at most n records; the token of the next page goes to stderr (or nextPageToken with --output json)',
    positiveInteger('--page-size'),
  )
  .option(
    '--page-token <token>',
    'continue after the page that returned this token (same filter, order and files)',
  )
  .option(
    '--schema <file>',
    "the records' schema: listkit schema JSON, a JSON Schema, or a .proto file (with --message); default: inferred from the first records",
  )
  .option(
    '--message <name>',
    'the message of a .proto --schema, such as google.cloud.compute.v1.ForwardingRule',
  )
  .option(
    '--key <path>',
    "the field unique per record (default: 'name', else 'id', else input position)",
  )
  .option(
    '--items <path>',
    "where a JSON document holds the records (default: 'items', or its one array of objects)",
  )
  .addOption(
    new Option('--output <format>', 'how to print matches')
      .choices(['ndjson', 'json', 'table', 'count'])
      .default('ndjson'),
  )
  .option(
    '--fields <mask>',
    "print only these fields, as Google's fields parameter selects them (a,b.c or a,b(c,d))",
  )
  .option('--explain', 'print what the filter means, clause by clause, and exit')
  .option(
    '--sql',
    'print the SQL statement @listkit/query/sql plans for the filter (PostgreSQL unless --dialect), and exit',
  )
  .addOption(
    new Option('--dialect <sql>', 'the SQL dialect --sql plans for')
      .choices(['postgres', 'sqlite', 'mysql', 'spanner'])
      .default('postgres'),
  )
  .option('--print-schema', 'print the schema (given or inferred) as listkit schema JSON, and exit')
  .option(
    '--keep-going',
    'report malformed NDJSON lines (and values the inferred schema cannot read) on stderr and skip them',
  )
  .option(
    '--atomic',
    'print nothing until the whole input is known good (output waits in memory, then a temporary file)',
  )
  .option(
    '--coerce',
    'with --schema, convert what other tools write (0/1 booleans, decimal text for doubles, null for unset) instead of refusing it',
  )
  .option(
    '--sample-size <n>',
    'records read at most to infer a schema (fewer: those that arrived when the reading waits)',
    positiveInteger('--sample-size'),
    10_000,
  )
  .option(
    '--max-record-bytes <n>',
    `the longest record, NDJSON line or run of whitespace held, in bytes`,
    positiveInteger('--max-record-bytes'),
    DEFAULT_LIMITS.maxRecordBytes,
  )
  .option(
    '--max-depth <n>',
    `the deepest nesting of arrays and objects read (at most ${MAX_DEPTH_CEILING})`,
    boundedInteger('--max-depth', MAX_DEPTH_CEILING),
    DEFAULT_LIMITS.maxDepth,
  )
  .option(
    '--workers <n>',
    `threads that read NDJSON lines and a JSON array's elements (at most ${MAX_WORKERS}); 1: the main thread alone (default: ${DEFAULT_WORKERS}, the machine's cores up to 4, once an input passes 1 MiB)`,
    boundedInteger('--workers', MAX_WORKERS),
  )
  .addHelpText(
    'after',
    `
Streaming: without --order-by or paging, each match is written as soon as its record is read
(a JSON array or list response element by element, NDJSON line by line), and the reading waits
while stdout cannot take more. With --atomic nothing is written until the input is known good.
Memory: one record at a time (--max-record-bytes); with --order-by and --page-size only the page
(top-k). A filter starting with '-' (AIP-160's NOT) is read as the filter, not as options.

Examples:
  listkit filter 'labels.env = prod' rules.json
  gcloud compute forwarding-rules list --format=json | listkit filter 'IPProtocol = TCP' --output table
  listkit filter 'createTime > 2025-01-01T00:00:00Z' books.ndjson.gz --order-by 'createTime desc' --page-size 10
  listkit filter 'name eq "web-.*"' rules.json --output count
${EXIT_CODES}`,
  )
  .action(async (filter: string, files: string[], opts: Record<string, unknown>) => {
    filter = unprotectFilter(filter);
    const options: FilterOptions = {
      orderBy: opts.orderBy as string | undefined,
      pageSize: opts.pageSize as number | undefined,
      pageToken: opts.pageToken as string | undefined,
      schema: opts.schema as string | undefined,
      message: opts.message as string | undefined,
      key: opts.key as string | undefined,
      items: opts.items as string | undefined,
      output: opts.output as OutputFormat,
      fields: opts.fields as string | undefined,
      explain: Boolean(opts.explain),
      sql: Boolean(opts.sql),
      sqlDialect: opts.dialect as FilterOptions['sqlDialect'],
      printSchema: Boolean(opts.printSchema),
      keepGoing: Boolean(opts.keepGoing),
      atomic: Boolean(opts.atomic),
      coerce: Boolean(opts.coerce),
      sampleSize: opts.sampleSize as number,
      maxRecordBytes: opts.maxRecordBytes as number,
      maxDepth: opts.maxDepth as number,
      workers: (opts.workers as number | undefined) ?? DEFAULT_WORKERS,
      workersGiven: opts.workers !== undefined,
      ...(host?.workerScript ? { workerScript: host.workerScript } : {}),
    };
    process.exitCode = await runFilter(filter, files, options, {
      write,
      error: (line) => console.error(line),
    });
  });

const CONFORM_EXIT_CODES = `
Exit status:
  0  every check that applies passed (checks skipped, or filters and orderBys the server does
     not support, do not count against it)
  1  at least one check failed
  2  bad usage: an unknown option, a bad URL (or one with user:password@), header, schema or
     --mutate recipe
  3  the run stopped: the target unreachable or not a list, a response over --max-response-size
     or nested too deep, the listing over --max-listing-size, a request timed out, or
     --max-requests or --max-time reached`;

program
  .command('conform')
  .description(
    'Check a live Google-style list endpoint: paging (AIP-158), filtering (AIP-160, with listkit evaluating ' +
      'each filter over the full listing), ordering (AIP-132), partial responses (fields) and skip, when ' +
      'the server has them; prints a report (--json for machines).',
  )
  .argument(
    '<url>',
    'the collection URL, such as http://127.0.0.1:8080/compute/v1/projects/p/regions/r/forwardingRules',
  )
  .addOption(
    new Option(
      '--style <style>',
      'compute: maxResults/pageToken, items in items; aip: pageSize/pageToken, items in the plural field (default: compute)',
    ).choices(LIST_STYLES),
  )
  // The former name of --style, kept working for scripts written before SQL dialects arrived.
  .addOption(
    new Option('--dialect <style>', 'deprecated: use --style').choices(LIST_STYLES).hideHelp(),
  )
  .option(
    '--items-field <name>',
    "aip: the answer's field holding the items (default: its one array)",
  )
  .option(
    '--header <header>',
    "a request header 'Name: value' (repeatable)",
    (value: string, previous: string[] | undefined) => [...(previous ?? []), value],
  )
  .option(
    '--bearer-env <var>',
    'send Authorization: Bearer with the token in this environment variable',
  )
  .option(
    '--schema <file>',
    "the items' schema as in listkit filter (listkit schema JSON, JSON Schema, or .proto with --message); default: inferred from the full listing",
  )
  .option('--message <name>', 'the message of a .proto --schema')
  .option('--key <path>', "the field unique per item (default: 'name', else 'id')")
  .option(
    '--max-filters <n>',
    'filters to generate and compare',
    positiveInteger('--max-filters'),
    40,
  )
  .option(
    '--max-requests <n>',
    'stop the run after this many requests',
    positiveInteger('--max-requests'),
    2000,
  )
  .option(
    '--rate <n>',
    'at most n requests per second (default: no limit)',
    positiveInteger('--rate'),
  )
  .option('--timeout <seconds>', 'per-request timeout', positiveInteger('--timeout'), 30)
  .option(
    '--max-time <seconds>',
    'stop the whole run after this many seconds (cleanup of --mutate still runs)',
    positiveInteger('--max-time'),
    600,
  )
  .option(
    '--max-response-size <MiB>',
    'the largest response body read, after inflating gzip',
    positiveInteger('--max-response-size'),
    16,
  )
  .option(
    '--max-listing-size <MiB>',
    'what one walk of every page may hold (bodies, plus 16 bytes per object or array)',
    positiveInteger('--max-listing-size'),
    16,
  )
  .option(
    '--max-depth <n>',
    `the deepest nesting of arrays and objects a response may have (at most ${MAX_DEPTH_CEILING})`,
    boundedInteger('--max-depth', MAX_DEPTH_CEILING),
    DEFAULT_RESPONSE_DEPTH,
  )
  .option('--seed <n>', 'the seed of the generated filters', positiveInteger('--seed'), 1)
  .option(
    '--mutate <recipe>',
    'also walk pages while creating and deleting items, as the recipe file (JSON) says; writes to the server',
  )
  .option('--json', 'print one JSON object {target, checks, summary}')
  .addHelpText(
    'after',
    `
Without --mutate only the given URL is requested (with its own query parameters, plus filter,
orderBy, the page size and pageToken); nothing is written to the server.

With --mutate RECIPE, a recipe such as
  {"create": {"method": "POST", "url": "{{collection}}", "body": {"name": "{{name}}", "IPProtocol": "TCP"}},
   "delete": {"method": "DELETE", "url": "{{collection}}/{{name}}"},
   "wait": {"url": "{{collection}}/{{name}}", "attempts": 20, "intervalMs": 250}}
creates 10 items named listkit-conform-<random>-<tag> in all, walks pages of 2 while deleting
and creating some of them around the cursor, and deletes every item it created, even when the
run fails or stops; it never deletes anything else. Its requests count in --max-requests.
The recipe's fields and what the check asserts: docs/conform.md.

Examples:
  listkit conform http://127.0.0.1:8080/compute/v1/projects/p/regions/us-central1/forwardingRules
  listkit conform https://example.googleapis.com/v1/projects/p/books --style aip --bearer-env TOKEN --json
  listkit conform http://127.0.0.1:8080/compute/v1/projects/p/regions/us-central1/forwardingRules --bearer-env TOKEN --mutate recipe.json
${CONFORM_EXIT_CODES}`,
  )
  .action(async (url: string, opts: Record<string, unknown>) => {
    const options: ConformCommandOptions = {
      style: (opts.style ?? opts.dialect ?? 'compute') as ConformCommandOptions['style'],
      itemsField: opts.itemsField as string | undefined,
      header: (opts.header as string[] | undefined) ?? [],
      bearerEnv: opts.bearerEnv as string | undefined,
      schema: opts.schema as string | undefined,
      message: opts.message as string | undefined,
      key: opts.key as string | undefined,
      maxFilters: opts.maxFilters as number,
      maxRequests: opts.maxRequests as number,
      rate: opts.rate as number | undefined,
      timeout: opts.timeout as number,
      maxTime: opts.maxTime as number,
      maxResponseSize: opts.maxResponseSize as number,
      maxListingSize: opts.maxListingSize as number,
      maxDepth: opts.maxDepth as number,
      ...(opts.mutate !== undefined ? { mutate: opts.mutate as string } : {}),
      seed: opts.seed as number,
      json: Boolean(opts.json),
    };
    // Loaded only for this command: `listkit filter` starts without it.
    const { runConform } = await import('./conform/conform-command.js');
    process.exitCode = await runConform(url, options, {
      write: (text) => write(text),
      error: (line) => console.error(line),
      colour: Boolean(process.stdout.isTTY) && !process.env.NO_COLOR,
    });
  });

program
  .command('serve')
  .description(
    'run the emulator (Compute Engine forwarding rules, Android Publisher refunds); listkit serve --help lists its options',
  )
  .helpOption(false)
  .allowUnknownOption()
  .allowExcessArguments()
  .argument('[options...]')
  .action(async (args: string[]) => {
    const { serve } = await host!.importServe();
    await serve(args);
  });

/** Writes to stdout, waiting when its buffer is full. */
function write(chunk: string | Buffer): Promise<void> {
  return new Promise((resolve) => {
    if (process.stdout.write(chunk)) resolve();
    else process.stdout.once('drain', resolve);
  });
}

/** What the program needs from the module that starts it. */
export interface CliHost {
  /** Loads the emulator's `listkit serve` (an ES module, so outside a script bundle). */
  importServe(): Promise<typeof import('@listkit/service/serve')>;
  /**
   * The module that starts the program (its path): `listkit filter`'s worker threads start
   * from it too, and {@link runCli} there runs the worker instead of the command line.
   */
  workerScript?: string;
}

/**
 * Runs `listkit` with the command line `argv` (`process.argv`); sets `process.exitCode`.
 *
 * @example
 * ```ts
 * await runCli(process.argv, { importServe: () => import('@listkit/service/serve') });
 * ```
 */
export async function runCli(argv: string[], cliHost: CliHost): Promise<void> {
  if (isFilterWorkerArgv(argv) && runFilterWorker()) return;
  host = cliHost;
  // A reader that stops early (| head) closes the pipe: that ends the command quietly.
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(EXIT.ok);
    throw error;
  });
  try {
    await program.parseAsync(protectFilter(argv));
  } catch (error) {
    if (error instanceof CommanderError) {
      process.exitCode = error.exitCode === 0 ? EXIT.ok : EXIT.usage;
    } else if (error instanceof CliError) {
      console.error(
        error.status === EXIT.usage && error.message.includes('\n')
          ? error.message
          : `listkit: ${error.message}`,
      );
      process.exitCode = error.status;
    } else if (error instanceof RangeError && /call stack/.test(error.message)) {
      // A safety net: --max-depth keeps input within the stack, but a message beats a stack trace.
      console.error('listkit: the input is nested too deep for this process; lower --max-depth');
      process.exitCode = EXIT.input;
    } else {
      throw error;
    }
  }
}
