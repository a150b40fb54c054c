// The playground page: wires the editor, the evaluation, the views and the URL state together.
import './styles.css';
import {
  type CheckedNode,
  type FilterClause as Clause,
  type Collection,
  explainFilter as explain,
  type FieldRef,
  ListkitError,
  parseFilter,
  parseOrderBy,
  printFilter,
  type Span,
  type FilterTrace as Trace,
  traceFilter as trace,
} from '@listkit/query';
import { buildTree, type TreeNode } from './ast-model.js';
import { AstView } from './ast-view.js';
import { filterCompletions, filterHover } from './completion.js';
import { formatData, generatedRules, parseData } from './data.js';
import { byId, debounce, formatMs, h, showError, truncate } from './dom.js';
import { type EditorNote, FilterEditor, problemFix, type QuickFix } from './editor.js';
import { Comparison } from './emulator-compare.js';
import { type Evaluation, evaluate, type Resource, STYLE_NAMES, schema } from './engine.js';
import { EXAMPLES, exampleById } from './examples.js';
import { renderFields } from './fields-panel.js';
import { filterHints } from './hints.js';
import { curlCommand, gcloudCommand, type ListCallTarget, restUrl } from './list-call.js';
import { Notices } from './notices.js';
import { buildCollection, PageWalker } from './paging.js';
import { fieldDocs } from './schema-docs.js';
import { renderSql } from './sql-view.js';
import { initThemeToggle } from './theme.js';
import {
  DEFAULTS,
  decodeHash,
  encodeState,
  MAX_LINK_DATA_CHARS,
  MAX_PAGE_SIZE,
  type PlaygroundState,
} from './url-state.js';

/** What a first visit (no hash) shows. */
const FIRST_VISIT_FILTER =
  'labels.env = prod AND creationTimestamp >= 2025-01-01T00:00:00Z AND NOT name:web-*';
const DEBOUNCE_MS = 250;

const state: PlaygroundState = { ...DEFAULTS };
let resources: Resource[] = [];
let collection: Collection<Resource> | undefined;
let evaluation: Evaluation | undefined;
let explanation: Clause | undefined;
let walker: PageWalker | undefined;
let listSequence = 0;
let cursorOffset = 0;
/** The resource the "Why" panel traces was chosen by the person (not picked automatically). */
let whyPinned = false;
/** The first row of the results table, which the "Why" panel traces unless one is chosen. */
let firstRow: string | undefined;
const fields = fieldDocs(schema);

const el = {
  styleBadge: byId('style-badge'),
  cursor: byId('cursor-position'),
  timings: byId('timings'),
  filterError: byId('filter-error'),
  explanation: byId('explanation'),
  matchCount: byId('match-count'),
  orderBy: byId<HTMLInputElement>('order-by'),
  orderByOptions: byId('order-by-options'),
  orderByError: byId('order-by-error'),
  pageSize: byId<HTMLInputElement>('page-size'),
  firstPage: byId<HTMLButtonElement>('first-page'),
  prevPage: byId<HTMLButtonElement>('prev-page'),
  nextPage: byId<HTMLButtonElement>('next-page'),
  pageInfo: byId('page-info'),
  pageToken: byId('page-token'),
  results: byId('results'),
  whyName: byId<HTMLInputElement>('why-name'),
  whyNames: byId('why-names'),
  whyFirstMatch: byId<HTMLButtonElement>('why-first-match'),
  whyFirstMiss: byId<HTMLButtonElement>('why-first-miss'),
  why: byId('why'),
  dataDetails: byId<HTMLDetailsElement>('data-details'),
  dataSummary: byId('data-summary'),
  dataText: byId<HTMLTextAreaElement>('data-text'),
  dataError: byId('data-error'),
  dataApply: byId<HTMLButtonElement>('data-apply'),
  sampleCount: byId<HTMLInputElement>('sample-count'),
  dataGenerate: byId<HTMLButtonElement>('data-generate'),
  examplesMenu: byId<HTMLDetailsElement>('examples-menu'),
  examplesList: byId('examples-list'),
  copyLink: byId<HTMLButtonElement>('copy-link'),
  copyMarkdown: byId<HTMLButtonElement>('copy-markdown'),
  notices: byId('notices'),
  loading: byId('loading'),
  quickFixes: byId('quick-fixes'),
  filterWarnings: byId('filter-warnings'),
  pageSizeError: byId('page-size-error'),
  orderByFixes: byId('order-by-fixes'),
  restUrl: byId('rest-url'),
  copyCurl: byId<HTMLButtonElement>('copy-curl'),
  copyGcloud: byId<HTMLButtonElement>('copy-gcloud'),
  copyRest: byId<HTMLButtonElement>('copy-rest'),
  dataDownload: byId<HTMLButtonElement>('data-download'),
  dataUpload: byId<HTMLInputElement>('data-upload'),
  fields: byId('fields'),
  sqlDetails: byId<HTMLDetailsElement>('sql-details'),
  sql: byId('sql'),
  emulatorUrl: byId<HTMLInputElement>('emulator-url'),
  emulatorProject: byId<HTMLInputElement>('emulator-project'),
  emulatorRegion: byId<HTMLInputElement>('emulator-region'),
  emulatorCompare: byId<HTMLButtonElement>('emulator-compare'),
  emulatorNext: byId<HTMLButtonElement>('emulator-next'),
  emulatorResult: byId('emulator-result'),
};

const notices = new Notices(el.notices);
/** A confirmation everyone sees (and screen readers hear): "Link copied". */
const announce = (text: string) => notices.show(text);
initThemeToggle(byId<HTMLSelectElement>('theme'));

// ------------------------------------------------------------------------------------------
// The editor and the views

// Created first: the editor reports its cursor while it is being built.
const astView = new AstView(byId('ast'), {
  onSelect: (node: TreeNode | null) => editor.highlightSpan(node?.span ?? null),
  onActivate: (node: TreeNode) => editor.select(node.span),
});

const editor = new FilterEditor({
  parent: byId('filter'),
  doc: '',
  onChange(text) {
    state.filter = text;
    scheduleRun();
  },
  onRunNow() {
    scheduleRun.cancel();
    void run();
  },
  onFormat() {
    try {
      editor.setText(printFilter(parseFilter(editor.text)));
      announce('Filter formatted');
    } catch {
      notices.show('The filter does not parse, so it cannot be formatted', 'warning');
    }
  },
  onCursor(offset, line, column) {
    cursorOffset = offset;
    el.cursor.textContent = `Ln ${line}, Col ${column}`;
    // Reveal the node only while the person works in the editor, not when a link loads.
    astView.markCursor(offset, document.activeElement?.closest('.cm-editor') != null);
  },
  completions: filterCompletions({ fields, resources: () => resources }),
  hover: filterHover(fields),
});

const scheduleRun = debounce(DEBOUNCE_MS, () => void run());

/** Evaluates the filter and refreshes everything that depends on it. */
async function run(): Promise<void> {
  const result = evaluate(state.filter, resources);
  evaluation = result;
  el.styleBadge.textContent = STYLE_NAMES[result.style];
  el.styleBadge.dataset.style = result.style;
  showNotes(result);
  if (result.error) {
    showError(el.filterError, result.error.format());
    el.timings.textContent = `checked in ${formatMs(result.compileMs)}`;
    el.matchCount.textContent = 'Fix the filter to see matches';
  } else if (result.internalError) {
    showError(
      el.filterError,
      `Internal error in the filter engine: ${result.internalError.message}\nThis is a bug; please report it with the link of this page.`,
    );
    el.matchCount.textContent = '';
  } else {
    showError(el.filterError, undefined);
    el.timings.textContent = `parse + check + compile ${formatMs(result.compileMs)} · evaluate ${resources.length} resources ${formatMs(result.evalMs)}`;
    el.matchCount.textContent = `${result.matchCount} of ${resources.length} resources match`;
  }
  if (result.ast) {
    astView.render(buildTree(result.ast));
    astView.markCursor(cursorOffset, false);
  } else {
    astView.render(undefined, 'The filter does not parse; the tree appears once it does.');
  }
  explanation = result.compiled ? explain(result.compiled.checked, result.source) : undefined;
  renderExplanation();
  writeUrl();
  renderListCall();
  if (el.sqlDetails.open) renderSqlPanel();
  await relist();
  renderWhy();
}

/** Squiggles, quick-fix buttons and warnings for the current filter. */
function showNotes(result: Evaluation) {
  const notes: EditorNote[] = (result.error?.problems ?? []).map((p) => ({
    from: p.span.start,
    to: p.span.end,
    severity: 'error',
    message: `${p.message} (${p.line}:${p.column})`,
    source: p.code,
    fix: problemFix(p),
  }));
  const hints = result.compiled ? filterHints(result.compiled.checked, resources) : [];
  for (const hint of hints) {
    notes.push({
      from: hint.span.start,
      to: hint.span.end,
      severity: 'warning',
      message: hint.message,
      fix: hint.fix && { ...hint.fix, from: hint.span.start, to: hint.span.end },
    });
  }
  editor.setNotes(notes);
  el.filterWarnings.replaceChildren(...hints.map((hint) => h('li', {}, hint.message)));
  el.quickFixes.replaceChildren(
    ...editor.fixes.map((fix) => fixButton(fix, editor.applyFix.bind(editor))),
  );
  if (editor.fixes.length > 0)
    el.quickFixes.prepend(h('span', { class: 'hint' }, 'Quick fix (Ctrl+.):'));
}

function fixButton(fix: QuickFix, apply: (fix: QuickFix) => void): HTMLElement {
  const button = h('button', { type: 'button', class: 'quick-fix' }, fix.label);
  button.addEventListener('click', () => apply(fix));
  return button;
}

/** The same list call as a REST URL, curl and gcloud (project and region of the comparison). */
function listCallTarget(): ListCallTarget {
  return {
    origin: 'https://compute.googleapis.com',
    project: el.emulatorProject.value || 'my-project',
    region: el.emulatorRegion.value || 'us-central1',
  };
}

function listQuery() {
  return { filter: state.filter, orderBy: state.orderBy, pageSize: state.pageSize };
}

function renderListCall() {
  el.restUrl.textContent = restUrl(listCallTarget(), listQuery());
}

function renderSqlPanel() {
  renderSql(el.sql, evaluation, state, schema);
}

// ------------------------------------------------------------------------------------------
// Explanation and the per-row trace

function spanButton(text: string, span: Span | undefined): HTMLElement {
  if (!span) return h('span', {}, text);
  const button = h(
    'button',
    { type: 'button', class: 'clause-text', title: 'Highlight in the filter' },
    text,
  );
  button.addEventListener('click', () => editor.highlightSpan(span));
  return button;
}

function clauseList(clause: Clause, traced?: Trace): HTMLElement {
  const item = h('li', { class: 'clause' });
  if (traced) {
    item.classList.add(traced.result ? 'holds' : 'fails');
    if (traced.decisive) item.classList.add('decisive');
    item.append(
      h(
        'span',
        { class: 'verdict-mark', 'aria-label': traced.result ? 'holds' : 'fails' },
        traced.result ? '✔' : '✘',
      ),
    );
  }
  item.append(spanButton(clause.text, clause.span));
  if (traced?.actual) item.append(h('span', { class: 'actual' }, traced.actual));
  if (traced?.decisive && clause.kind === 'leaf')
    item.append(h('span', { class: 'decides' }, 'decides'));
  if (!traced && clause.note) item.append(h('span', { class: 'note' }, clause.note));
  if (clause.children.length > 0) {
    const list = h('ul', {});
    clause.children.forEach((child, i) => {
      list.append(clauseList(child, traced?.children[i]));
    });
    item.append(list);
  }
  return item;
}

function renderExplanation() {
  if (!explanation) {
    el.explanation.replaceChildren(
      h('p', { class: 'hint' }, 'The explanation appears when the filter is valid.'),
    );
    return;
  }
  el.explanation.replaceChildren(h('ul', { class: 'clauses' }, clauseList(explanation)));
}

function renderWhy() {
  const compiled = evaluation?.compiled;
  if (!compiled || !explanation) {
    el.why.replaceChildren(h('p', { class: 'hint' }, 'Fix the filter to trace a resource.'));
    return;
  }
  let name = el.whyName.value.trim();
  if (!whyPinned) name = '';
  let resource = name ? resources.find((r) => r.name === name) : undefined;
  if (!resource) {
    if (name) {
      el.why.replaceChildren(
        h('p', { class: 'hint' }, `No resource is named ${JSON.stringify(name)}.`),
      );
      return;
    }
    // Unless a resource was chosen, trace the table's first row (else the first in the data).
    resource = resources.find((r) => r.name === firstRow) ?? resources[0];
    if (!resource) {
      el.why.replaceChildren(h('p', { class: 'hint' }, 'There is no data to trace.'));
      return;
    }
    name = resource.name;
    el.whyName.value = name;
  }
  let traced: Trace;
  try {
    traced = trace(explanation, resource, compiled.source, schema);
  } catch (error) {
    el.why.replaceChildren(
      h('p', { class: 'error-text' }, `Could not trace: ${(error as Error).message}`),
    );
    return;
  }
  const decider = findDecider(traced);
  el.why.replaceChildren(
    h(
      'p',
      { class: traced.result ? 'verdict same' : 'verdict differ' },
      h('strong', {}, name),
      traced.result ? ' matches' : ' does not match',
      decider && decider !== traced
        ? [
            `, because “${decider.clause.text}” ${decider.result ? 'holds' : 'fails'}`,
            decider.actual ? ` (${decider.actual})` : '',
            '.',
          ]
        : '.',
    ),
    h('ul', { class: 'clauses traced' }, clauseList(explanation, traced)),
  );
}

/** The first decisive leaf: the clause that made the resource match or fail. */
function findDecider(t: Trace): Trace | undefined {
  if (t.clause.kind === 'leaf') return t;
  const decisive = t.children.filter((c) => c.decisive);
  return decisive.length === 1 ? findDecider(decisive[0]!) : undefined;
}

function pickWhy(match: boolean) {
  const index = evaluation?.matches.indexOf(match) ?? -1;
  const resource = index >= 0 ? resources[index] : undefined;
  if (!resource) {
    announce(match ? 'No resource matches' : 'Every resource matches');
    return;
  }
  el.whyName.value = resource.name;
  whyPinned = true;
  renderWhy();
}

// ------------------------------------------------------------------------------------------
// Paging

/** Starts the listing again from the first page (the query or the data changed). */
async function relist(): Promise<void> {
  if (!collection) return;
  walker = new PageWalker(collection, {
    filter: state.filter,
    orderBy: state.orderBy,
    pageSize: state.pageSize,
  });
  await showPage();
}

async function showPage(): Promise<void> {
  const current = walker;
  if (!current) return;
  const sequence = ++listSequence;
  showError(el.orderByError, undefined);
  el.orderByFixes.replaceChildren();
  el.orderBy.removeAttribute('aria-invalid');
  const started = performance.now();
  let page: Awaited<ReturnType<PageWalker['current']>>;
  try {
    page = await current.current();
  } catch (error) {
    if (sequence !== listSequence) return;
    renderPager(current, undefined, false);
    // A filter error is already shown under the editor; anything else here is the orderBy's.
    const filterValid =
      evaluation?.compiled !== undefined && evaluation.source === current.query.filter;
    if (error instanceof ListkitError && filterValid && !error.code.includes('page_token')) {
      showError(el.orderByError, error.format());
      el.orderBy.setAttribute('aria-invalid', 'true');
      el.orderByFixes.replaceChildren(
        ...error.problems.flatMap((p) => {
          const fix = problemFix(p);
          return fix ? [fixButton(fix, applyOrderByFix)] : [];
        }),
      );
    }
    markStale(error instanceof ListkitError ? 'the list call is invalid' : String(error));
    return;
  }
  el.results.classList.remove('stale');
  if (sequence !== listSequence) return;
  const ms = performance.now() - started;
  renderPager(current, page.nextPageToken);
  const first = current.index * current.query.pageSize + 1;
  const total = evaluation?.compiled ? evaluation.matchCount : undefined;
  el.pageInfo.textContent =
    page.items.length === 0
      ? `Page ${current.index + 1}: no items`
      : `Page ${current.index + 1}: items ${first}–${first + page.items.length - 1}${total !== undefined ? ` of ${total}` : ''} · listed in ${formatMs(ms)}`;
  firstRow = page.items[0]?.name;
  renderResults(page.items, first);
}

/** Keeps the last good page on screen, dimmed and labelled, while the list call is invalid. */
function markStale(why: string) {
  if (!el.results.querySelector('table')) {
    el.results.replaceChildren(h('p', { class: 'hint' }, `No page: ${why}.`));
    return;
  }
  el.results.classList.add('stale');
  el.results.querySelector('.stale-note')?.remove();
  el.results.prepend(
    h('p', { class: 'stale-note' }, `Stale: the last valid results, shown while ${why}.`),
  );
}

function applyOrderByFix(fix: QuickFix) {
  const text = el.orderBy.value;
  el.orderBy.value = text.slice(0, fix.from) + fix.text + text.slice(fix.to);
  el.orderBy.focus();
  el.orderBy.dispatchEvent(new Event('input'));
}

function renderPager(current: PageWalker, nextToken: string | undefined, listed = true) {
  el.firstPage.disabled = !current.hasPrevious;
  el.prevPage.disabled = !current.hasPrevious;
  el.nextPage.disabled = !nextToken;
  el.pageToken.textContent = nextToken ? truncate(nextToken, 64) : listed ? '— (last page)' : '—';
  el.pageToken.title = nextToken ?? '';
  if (!nextToken && !current.hasPrevious) el.pageInfo.textContent = '';
}

/** Columns: the name, then the fields the filter and orderBy use (or a few useful defaults). */
function columns(): string[] {
  const paths = new Set<string>();
  const visit = (node: CheckedNode) => {
    const add = (f: FieldRef) => paths.add(f.path);
    switch (node.type) {
      case 'and':
      case 'or':
        node.operands.forEach(visit);
        break;
      case 'not':
        visit(node.operand);
        break;
      case 'compare':
      case 'regex':
        add(node.field);
        break;
      case 'search':
        node.fields.forEach(add);
        break;
      case 'call':
        for (const a of node.args) if (a.kind === 'field') add(a.field);
        break;
    }
  };
  if (evaluation?.compiled) visit(evaluation.compiled.checked);
  try {
    for (const term of parseOrderBy(state.orderBy, schema).terms) paths.add(term.path);
  } catch {
    // shown next to the orderBy box
  }
  paths.delete('name');
  const chosen = [...paths].slice(0, 4);
  for (const fallback of ['loadBalancingScheme', 'IPProtocol', 'labels']) {
    if (chosen.length >= 3) break;
    if (!chosen.includes(fallback)) chosen.push(fallback);
  }
  return ['name', ...chosen];
}

function cellValue(resource: Resource, path: string): string {
  let value: unknown = resource;
  for (const step of path.split('.')) {
    if (Array.isArray(value)) value = value.map((v) => (v as Record<string, unknown>)?.[step]);
    else if (typeof value === 'object' && value !== null)
      value = (value as Record<string, unknown>)[step];
    else value = undefined;
  }
  if (value === undefined) return '';
  if (typeof value === 'string')
    return value.startsWith('https://') ? value.slice(value.lastIndexOf('/') + 1) : value;
  if (Array.isArray(value)) return value.join(', ');
  if (typeof value === 'object' && value !== null) {
    return Object.entries(value)
      .map(([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`)
      .join(' ');
  }
  return String(value);
}

function renderResults(items: Resource[], first: number) {
  if (items.length === 0) {
    el.results.replaceChildren(h('p', { class: 'hint' }, 'No resource on this page.'));
    return;
  }
  const cols = columns();
  const table = h(
    'table',
    { class: 'results' },
    h('caption', { class: 'sr-only' }, 'Matching resources on this page'),
    h(
      'thead',
      {},
      h(
        'tr',
        {},
        h('th', { scope: 'col' }, '#'),
        cols.map((c) => h('th', { scope: 'col' }, c)),
      ),
    ),
    h(
      'tbody',
      {},
      items.map((item, i) => {
        const pick = h(
          'button',
          { type: 'button', class: 'row-link', title: 'Why does it match?' },
          item.name,
        );
        pick.addEventListener('click', () => {
          el.whyName.value = item.name;
          whyPinned = true;
          renderWhy();
          announce(`Tracing ${item.name}`);
        });
        return h(
          'tr',
          {},
          h('td', { class: 'num' }, String(first + i)),
          h('td', {}, pick),
          cols.slice(1).map((c) => {
            const text = cellValue(item, c);
            return h('td', { title: text.length > 40 ? text : null }, truncate(text, 40));
          }),
        );
      }),
    ),
  );
  el.results.replaceChildren(table);
}

// ------------------------------------------------------------------------------------------
// Data

async function setResources(next: Resource[]) {
  resources = next;
  collection = await buildCollection(resources);
  el.dataSummary.textContent = `${resources.length} forwarding rules${state.data !== undefined ? ' (edited)' : ' (generated)'}`;
  el.whyNames.replaceChildren(
    ...resources.slice(0, 2000).map((r) => h('option', { value: r.name })),
  );
  if (el.dataDetails.open) fillDataText();
}

/** Shows the data in use (edited data is always valid once applied, so it is `resources`). */
function fillDataText() {
  el.dataText.value = formatData(resources);
  showError(el.dataError, undefined);
}

async function applyData() {
  const parsed = parseData(el.dataText.value);
  if (!parsed.ok) {
    showError(el.dataError, parsed.message);
    el.dataText.setAttribute('aria-invalid', 'true');
    announce('The data is not valid');
    return;
  }
  el.dataText.removeAttribute('aria-invalid');
  showError(el.dataError, undefined);
  state.data = JSON.stringify(parsed.resources);
  await setResources(parsed.resources);
  announce(`Data applied: ${resources.length} resources`);
  await run();
}

async function generateData() {
  const count = Number(el.sampleCount.value);
  if (!Number.isSafeInteger(count) || count < 0 || count > 5000) {
    showError(el.dataError, 'The number of generated rules must be a whole number from 0 to 5000.');
    return;
  }
  state.sample = count;
  state.data = undefined;
  await setResources(generatedRules(count));
  fillDataText();
  announce(`Generated ${count} forwarding rules`);
  await run();
}

// ------------------------------------------------------------------------------------------
// URL state, examples, sharing

let urlWrite: Promise<void> = Promise.resolve();

let warnedDataTooLarge = false;

function writeUrl() {
  urlWrite = urlWrite.then(async () => {
    const { hash, dataLeftOut } = await encodeState(state);
    if (hash !== location.hash) history.replaceState(null, '', hash);
    if (dataLeftOut && !warnedDataTooLarge) {
      warnedDataTooLarge = true;
      notices.show(
        `The edited data is too large for a link (over ${MAX_LINK_DATA_CHARS / 1000} KB packed): the link keeps the filter, orderBy and page size only. Use “Download data” in Sample data to share the data as a file.`,
        'warning',
      );
    }
    if (!dataLeftOut) warnedDataTooLarge = false;
  });
}

/** Applies a hash: a full state (absent keys take defaults) or an example's link. */
async function loadHash(hash: string, firstLoad: boolean) {
  const decoded = await decodeHash(hash);
  const example = decoded.example ? exampleById(decoded.example) : undefined;
  if (decoded.example && !example)
    decoded.warnings.push(`there is no example named ${JSON.stringify(decoded.example)}`);
  const previousData = state.data;
  const previousSample = state.sample;
  if (example) {
    state.filter = example.filter;
    state.orderBy = example.orderBy ?? '';
  } else {
    const fresh = { ...DEFAULTS, ...decoded.state };
    if (firstLoad && !hash.replace(/^#/, '')) fresh.filter = FIRST_VISIT_FILTER;
    Object.assign(state, fresh);
    if (decoded.state.data === undefined) state.data = undefined;
  }
  el.orderBy.value = state.orderBy;
  el.pageSize.value = String(state.pageSize);
  el.sampleCount.value = String(state.sample);
  if (firstLoad || state.data !== previousData || state.sample !== previousSample) {
    let next: Resource[] | undefined;
    if (state.data !== undefined) {
      const parsed = parseData(state.data);
      if (parsed.ok) next = parsed.resources;
      else {
        decoded.warnings.push(
          `the data in this link is not valid (${parsed.message}); the generated sample is shown instead`,
        );
        state.data = undefined;
      }
    }
    await setResources(next ?? generatedRules(state.sample));
  }
  for (const warning of decoded.warnings)
    notices.show(`This link could not be used as it is: ${warning}.`, 'warning');
  editor.setText(state.filter);
  scheduleRun.cancel();
  await run();
  if (example && !firstLoad) {
    el.examplesMenu.open = false;
    editor.focus();
    announce(`Example loaded: ${example.title}`);
  }
  whyPinned = false;
}

function renderExamples() {
  const groups = new Map<string, HTMLElement>();
  for (const example of EXAMPLES) {
    let list = groups.get(example.group);
    if (!list) {
      list = h('ul', { 'aria-label': example.group });
      groups.set(example.group, list);
      el.examplesList.append(h('h3', {}, example.group), list);
    }
    list.append(
      h(
        'li',
        {},
        h(
          'a',
          { href: `#example=${example.id}`, 'data-example': example.id },
          h('span', { class: 'example-title' }, example.title),
          h('code', { class: 'example-filter' }, example.filter),
          h('span', { class: 'example-shows' }, example.shows),
        ),
      ),
    );
  }
}

async function copy(text: string, what: string) {
  try {
    await navigator.clipboard.writeText(text);
    announce(`${what[0]!.toUpperCase()}${what.slice(1)} copied`);
  } catch {
    window.prompt(`Copy the ${what.toLowerCase()}:`, text);
  }
}

async function shareLink(): Promise<string> {
  writeUrl();
  await urlWrite;
  return location.href;
}

function markdown(link: string): string {
  const fence = state.filter.includes('```') ? '~~~' : '```';
  const lines = [
    `**listkit filter** (${STYLE_NAMES[evaluation?.style ?? 'empty']}):`,
    '',
    fence,
    state.filter,
    fence,
    '',
  ];
  const facts = [];
  if (state.orderBy) facts.push(`orderBy \`${state.orderBy}\``);
  facts.push(`page size ${state.pageSize}`);
  if (evaluation?.error)
    facts.push(`error \`${evaluation.error.code}\`: ${evaluation.error.message}`);
  else if (evaluation?.compiled)
    facts.push(`${evaluation.matchCount} of ${resources.length} resources match`);
  lines.push(facts.join(' · '), '', `[Open in the playground](${link})`);
  return lines.join('\n');
}

// ------------------------------------------------------------------------------------------
// Events

el.orderBy.addEventListener(
  'input',
  debounce(DEBOUNCE_MS, () => {
    state.orderBy = el.orderBy.value;
    writeUrl();
    void relist();
  }),
);
el.pageSize.addEventListener(
  'input',
  debounce(DEBOUNCE_MS, () => {
    const n = Number(el.pageSize.value);
    if (!Number.isSafeInteger(n) || n < 1 || n > MAX_PAGE_SIZE) {
      el.pageSize.setAttribute('aria-invalid', 'true');
      el.pageSizeError.textContent = `The page size must be a whole number from 1 to ${MAX_PAGE_SIZE} (Compute Engine's maxResults); the list still uses ${state.pageSize}.`;
      el.pageSizeError.hidden = false;
      return;
    }
    el.pageSize.removeAttribute('aria-invalid');
    el.pageSizeError.hidden = true;
    state.pageSize = n;
    writeUrl();
    void relist();
  }),
);
for (const ordering of schema.orderings ?? []) {
  if (ordering) el.orderByOptions.append(h('option', { value: ordering }));
}

el.firstPage.addEventListener('click', () => {
  walker?.first();
  void showPage();
});
el.prevPage.addEventListener('click', () => {
  walker?.previous();
  void showPage();
});
el.nextPage.addEventListener('click', () => {
  walker?.next();
  void showPage();
});

el.whyName.addEventListener('change', () => {
  whyPinned = el.whyName.value.trim() !== '';
  renderWhy();
});
el.whyFirstMatch.addEventListener('click', () => pickWhy(true));
el.whyFirstMiss.addEventListener('click', () => pickWhy(false));

el.dataDetails.addEventListener('toggle', () => {
  if (el.dataDetails.open && !el.dataText.value) fillDataText();
});
el.dataApply.addEventListener('click', () => void applyData());
el.dataGenerate.addEventListener('click', () => void generateData());
el.dataText.addEventListener('keydown', (event) => {
  if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
    event.preventDefault();
    void applyData();
  }
});

el.copyLink.addEventListener('click', async () => copy(await shareLink(), 'Link'));
el.copyCurl.addEventListener('click', () =>
  copy(curlCommand(listCallTarget(), listQuery()), 'curl command'),
);
el.copyGcloud.addEventListener('click', () =>
  copy(gcloudCommand(listCallTarget(), listQuery()), 'gcloud command'),
);
el.copyRest.addEventListener('click', () =>
  copy(restUrl(listCallTarget(), listQuery()), 'REST URL'),
);
el.emulatorProject.addEventListener('input', () => renderListCall());
el.emulatorRegion.addEventListener('input', () => renderListCall());
el.sqlDetails.addEventListener('toggle', () => {
  if (el.sqlDetails.open) renderSqlPanel();
});
el.dataDownload.addEventListener('click', () => {
  const blob = new Blob([JSON.stringify(resources, null, 2)], { type: 'application/json' });
  const link = h('a', { href: URL.createObjectURL(blob), download: 'forwarding-rules.json' });
  link.click();
  setTimeout(() => URL.revokeObjectURL(link.href), 10_000);
});
el.dataUpload.addEventListener('change', async () => {
  const file = el.dataUpload.files?.[0];
  if (!file) return;
  el.dataDetails.open = true;
  el.dataText.value = await file.text();
  el.dataUpload.value = '';
  await applyData();
});
el.copyMarkdown.addEventListener('click', async () =>
  copy(markdown(await shareLink()), 'Markdown'),
);
el.examplesMenu.addEventListener('keydown', (event) => {
  if (event.key === 'Escape' && el.examplesMenu.open) {
    el.examplesMenu.open = false;
    el.examplesMenu.querySelector('summary')?.focus();
  }
});

window.addEventListener('hashchange', () => void loadHash(location.hash, false));
document.addEventListener('click', (event) => {
  if (el.examplesMenu.open && !el.examplesMenu.contains(event.target as Node)) {
    el.examplesMenu.open = false;
  }
});
// The skip link focuses the editor (following its href would change the hash, which holds the state).
document.querySelector('.skip-link')?.addEventListener('click', (event) => {
  event.preventDefault();
  editor.focus();
});

// The emulator comparison.
let comparison: Comparison | undefined;
el.emulatorUrl.value = location.pathname.includes('/playground')
  ? location.origin
  : 'http://127.0.0.1:8787';
el.emulatorProject.value = 'my-project';
el.emulatorRegion.value = 'us-central1';
async function compareStep(start: boolean) {
  el.emulatorCompare.disabled = true;
  el.emulatorNext.disabled = true;
  try {
    if (start || !comparison) {
      comparison = await Comparison.start(
        {
          url: el.emulatorUrl.value,
          project: el.emulatorProject.value,
          region: el.emulatorRegion.value,
        },
        { filter: state.filter, orderBy: state.orderBy, pageSize: state.pageSize },
        resources,
      );
      el.emulatorResult.replaceChildren();
      if (state.data !== undefined)
        el.emulatorResult.append(
          h(
            'p',
            { class: 'hint' },
            'The data here is edited: the emulator lists its own rules, so the pages may differ for that reason alone.',
          ),
        );
    }
    el.emulatorResult.append(await comparison.step());
  } catch (error) {
    el.emulatorResult.append(h('p', { class: 'verdict differ' }, (error as Error).message));
  } finally {
    el.emulatorCompare.disabled = false;
    el.emulatorNext.disabled = !comparison || comparison.done;
  }
}
el.emulatorCompare.addEventListener('click', () => void compareStep(true));
el.emulatorNext.addEventListener('click', () => void compareStep(false));

// ------------------------------------------------------------------------------------------
// Start

renderExamples();
renderFields(el.fields, fields);
loadHash(location.hash, true)
  .catch((error: unknown) => {
    console.error('the playground failed to start:', error);
  })
  .finally(() => {
    for (const part of document.querySelectorAll('[inert]')) part.removeAttribute('inert');
    el.loading.remove();
    document.body.dataset.ready = 'true';
  });
