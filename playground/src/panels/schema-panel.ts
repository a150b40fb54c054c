// The Fields panel: the schema in use, where it came from, every field a filter may name; the
// key, orderings and searchable fields; and another schema: a JSON Schema, a `.proto` message, or
// the one in use edited as listkit schema JSON.
import type { Actions } from '../actions.js';
import { byId, h, showError } from '../dom.js';
import { protoMessageName, type SchemaOverrides, schemaTextKind } from '../schema-source.js';
import type { Store } from '../store.js';
import { announce } from '../ui.js';
import { renderFields } from './fields-view.js';

const list = (text: string) =>
  text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

export function mountSchemaPanel(store: Store, actions: Actions): void {
  const el = {
    details: byId<HTMLDetailsElement>('fields-details'),
    origin: byId('schema-origin'),
    fields: byId('fields'),
    warnings: byId('schema-warnings'),
    key: byId<HTMLSelectElement>('schema-key'),
    orderings: byId<HTMLInputElement>('schema-orderings'),
    searchable: byId<HTMLInputElement>('schema-searchable'),
    optionsApply: byId<HTMLButtonElement>('schema-options-apply'),
    optionsError: byId('schema-options-error'),
    text: byId<HTMLTextAreaElement>('schema-text'),
    kind: byId('schema-kind'),
    message: byId<HTMLInputElement>('schema-message'),
    apply: byId<HTMLButtonElement>('schema-apply'),
    edit: byId<HTMLButtonElement>('schema-edit'),
    infer: byId<HTMLButtonElement>('schema-infer'),
    reset: byId<HTMLButtonElement>('schema-reset'),
    error: byId('schema-error'),
  };
  // The table scrolls sideways on a phone; the keyboard must reach it (scrollable-region-focusable).
  el.fields.tabIndex = 0;
  const showKind = () => {
    const text = el.text.value.trim();
    const kind = text ? schemaTextKind(text) : undefined;
    el.kind.textContent = kind ? `Read as ${kind}` : '';
    el.message.closest('.field')?.toggleAttribute('hidden', kind !== '.proto');
    if (kind === '.proto' && !el.message.value)
      el.message.placeholder = protoMessageName(text) ?? '';
  };
  const done = (problem: string | undefined, what: string) => {
    showError(el.error, problem);
    if (!problem) announce(what);
  };

  el.text.addEventListener('input', showKind);
  el.apply.addEventListener('click', async () => {
    const text = el.text.value.trim();
    if (!text)
      return done('Paste a JSON Schema, a .proto message or listkit schema JSON first.', '');
    done(
      await actions.setSchema(text, false, el.message.value.trim() || undefined),
      'Schema applied',
    );
  });
  el.edit.addEventListener('click', () => {
    el.text.value = JSON.stringify(store.view.schema, null, 2);
    showKind();
    el.text.focus();
  });
  el.infer.addEventListener('click', async () =>
    done(await actions.setSchema(undefined, true), 'Schema inferred from the data'),
  );
  el.reset.addEventListener('click', async () =>
    done(
      await actions.setSchema(undefined, false),
      `The ${store.view.dataset.plural} schema is used`,
    ),
  );
  el.optionsApply.addEventListener('click', async () => {
    const overrides: SchemaOverrides = {};
    if (el.key.value !== store.view.schema.key) overrides.key = el.key.value;
    else if (store.state.overrides.key) overrides.key = store.state.overrides.key;
    if (el.orderings.value.trim()) overrides.orderings = ['', ...list(el.orderings.value)];
    const searchable = list(el.searchable.value);
    const current = store.view.fields.filter((f) => f.searchable && !f.path.includes('.'));
    if (searchable.join() !== current.map((f) => f.path).join()) overrides.searchable = searchable;
    else if (store.state.overrides.searchable) overrides.searchable = searchable;
    const problem = await actions.setOverrides(overrides);
    showError(el.optionsError, problem);
    if (!problem) announce('Key, orderings and searchable fields applied');
  });
  document.addEventListener('listkit:schema-file', async (event) => {
    el.details.open = true;
    el.text.value = (event as CustomEvent<string>).detail;
    showKind();
    done(await actions.setSchema(el.text.value, false), 'Schema applied');
  });

  store.on('data', () => {
    const { view } = store;
    el.origin.textContent = `${view.fields.length} fields, key: ${view.schema.key}; ${view.schemaOrigin}`;
    renderFields(el.fields, view.fields);
    el.warnings.replaceChildren(...view.schemaWarnings.map((w) => h('li', {}, `Skipped: ${w}`)));
    const keys = view.fields.filter(
      (f) => !f.path.includes('.') && ['string', 'int64'].includes(f.type.kind),
    );
    el.key.replaceChildren(...keys.map((f) => h('option', { value: f.path }, f.path)));
    el.key.value = view.schema.key;
    el.orderings.value = (view.schema.orderings ?? []).filter(Boolean).join(', ');
    el.searchable.value = view.fields
      .filter((f) => f.searchable && !f.path.includes('.'))
      .map((f) => f.path)
      .join(', ');
  });
}
