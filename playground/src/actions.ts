// The changes panels send: every one updates `store.state`, recomputes what depends on it in
// `store.view`, and emits the topics whose panels must render again. The only module that
// writes the state.
import { explainFilter, parseOrderBy, type SchemaWarning } from '@listkit/query';
import type { SqlDialectName } from '@listkit/query/sql';
import { checkKeys, parseData } from './data.js';
import type { Dataset, Resource } from './datasets/dataset.js';
import { DATASETS, DEFAULT_DATASET, datasetById } from './datasets/index.js';
import { debounce } from './dom.js';
import { evaluate } from './engine.js';
import { type Expectation, runExpectation } from './expectations.js';
import { type HistoryEntry, loadHistory, recordHistory } from './history.js';
import { keptData } from './kept-data.js';
import { buildCollection } from './paging.js';
import { fieldDocs } from './schema-docs.js';
import {
  inferFrom,
  type SchemaOverrides,
  schemaErrorText,
  schemaFromText,
  withOverrides,
} from './schema-source.js';
import type { Store } from './store.js';
import { notices } from './ui.js';
import { decodeHash, defaults, type PlaygroundState } from './url-state.js';

const DEBOUNCE_MS = 250;

export type Actions = ReturnType<typeof createActions>;

/** What applying data did, for the one line the page says about it. */
export interface DataApplied {
  records: number;
  /** The schema in use now: its top-level fields, its key, and whether it was inferred. */
  fields: number;
  key: string;
  inferred: boolean;
  /** The filter that no longer checked against the new fields: cleared, kept in History. */
  cleared?: { filter: string; why: string };
}

export function createActions(store: Store) {
  const { state, view } = store;

  /** Evaluates the filter and refreshes everything that depends on it. */
  const run = () => {
    scheduleRun.cancel();
    const result = evaluate(state.filter, view.resources, view.schema);
    view.evaluation = result;
    view.explanation = result.compiled
      ? explainFilter(result.compiled.checked, result.source)
      : undefined;
    if (result.compiled && state.filter.trim()) {
      view.history = recordHistory({
        filter: state.filter,
        orderBy: state.orderBy,
        dataset: datasetLabel(store),
        at: Date.now(),
      });
      store.emit('history');
    }
    store.emit('evaluation');
  };
  const scheduleRun = debounce(DEBOUNCE_MS, run);

  const runExpectations = () => {
    view.expectationResults = state.expectations.map((e) =>
      runExpectation(e, view.schema, view.resources),
    );
    store.emit('expectations');
  };

  /** Rebuilds the resources, the schema and the collection; a problem in words, if any. */
  const reloadData = () => rebuild(store, runExpectations);

  /** Applies a change to the data or schema; on a problem, puts the state back and says why. */
  const changeData = async (change: Partial<PlaygroundState>): Promise<string | undefined> => {
    const before = { ...state };
    Object.assign(state, change);
    const problem = await reloadData();
    if (problem) {
      Object.assign(state, before);
      await reloadData();
      return problem;
    }
    run();
    return undefined;
  };

  /** The filter set from outside the editor (an example, the history, a dataset's first). */
  const replaceFilter = (text: string, orderBy?: string) => {
    state.filter = text;
    if (orderBy !== undefined) {
      state.orderBy = orderBy;
      store.emit('query');
    }
    store.emit('filter-replaced');
    run();
  };

  return {
    run,
    scheduleRun,
    replaceFilter,
    reloadData,
    runExpectations,
    /** Data a person brought (see {@link applyDataTo}). */
    applyData: (text: string) => applyDataTo(store, text, { changeData, replaceFilter }),
    setFilter(text: string) {
      state.filter = text;
      scheduleRun();
    },
    setQuery(change: { orderBy?: string; pageSize?: number }) {
      Object.assign(state, change);
      store.emit('query');
    },
    generate(count: number) {
      return changeData({ sample: count, data: undefined, missingData: undefined });
    },
    /** "Your data": an empty data set that waits for the person's, with the schema in use. */
    useOwnData() {
      return changeData({ data: '', missingData: undefined });
    },
    async useDataset(id: string) {
      const dataset = datasetById(id) ?? DEFAULT_DATASET;
      const problem = await changeData(datasetState(dataset));
      if (!problem) replaceFilter(dataset.firstFilter, '');
      return problem;
    },
    /** A pasted schema (undefined: back to the dataset's, or inferred when `infer`). */
    setSchema(text: string | undefined, infer = false, message?: string) {
      return changeData({ schemaText: text, inferred: infer, protoMessage: message });
    },
    setOverrides(overrides: SchemaOverrides) {
      return changeData({ overrides });
    },
    setExpectations(expectations: Expectation[]) {
      state.expectations = expectations;
      runExpectations();
    },
    /** The SQL panel's dialect; the link keeps it. */
    setSqlDialect(name: SqlDialectName) {
      state.sqlDialect = name;
      store.emit('sql-dialect');
    },
    traceKey(key: string | undefined) {
      view.whyKey = key;
      store.emit('why');
    },
    loadHistory() {
      view.history = loadHistory();
      store.emit('history');
    },
    loadHash: (hash: string, firstLoad: boolean) =>
      loadHash(store, hash, firstLoad, { reloadData, run }),
  };
}

/**
 * Data a person brought: kept with the dataset's schema when it fits, else inferred. A filter
 * that checked before and no longer checks against the new fields is cleared (it stays in
 * History), so the new resources show at once.
 */
async function applyDataTo(
  store: Store,
  text: string,
  actions: {
    changeData(change: Partial<PlaygroundState>): Promise<string | undefined>;
    replaceFilter(text: string, orderBy?: string): void;
  },
): Promise<DataApplied | { problem: string }> {
  const { state, view } = store;
  const parsed = parseData(text);
  if (!parsed.ok) return { problem: parsed.message };
  const before = view.evaluation;
  const previous = { filter: state.filter, orderBy: state.orderBy, dataset: datasetLabel(store) };
  const problem = await actions.changeData(dataChange(store, parsed.resources));
  if (problem) return { problem };
  const checkedBefore = before?.compiled !== undefined && before.source === previous.filter;
  return {
    records: view.resources.length,
    fields: Object.keys(view.schema.fields).length,
    key: view.schema.key,
    inferred: state.inferred && state.schemaText === undefined,
    cleared: checkedBefore ? clearUnchecked(store, previous, actions.replaceFilter) : undefined,
  };
}

/** Applies a hash: a full state (absent keys take defaults) or an example's link. */
async function loadHash(
  store: Store,
  hash: string,
  firstLoad: boolean,
  actions: { reloadData(): Promise<string | undefined>; run(): void },
): Promise<void> {
  const { state } = store;
  const decoded = await decodeHash(hash);
  const example = decoded.example
    ? DATASETS.flatMap((d) => d.examples).find((e) => e.id === decoded.example)
    : undefined;
  if (decoded.example && !example)
    decoded.warnings.push(`there is no example named ${JSON.stringify(decoded.example)}`);
  const before = JSON.stringify({ ...state, filter: '', orderBy: '', pageSize: 0 });
  let restored: string | undefined;
  if (example) {
    const dataset = datasetById(example.dataset ?? 'compute') ?? DEFAULT_DATASET;
    if (dataset.id !== state.dataset || state.data !== undefined || firstLoad)
      Object.assign(state, defaults(), { dataset: dataset.id, sample: dataset.defaultSample });
    state.filter = example.filter;
    state.orderBy = example.orderBy ?? '';
  } else {
    const fresh = { ...defaults(), ...decoded.state };
    if (!datasetById(fresh.dataset)) {
      decoded.warnings.push(`there is no dataset named ${JSON.stringify(fresh.dataset)}`);
      fresh.dataset = DEFAULT_DATASET.id;
    }
    if (firstLoad && !hash.replace(/^#/, ''))
      fresh.filter = (datasetById(fresh.dataset) ?? DEFAULT_DATASET).firstFilter;
    restored = await restoreKeptData(fresh);
    Object.assign(state, fresh);
  }
  const after = JSON.stringify({ ...state, filter: '', orderBy: '', pageSize: 0 });
  if (firstLoad || before !== after) {
    const problem = await actions.reloadData();
    if (problem) {
      decoded.warnings.push(problem);
      await openWithoutData(store, actions.reloadData);
    }
  }
  sayWhatTheLinkHeld(store, decoded.warnings, restored);
  store.view.whyKey = undefined; // a new link traces its first row again
  store.emit('query');
  store.emit('filter-replaced');
  actions.run();
  if (example && !firstLoad) notices.show(`Example loaded: ${example.title}`);
}

/**
 * The data a link left out, from this browser's copy when it kept one (the sender's browser):
 * the state then holds it whole, inferring its schema again. Returns the data when restored.
 */
async function restoreKeptData(fresh: PlaygroundState): Promise<string | undefined> {
  const ref = fresh.missingData?.ref;
  const text = ref ? await keptData(ref) : undefined;
  if (text === undefined) return undefined;
  fresh.data = text;
  fresh.missingData = undefined;
  if (fresh.inferred) fresh.schemaText = undefined;
  return text;
}

/**
 * A link whose data cannot be used opens on an empty "your data" that asks for it, never on
 * another dataset: with its schema when that still works, else with the dataset's.
 */
async function openWithoutData(store: Store, reloadData: () => Promise<string | undefined>) {
  const { state } = store;
  Object.assign(state, { data: '', missingData: state.missingData ?? {} });
  if (!(await reloadData())) return;
  Object.assign(state, { schemaText: undefined, inferred: false, overrides: {} });
  await reloadData();
}

/** One status line for what a link could not hold, and for data it left out. */
function sayWhatTheLinkHeld(store: Store, warnings: string[], restored: string | undefined) {
  const missing = store.state.missingData;
  const parts: string[] = [];
  if (missing?.ref || missing?.records !== undefined) {
    const records = missing.records === undefined ? '' : `${missing.records} records, `;
    parts.push(`This link's data was not included (${records}too large for a link).`);
  }
  if (warnings.length > 0)
    parts.push(`This link could not be used as it is: ${warnings.join('; ')}.`);
  if (missing)
    parts.push(
      'Paste or drop the data to see what the filter matches; the filter, schema and tests are kept.',
    );
  if (parts.length > 0) notices.show(parts.join(' '), 'warning');
  else if (restored !== undefined)
    notices.show(
      `This link left out its data (${store.count(store.view.resources.length)}); this browser kept a copy, so it opens whole here.`,
    );
}
/** Rebuilds the resources, the schema and the collection from the state; a problem, if any. */
async function rebuild(store: Store, runExpectations: () => void): Promise<string | undefined> {
  const { state, view } = store;
  view.dataset = datasetById(state.dataset) ?? DEFAULT_DATASET;
  let resources: Resource[];
  if (state.data !== undefined) {
    const parsed = parseData(state.data);
    if (!parsed.ok) return `the data is not valid (${parsed.message})`;
    resources = parsed.resources;
  } else resources = view.dataset.generate(state.sample);
  const warnings: SchemaWarning[] = [];
  let origin: string;
  let schema = view.dataset.schema;
  try {
    if (state.schemaText !== undefined) {
      const built = await schemaFromText(state.schemaText, state.protoMessage, warnings);
      schema = built.schema;
      // An inferred schema a link carried in place of the data it left out.
      origin = state.inferred
        ? "inferred from the sender's data (the link carries it)"
        : `from the pasted ${built.kind}`;
    } else if (state.inferred) {
      schema = inferFrom(resources, state.overrides.key, warnings);
      origin = `inferred from ${resources.length} records`;
    } else origin = `the ${view.dataset.plural} schema`;
    schema = withOverrides(schema, state.overrides);
  } catch (error) {
    view.schemaError = schemaErrorText(error);
    store.emit('data');
    return `the schema could not be made: ${view.schemaError}`;
  }
  const keyProblem = checkKeys(resources, schema.key);
  if (keyProblem) return keyProblem;
  view.schemaError = undefined;
  view.schemaOrigin = origin;
  view.schemaWarnings = warnings.map((w) => `${w.at}: ${w.message}`);
  view.schema = schema;
  view.fields = fieldDocs(schema);
  view.resources = resources;
  view.collection = await buildCollection(resources, schema);
  view.whyKey = undefined;
  runExpectations();
  store.emit('data');
  return undefined;
}

/**
 * The change pasted data makes: the data, and an inferred schema when it is not the dataset's.
 * The schema a link carried in place of its left-out data is inferred again from the data.
 */
function dataChange(store: Store, resources: Resource[]): Partial<PlaygroundState> {
  const { state, view } = store;
  const change: Partial<PlaygroundState> = {
    data: JSON.stringify(resources),
    missingData: undefined,
  };
  if (state.inferred && state.missingData) change.schemaText = undefined;
  else if (state.schemaText !== undefined || state.inferred) return change;
  const known = view.dataset.schema.fields;
  const foreign = resources
    .slice(0, 1000)
    .some((r) => Object.keys(r).some((field) => !Object.hasOwn(known, field)));
  if (foreign || resources.some((r) => checkKeys([r], view.dataset.schema.key))) {
    change.inferred = true;
    change.overrides = {};
  }
  return change;
}

/**
 * Clears the filter when it no longer checks against the schema in use, keeping it in History;
 * the orderBy too when it no longer checks. Returns what was cleared, and why.
 */
function clearUnchecked(
  store: Store,
  previous: Omit<HistoryEntry, 'at'>,
  replaceFilter: (text: string, orderBy?: string) => void,
): DataApplied['cleared'] {
  const error = store.view.evaluation?.error;
  if (!error || !previous.filter.trim()) return undefined;
  store.view.history = recordHistory({ ...previous, at: Date.now() });
  store.emit('history');
  replaceFilter('', orderByChecks(store) ? undefined : '');
  return { filter: previous.filter, why: error.problems[0]?.message ?? error.message };
}

/** Whether the orderBy still checks against the schema in use. */
function orderByChecks({ state, view }: Store): boolean {
  try {
    parseOrderBy(state.orderBy, view.schema);
    return true;
  } catch {
    return false;
  }
}

/** Where a history entry's filter ran: an example dataset, or the person's data. */
const datasetLabel = ({ state, view }: Store) =>
  state.data !== undefined || state.schemaText !== undefined ? 'your data' : view.dataset.id;

/** A dataset as it first comes: its generated sample, its own schema. */
const datasetState = (dataset: Dataset): Partial<PlaygroundState> => ({
  dataset: dataset.id,
  data: undefined,
  missingData: undefined,
  sample: dataset.defaultSample,
  inferred: false,
  schemaText: undefined,
  protoMessage: undefined,
  overrides: {},
});
