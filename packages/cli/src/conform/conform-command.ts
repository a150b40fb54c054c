// `listkit conform URL`: checks a live Google-style list endpoint against AIP-158 paging, AIP-160
// filtering (listkit evaluates each filter over the full listing) and AIP-132 ordering.
import type { SchemaWarning } from '@listkit/query';
import type { ListStyle } from '@listkit/query/list-method';
import { CliError, EXIT } from '../cli-error.js';
import { type SchemaChoice, schemaFromFile, schemaFromSample } from '../schema-choice.js';
import { type Check, keyOf, runChecks, walk } from './checks.js';
import { ConformClient, RunStopped, type Target } from './conform-client.js';
import { markConsequences } from './full-listing-check.js';
import { checkRecipeUrls, mutateCheck, type Recipe, readRecipe } from './mutate.js';

const MiB = 1024 * 1024;

/** Exit statuses of `listkit conform`. */
export const CONFORM_EXIT = {
  ok: 0,
  /** At least one check failed. */
  failed: 1,
  usage: EXIT.usage,
  /**
   * The run stopped: the target unreachable or not a list, a response over a cap or nested too
   * deep, a request timed out, or --max-requests or --max-time reached.
   */
  stopped: 3,
} as const;

export interface ConformCommandOptions {
  style: ListStyle;
  itemsField?: string;
  header: string[];
  bearerEnv?: string;
  schema?: string;
  message?: string;
  key?: string;
  maxFilters: number;
  maxRequests: number;
  rate?: number;
  timeout: number;
  /** The whole run's time, in seconds. */
  maxTime: number;
  /** The largest response body read, in MiB (after inflating gzip). */
  maxResponseSize: number;
  /** What one walk of every page may hold, in MiB. */
  maxListingSize: number;
  /** The deepest nesting of arrays and objects a response may have. */
  maxDepth: number;
  seed: number;
  /** A recipe file: run the check that writes (creates and deletes items). */
  mutate?: string;
  json: boolean;
}

export interface ConformIo {
  write(text: string): Promise<void>;
  error(line: string): void;
  /** Whether to colour the text report. */
  colour: boolean;
}

/** A check as --json prints it: every field present (`details` {} and `curl` null when none). */
export interface ReportedCheck {
  group: Check['group'];
  name: string;
  status: Check['status'];
  cause: string;
  details: Record<string, unknown>;
  curl: string | null;
}

export interface ConformReport {
  target: {
    url: string;
    style: ListStyle;
    /** @deprecated The same as `style`, under its former name; kept for readers of old reports. */
    dialect: ListStyle;
    items: number;
    requests: number;
    schemaKey: string;
  };
  checks: ReportedCheck[];
  summary: {
    pass: number;
    fail: number;
    skip: number;
    notSupported: number;
    /** Failures that follow from a broken full listing (`details.consequenceOf`), of `fail`. */
    consequences: number;
    ok: boolean;
    stopped?: string;
  };
}

/** The conformance target: a http(s) URL, its headers, and the bearer token from the environment. */
function targetOf(url: string, options: ConformCommandOptions): Target {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new CliError(`'${withoutUserinfo(url)}' is not a URL`, EXIT.usage);
  }
  if (parsed.username !== '' || parsed.password !== '') {
    // They would travel in every curl command and message of the report: refused, unprinted.
    parsed.username = '';
    parsed.password = '';
    throw new CliError(
      `'${parsed.href}': the URL holds credentials (user:password@), which listkit does not send or print; give them with --header or --bearer-env`,
      EXIT.usage,
    );
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new CliError(`'${url}': only http and https URLs`, EXIT.usage);
  }
  const headers: Record<string, string> = {};
  for (const header of options.header) {
    const at = header.indexOf(':');
    if (at <= 0) throw new CliError(`--header '${header}': expected 'Name: value'`, EXIT.usage);
    headers[header.slice(0, at).trim()] = header.slice(at + 1).trim();
  }
  if (options.bearerEnv !== undefined) {
    const token = process.env[options.bearerEnv];
    if (!token) throw new CliError(`--bearer-env ${options.bearerEnv}: not set`, EXIT.usage);
    headers.Authorization = `Bearer ${token}`;
  }
  const target: Target = {
    url: parsed,
    style: options.style,
    ...(options.itemsField ? { itemsField: options.itemsField } : {}),
    headers,
    ...(options.bearerEnv ? { bearerEnv: options.bearerEnv } : {}),
  };
  return target;
}

/** Text given as a URL with anything before an `@` in its authority (credentials) left out. */
const withoutUserinfo = (text: string) =>
  text.replace(/^([a-z][a-z0-9+.-]*:\/*)[^/?#]*@/i, '$1<credentials>@');

/** The report of a run: its checks (with the mutate check's skip when it did not run) and summary. */
function reportOf(
  checks: Check[],
  run: {
    parsed: URL;
    options: ConformCommandOptions;
    items: number;
    schemaKey: string;
    stopped: string | undefined;
    recipe: Recipe | undefined;
    client: ConformClient;
  },
): ConformReport {
  const { parsed, options, items, schemaKey, stopped, recipe, client } = run;
  if (!recipe) {
    checks.push({
      group: 'mutate',
      name: 'a walk while items are created and deleted around its cursor',
      status: 'SKIP',
      cause: 'not run: it writes to the server; give --mutate RECIPE to run it',
      details: { notRun: true },
    });
  } else if (stopped !== undefined && !checks.some((c) => c.group === 'mutate')) {
    checks.push({
      group: 'mutate',
      name: 'a walk while items are created and deleted around its cursor',
      status: 'SKIP',
      cause: 'not finished: the run stopped',
      details: { notRun: true },
    });
  }
  const consequences = markConsequences(checks);
  const count = (status: Check['status']) => checks.filter((c) => c.status === status).length;
  const summary: ConformReport['summary'] = {
    pass: count('PASS'),
    fail: count('FAIL'),
    skip: count('SKIP'),
    notSupported: checks.filter((c) => c.details?.notSupported === true).length,
    consequences,
    ok: stopped === undefined && count('FAIL') === 0,
    ...(stopped !== undefined ? { stopped } : {}),
  };
  const report: ConformReport = {
    target: {
      url: parsed.href,
      style: options.style,
      dialect: options.style,
      items,
      requests: client.requests,
      schemaKey,
    },
    checks: checks.map((c) => ({
      group: c.group,
      name: c.name,
      status: c.status,
      cause: c.cause,
      details: c.details ?? {},
      curl: c.curl ?? null,
    })),
    summary,
  };
  return report;
}

export async function runConform(
  url: string,
  options: ConformCommandOptions,
  io: ConformIo,
): Promise<number> {
  const target = targetOf(url, options);
  const parsed = target.url;
  const warn = (w: SchemaWarning) =>
    io.error(`listkit: warning: schema: ${w.at}: ${w.message} (left out)`);
  let given: SchemaChoice | undefined;
  try {
    given = options.schema
      ? await schemaFromFile(options.schema, { key: options.key, message: options.message }, warn)
      : undefined;
  } catch (error) {
    // Status 1 means a failed check here: a schema file that cannot be read is bad usage.
    if (error instanceof CliError) throw new CliError(error.message, EXIT.usage);
    throw error;
  }
  const recipe: Recipe | undefined = options.mutate ? readRecipe(options.mutate) : undefined;
  if (recipe) checkRecipeUrls(recipe, parsed, options.mutate!);
  const client = new ConformClient(target, {
    maxRequests: options.maxRequests,
    rate: options.rate,
    timeoutMs: options.timeout * 1000,
    maxTimeMs: options.maxTime * 1000,
    maxResponseBytes: options.maxResponseSize * MiB,
    maxListingBytes: options.maxListingSize * MiB,
    maxDepth: options.maxDepth,
  });

  const checks: Check[] = [];
  let stopped: string | undefined;
  let items = 0;
  let schemaKey = given?.schema.key ?? options.key ?? '';
  try {
    // The full listing, with the server's default page size: the oracle's data.
    const full = await walk(client, undefined, {}, 100_000);
    if (full.refused) {
      throw new RunStopped(
        `the listing itself was refused: ${full.refused.status} ${full.refused.error?.message ?? ''}\n  ${full.refused.curl}`,
      );
    }
    if (full.loop) throw new RunStopped(`the listing does not end: ${full.loop}`);
    items = full.items.length;
    if (!given && items === 0) {
      throw new RunStopped('the listing is empty: nothing to infer a schema from; give --schema');
    }
    const choice = given ?? schemaFromSample(full.items, options.key, warn);
    if (choice.keyedByPosition) {
      throw new RunStopped('the items have no unique name or id: name the key with --key');
    }
    const { schema } = choice;
    schemaKey = schema.key;
    full.keys = full.items.map((i) => keyOf(schema, i));
    await runChecks(
      client,
      schema,
      full,
      { maxFilters: options.maxFilters, seed: options.seed, pageSizes: [1, 2, 7] },
      (check) => checks.push(check),
    );
    if (recipe) {
      checks.push(
        await mutateCheck(client, schema, full, recipe, (line) =>
          io.error(`listkit: warning: ${printableLines(line)}`),
        ),
      );
    }
  } catch (error) {
    if (!(error instanceof RunStopped)) throw error;
    stopped = error.message;
  }

  const report = reportOf(checks, { parsed, options, items, schemaKey, stopped, recipe, client });
  const { summary } = report;
  await io.write(
    options.json ? `${JSON.stringify(report, null, 2)}\n` : renderReport(report, io.colour),
  );
  if (stopped !== undefined) {
    io.error(`listkit: conform: ${printableLines(stopped)}`);
    return CONFORM_EXIT.stopped;
  }
  return summary.fail > 0 ? CONFORM_EXIT.failed : CONFORM_EXIT.ok;
}

const GROUPS: { group: Check['group']; title: string }[] = [
  { group: 'paging', title: 'Paging (AIP-158)' },
  { group: 'filter', title: 'Filtering (AIP-160; listkit evaluates each filter over the listing)' },
  { group: 'ordering', title: 'Ordering (AIP-132)' },
  { group: 'partial', title: 'Partial responses (fields, AIP-157; listkit projects each page)' },
  { group: 'skip', title: 'Skipping (AIP-158 skip)' },
  { group: 'mutate', title: 'Paging while the listing changes (AIP-158, --mutate)' },
];

/**
 * Text from the server (messages, keys, values) as a terminal shows it safely: control
 * characters, bidirectional overrides and line separators written as `\uXXXX`.
 */
export function printable(text: string): string {
  return text.replace(
    /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

const printableLines = (text: string) => text.split('\n').map(printable).join('\n');

/** The report for people: the cause first, then by kind, one line per check, curl under each failure. */
export function renderReport(report: ConformReport, colour: boolean): string {
  const paint = (code: number, text: string) => (colour ? `\x1b[${code}m${text}\x1b[0m` : text);
  const { target, summary } = report;
  const lines = [
    `listkit conform ${printable(target.url)}`,
    `  style ${target.style}, ${target.items} items keyed by ${target.schemaKey || '?'}, ${target.requests} requests`,
  ];
  const cause = report.checks.find((c) => c.details.rootCause === true && c.status === 'FAIL');
  if (cause) {
    lines.push(
      '',
      'Cause: the full listing, the data every filter, ordering and --mutate check compares with, is broken',
      ...checkLines(cause, paint),
      `  The failures marked "follows from the full listing" below are its consequences: fix it, then run again.`,
    );
  }
  for (const { group, title } of GROUPS) {
    const all = report.checks.filter((c) => c.group === group && c !== cause);
    if (all.length === 0) continue;
    lines.push('', title);
    for (const check of all.filter((c) => c.details.notSupported !== true)) {
      lines.push(...checkLines(check, paint));
    }
    const unsupported = all.filter((c) => c.details.notSupported === true);
    if (unsupported.length > 0) lines.push('  not supported by the server:');
    for (const check of unsupported) {
      const reason = check.cause.replace(/^not supported: /, '');
      lines.push(`  ${paint(33, 'SKIP')}  ${printable(check.name)}: ${printable(reason)}`);
    }
  }
  const following =
    summary.consequences > 0 ? ` (${summary.consequences} follow from the full listing)` : '';
  lines.push(
    '',
    `${summary.ok ? paint(32, 'OK') : paint(31, 'NOT OK')}: ${summary.pass} passed, ${summary.fail} failed${following}, ${summary.skip} skipped (${summary.notSupported} not supported by the server)`,
  );
  if (summary.stopped) lines.push(`stopped: ${printableLines(summary.stopped)}`);
  return `${lines.join('\n')}\n`;
}

/** One check's line, and for a failure its explanation and curl command. */
function checkLines(check: ReportedCheck, paint: (code: number, text: string) => string): string[] {
  const status = { PASS: paint(32, 'PASS'), FAIL: paint(31, 'FAIL'), SKIP: paint(33, 'SKIP') };
  const follows = check.details.consequenceOf ? ' [follows from the full listing]' : '';
  const lines = [
    `  ${status[check.status]}  ${printable(check.name)}: ${printable(check.cause)}${follows}`,
  ];
  if (check.status !== 'FAIL') return lines;
  const explanation = check.details.explanation;
  if (Array.isArray(explanation) && explanation.length > 0) {
    const { example, server } = check.details;
    lines.push(
      `        ${printable(String(example))}: the server ${String(server)}; listkit says:`,
    );
    for (const line of explanation) lines.push(`          ${printable(String(line))}`);
  }
  if (check.curl) lines.push(`        ${paint(2, printable(check.curl))}`);
  return lines;
}
