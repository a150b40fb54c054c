// The Data panel: the dataset menu, the data as text (paste JSON, a list response or NDJSON and
// apply it), a file dropped on the page or uploaded, the generated sample and its size, and a
// download of what is in use.
import type { Actions } from '../actions.js';
import { formatData } from '../data.js';
import { DATASETS } from '../datasets/index.js';
import { byId, h, showError } from '../dom.js';
import type { Store } from '../store.js';
import { announce, download, notices } from '../ui.js';

export function mountDataPanel(store: Store, actions: Actions): void {
  const el = {
    dataset: byId<HTMLSelectElement>('dataset'),
    details: byId<HTMLDetailsElement>('data-details'),
    summary: byId('data-summary'),
    text: byId<HTMLTextAreaElement>('data-text'),
    error: byId('data-error'),
    apply: byId<HTMLButtonElement>('data-apply'),
    sampleCount: byId<HTMLInputElement>('sample-count'),
    sampleLabel: byId('sample-count-label'),
    generate: byId<HTMLButtonElement>('data-generate'),
    download: byId<HTMLButtonElement>('data-download'),
    upload: byId<HTMLInputElement>('data-upload'),
  };
  el.dataset.replaceChildren(
    ...DATASETS.map((d) => h('option', { value: d.id }, d.title)),
    h('option', { value: 'custom', disabled: true }, 'Your data (paste, drop or upload)'),
  );

  const fill = () => {
    el.text.value = formatData(store.view.resources);
    showError(el.error, undefined);
    el.text.removeAttribute('aria-invalid');
  };
  const fail = (message: string) => {
    showError(el.error, message);
    el.text.setAttribute('aria-invalid', 'true');
    announce('The data is not valid');
  };
  const apply = async (text: string) => {
    const problem = await actions.applyData(text);
    if (problem) return fail(problem);
    fill();
    announce(`Data applied: ${store.count(store.view.resources.length)}`);
  };

  el.dataset.addEventListener('change', async () => {
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
    el.details.open = true;
    el.text.value = await file.text();
    el.upload.value = '';
    await apply(el.text.value);
  });
  acceptDrops(async (text) => {
    el.details.open = true;
    el.text.value = text;
    await apply(text);
  });

  store.on('data', () => {
    const { state, view } = store;
    const custom = state.inferred || state.schemaText !== undefined;
    el.dataset.value = custom && state.data !== undefined ? 'custom' : view.dataset.id;
    el.summary.textContent = `${store.count(view.resources.length)}${state.data !== undefined ? ' (edited)' : ' (generated)'}`;
    el.sampleLabel.textContent = `Generated ${view.dataset.plural}`;
    el.sampleCount.value = String(state.sample);
    if (el.details.open && document.activeElement !== el.text) fill();
  });
}

/** Files dropped anywhere on the page: `.proto` and JSON Schemas go to the schema, the rest is data. */
function acceptDrops(onData: (text: string) => Promise<void>) {
  document.addEventListener('dragover', (event) => {
    if (event.dataTransfer?.types.includes('Files')) event.preventDefault();
  });
  document.addEventListener('drop', async (event) => {
    const file = event.dataTransfer?.files[0];
    if (!file) return;
    event.preventDefault();
    const text = await file.text();
    if (/\.proto$|schema\.json$/i.test(file.name)) {
      document.dispatchEvent(new CustomEvent('listkit:schema-file', { detail: text }));
    } else await onData(text);
  });
}
