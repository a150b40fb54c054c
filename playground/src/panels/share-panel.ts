// Sharing: the link (the whole state in the hash, rewritten as things change), copy as link or
// Markdown, and the examples menu (each example its own link, grouped by dataset).
import { DATASETS } from '../datasets/index.js';
import { byId, h } from '../dom.js';
import { STYLE_NAMES } from '../engine.js';
import type { Store } from '../store.js';
import { copy, notices } from '../ui.js';
import { encodeState, MAX_LINK_DATA_CHARS } from '../url-state.js';

export function mountSharePanel(store: Store): void {
  const el = {
    menu: byId<HTMLDetailsElement>('examples-menu'),
    list: byId('examples-list'),
    copyLink: byId<HTMLButtonElement>('copy-link'),
    copyMarkdown: byId<HTMLButtonElement>('copy-markdown'),
  };
  let urlWrite: Promise<void> = Promise.resolve();
  let warnedDataTooLarge = false;
  const writeUrl = () => {
    urlWrite = urlWrite.then(async () => {
      const { hash, dataLeftOut } = await encodeState(store.state);
      if (hash !== location.hash) history.replaceState(null, '', hash);
      if (dataLeftOut && !warnedDataTooLarge) {
        warnedDataTooLarge = true;
        notices.show(
          `The edited data is too large for a link (over ${MAX_LINK_DATA_CHARS / 1000} KB packed): the link keeps the filter, orderBy, page size, schema and tests only. Use “Download data” in Data to share the data as a file.`,
          'warning',
        );
      }
      if (!dataLeftOut) warnedDataTooLarge = false;
    });
  };
  const shareLink = async () => {
    writeUrl();
    await urlWrite;
    return location.href;
  };
  store.on(['evaluation', 'query', 'data', 'expectations'], writeUrl);

  renderExamples(el.list);
  el.copyLink.addEventListener('click', async () => copy(await shareLink(), 'Link'));
  el.copyMarkdown.addEventListener('click', async () =>
    copy(markdown(store, await shareLink()), 'Markdown'),
  );
  el.menu.addEventListener('keydown', (event) => {
    if (event.key === 'Escape' && el.menu.open) {
      el.menu.open = false;
      el.menu.querySelector('summary')?.focus();
    }
  });
  el.list.addEventListener('click', (event) => {
    if ((event.target as Element).closest('a')) el.menu.open = false;
  });
  document.addEventListener('click', (event) => {
    if (el.menu.open && !el.menu.contains(event.target as Node)) el.menu.open = false;
  });
}

function renderExamples(container: HTMLElement) {
  const groups = new Map<string, HTMLElement>();
  for (const example of DATASETS.flatMap((d) => d.examples)) {
    let list = groups.get(example.group);
    if (!list) {
      list = h('ul', { 'aria-label': example.group });
      groups.set(example.group, list);
      const dataset = example.dataset ? ` (${example.dataset})` : '';
      container.append(h('h3', {}, `${example.group}${dataset}`), list);
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

function markdown(store: Store, link: string): string {
  const { state, view } = store;
  const evaluation = view.evaluation;
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
    facts.push(`${evaluation.matchCount} of ${store.count(view.resources.length)} match`);
  lines.push(facts.join(' · '), '', `[Open in the playground](${link})`);
  return lines.join('\n');
}
