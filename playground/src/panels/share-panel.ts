// Sharing: the link (the whole state in the hash, rewritten as things change), copy as link or
// Markdown, and the examples menu (each example its own link, grouped by dataset). Data too large
// for a link is left out of it and kept in this browser (kept-data.ts); that is said when the
// link is copied, where it matters, not as the data is applied.
import { DATASETS } from '../datasets/index.js';
import { byId, h } from '../dom.js';
import { STYLE_NAMES } from '../engine.js';
import { dataDigest, keepData } from '../kept-data.js';
import type { Store } from '../store.js';
import { copy } from '../ui.js';
import { encodeState, type LeftOutData, MAX_LINK_DATA_CHARS } from '../url-state.js';

export function mountSharePanel(store: Store): void {
  const el = {
    menu: byId<HTMLDetailsElement>('examples-menu'),
    list: byId('examples-list'),
    copyLink: byId<HTMLButtonElement>('copy-link'),
    copyMarkdown: byId<HTMLButtonElement>('copy-markdown'),
  };
  let urlWrite: Promise<void> = Promise.resolve();
  let leftOut: LeftOutData | undefined;
  let kept: string | undefined;
  const writeUrl = () => {
    urlWrite = urlWrite.then(async () => {
      const encoded = await encodeState(store.state, {
        records: store.view.resources.length,
        schemaJson: () => JSON.stringify(store.view.schema),
        digest: dataDigest,
      });
      if (encoded.hash !== location.hash) history.replaceState(null, '', encoded.hash);
      leftOut = encoded.dataLeftOut;
      // Kept in this browser under the digest the link names, so the link reopens it here.
      const data = store.state.data;
      if (leftOut?.ref && leftOut.ref !== kept && data !== undefined) {
        kept = leftOut.ref;
        await keepData(leftOut.ref, data);
      }
    });
  };
  /** The link, and what the status line says of it when it left the data out (else undefined). */
  const shareLink = async (): Promise<[string, string | undefined]> => {
    writeUrl();
    await urlWrite;
    return [location.href, leftOut && leftOutText(leftOut)];
  };
  store.on(['evaluation', 'query', 'data', 'expectations', 'sql-dialect'], writeUrl);

  renderExamples(el.list);
  el.copyLink.addEventListener('click', async () => {
    const [link, said] = await shareLink();
    await copy(link, 'Link', said && `Link copied without the data: ${said}`);
  });
  el.copyMarkdown.addEventListener('click', async () => {
    const [link, said] = await shareLink();
    await copy(
      markdown(store, link),
      'Markdown',
      said && `Markdown copied; its link is without the data: ${said}`,
    );
  });
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

/** Why the link holds no data, and what it does instead: said when the link is copied. */
function leftOutText(data: LeftOutData): string {
  const records = data.records === undefined ? 'the data' : `its ${data.records} records`;
  const here = data.ref ? ' This browser keeps them, so the link reopens them here.' : '';
  return `${records} pack to ${(data.packedChars / 1000).toFixed(1)} KB, over the ${MAX_LINK_DATA_CHARS / 1000} KB a link holds. It opens elsewhere on an empty “your data” that asks for them, with the filter, schema and tests.${here} Share the data as a file with “Download data”.`;
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
