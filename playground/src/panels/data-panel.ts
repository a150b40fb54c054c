// The Data panel, at the top of the page: the dataset menu ("Your data" opens the box, empty,
// to paste into), the data as text (paste JSON, a list response or NDJSON and apply it), a file
// dropped anywhere on the page or uploaded, the generated sample and its size, and a download of
// what is in use. Applying data closes the box, so the new resources show at once, and says in
// the status line what was inferred, with the schema a click away.
import type { Actions, DataApplied } from '../actions.js';
import { formatData } from '../data.js';
import { DATASETS } from '../datasets/index.js';
import { byId, h, showError, truncate } from '../dom.js';
import type { Store } from '../store.js';
import { announce, download, notices } from '../ui.js';
import type { MissingData } from '../url-state.js';

type Elements = ReturnType<typeof elements>;
const elements = () => ({
  dataset: byId<HTMLSelectElement>('dataset'),
  details: byId<HTMLDetailsElement>('data-details'),
  summary: byId('data-summary'),
  prompt: byId('data-prompt'),
  text: byId<HTMLTextAreaElement>('data-text'),
  error: byId('data-error'),
  apply: byId<HTMLButtonElement>('data-apply'),
  sampleCount: byId<HTMLInputElement>('sample-count'),
  sampleLabel: byId('sample-count-label'),
  generate: byId<HTMLButtonElement>('data-generate'),
  download: byId<HTMLButtonElement>('data-download'),
  upload: byId<HTMLInputElement>('data-upload'),
});

export function mountDataPanel(store: Store, actions: Actions): void {
  const el = elements();
  el.dataset.replaceChildren(
    ...DATASETS.map((d) => h('option', { value: d.id }, d.title)),
    h('option', { value: 'custom' }, 'Your data (paste, drop or upload)'),
  );

  const fill = () => {
    el.text.value = store.view.resources.length ? formatData(store.view.resources) : '';
    showError(el.error, undefined);
    el.text.removeAttribute('aria-invalid');
  };
  const fail = (message: string) => {
    el.details.open = true;
    showError(el.error, message);
    el.text.setAttribute('aria-invalid', 'true');
    announce('The data is not valid');
  };
  const apply = async (text: string) => {
    const result = await actions.applyData(text);
    if ('problem' in result) return fail(result.problem);
    // Closed, so that the new resources show at once; the summary reopens it.
    const hadFocus = el.details.contains(document.activeElement);
    el.details.open = false;
    el.text.value = '';
    showError(el.error, undefined);
    el.text.removeAttribute('aria-invalid');
    if (hadFocus) el.details.querySelector('summary')?.focus();
    sayApplied(result);
  };

  el.dataset.addEventListener('change', async () => {
    if (el.dataset.value === 'custom') return chooseOwnData(store, actions, el);
    const problem = await actions.useDataset(el.dataset.value);
    if (problem) notices.show(problem, 'warning');
    else announce(`Dataset: ${store.view.dataset.title}`);
  });
  // Filled as the summary is clicked (keyboard activation clicks too), not on 'toggle': that event
  // comes a task later, and text typed or pasted in between was then appended to the data.
  el.details.querySelector('summary')?.addEventListener('click', () => {
    if (!el.details.open && !el.text.value) fill();
  });
  el.apply.addEventListener('click', () => void apply(el.text.value));
  el.text.addEventListener('keydown', (event) => {
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      void apply(el.text.value);
    }
  });
  el.generate.addEventListener('click', async () => {
    const count = Number(el.sampleCount.value);
    if (!Number.isSafeInteger(count) || count < 0 || count > 5000)
      return fail(
        `The number of generated ${store.view.dataset.plural} must be a whole number from 0 to 5000.`,
      );
    const problem = await actions.generate(count);
    if (problem) return fail(problem);
    fill();
    announce(`Generated ${store.count(count)}`);
  });
  el.download.addEventListener('click', () => {
    const name =
      store.state.data !== undefined && store.state.inferred
        ? 'resources'
        : store.view.dataset.plural;
    download(JSON.stringify(store.view.resources, null, 2), `${name.replaceAll(' ', '-')}.json`);
  });
  el.upload.addEventListener('change', async () => {
    const file = el.upload.files?.[0];
    if (!file) return;
    const text = await file.text();
    el.upload.value = '';
    await apply(text);
  });
  acceptDrops(apply);

  let opened: MissingData | undefined;
  store.on('data', () => {
    const { state, view } = store;
    el.dataset.value = state.data !== undefined ? 'custom' : view.dataset.id;
    el.summary.textContent = summaryText(store);
    el.sampleLabel.textContent = `Generated ${view.dataset.plural}`;
    el.sampleCount.value = String(state.sample);
    el.prompt.textContent = promptText(store);
    el.prompt.hidden = !el.prompt.textContent;
    // A link that left its data out opens the box that asks for it (once: it may be closed).
    if (state.missingData && state.missingData !== opened) {
      opened = state.missingData;
      el.details.open = true;
    }
    if (el.details.open && document.activeElement !== el.text) fill();
  });
}

/** "Your data": the box opens, empty and focused, at the top, for data pasted or dropped. */
async function chooseOwnData(store: Store, actions: Actions, el: Elements) {
  if (store.state.data === undefined) await actions.useOwnData();
  el.details.open = true;
  el.text.value = '';
  el.details.scrollIntoView({ block: 'nearest' });
  el.text.focus();
}

/** The one line applying data says: records, the schema's fields and key, a cleared filter. */
function sayApplied(result: DataApplied) {
  const records = `${result.records} record${result.records === 1 ? '' : 's'} applied`;
  const schema = result.inferred
    ? `schema inferred: ${result.fields} fields, key ${result.key}`
    : `schema kept: ${result.fields} fields, key ${result.key}`;
  const cleared = result.cleared
    ? ` The filter “${truncate(result.cleared.filter, 60)}” no longer checks (${result.cleared.why}): cleared, and kept in History.`
    : '';
  notices.show(`${records} · ${schema}.${cleared}`, {
    action: { label: 'Show the schema', run: showSchema },
  });
}

/** Opens the Fields panel and brings it into view. */
function showSchema() {
  const fields = byId<HTMLDetailsElement>('fields-details');
  fields.open = true;
  const summary = fields.querySelector('summary');
  summary?.scrollIntoView({ block: 'start' });
  summary?.focus();
}

function summaryText(store: Store): string {
  const { state, view } = store;
  if (state.missingData) return "waiting for the link's data";
  if (state.data === '' && view.resources.length === 0) return 'no data yet';
  return `${store.count(view.resources.length)}${state.data !== undefined ? ' (edited)' : ' (generated)'}`;
}

/** What the box asks for while "your data" is empty. */
function promptText(store: Store): string {
  const { state, view } = store;
  if (state.data === undefined || view.resources.length > 0) return '';
  const missing = state.missingData;
  if (!missing)
    return 'Paste your data here (a JSON array, a list response or NDJSON), drop a file anywhere on the page, or upload it.';
  const records = missing.records === undefined ? '' : ` (${missing.records} records)`;
  return `This link's data${records} was not included: paste or drop the data here, or upload its file. The filter, schema and tests are kept.`;
}

/** Files dropped anywhere on the page: `.proto` and JSON Schemas go to the schema, the rest is data. */
function acceptDrops(onData: (text: string) => Promise<void>) {
  const hasFiles = (event: DragEvent) => event.dataTransfer?.types.includes('Files') === true;
  document.addEventListener('dragover', (event) => {
    if (!hasFiles(event)) return;
    event.preventDefault();
    document.body.classList.add('dropping');
  });
  document.addEventListener('dragleave', (event) => {
    if (event.relatedTarget === null) document.body.classList.remove('dropping');
  });
  document.addEventListener('drop', async (event) => {
    document.body.classList.remove('dropping');
    const file = event.dataTransfer?.files[0];
    if (!file) return;
    event.preventDefault();
    const text = await file.text();
    if (/\.proto$|schema\.json$/i.test(file.name)) {
      document.dispatchEvent(new CustomEvent('listkit:schema-file', { detail: text }));
    } else await onData(text);
  });
}
