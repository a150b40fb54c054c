// Tiny DOM helpers: the playground builds its dynamic parts with these instead of a framework.

type Child = Node | string | null | undefined | false;
type Attributes = Record<string, string | number | boolean | null | undefined>;

/** Creates an element with attributes (`class`, `aria-*`, `data-*`, …) and children. */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Attributes = {},
  ...children: (Child | Child[])[]
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === null || value === undefined || value === false) continue;
    element.setAttribute(name, value === true ? '' : String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    element.append(child);
  }
  return element;
}

/** The element with this id; throws when the page lacks it (a bug in index.html). */
export function byId<T extends HTMLElement = HTMLElement>(id: string): T {
  const element = document.getElementById(id);
  if (!element) throw new Error(`index.html has no #${id}`);
  return element as T;
}

/** Calls `run` once `ms` after the last call. */
export function debounce<A extends unknown[]>(ms: number, run: (...args: A) => void) {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const debounced = (...args: A) => {
    clearTimeout(timer);
    timer = setTimeout(() => run(...args), ms);
  };
  debounced.cancel = () => clearTimeout(timer);
  return debounced;
}

/** Shows or hides a `<pre>` holding an error; empty text hides it. */
export function showError(element: HTMLElement, text: string | undefined): void {
  element.textContent = text ?? '';
  element.hidden = !text;
  // A caret diagram does not wrap; it scrolls sideways in its box, which the keyboard must
  // reach too (axe-core's scrollable-region-focusable).
  if (element.classList.contains('error-box')) element.tabIndex = text ? 0 : -1;
}

/** Milliseconds for people: two significant decimals under 10 ms. */
export function formatMs(ms: number): string {
  if (ms < 0.01) return '<0.01 ms';
  if (ms < 10) return `${ms.toFixed(2)} ms`;
  return `${Math.round(ms)} ms`;
}

/** Shortens long text in the middle of a table cell; the full text goes in the title. */
export function truncate(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}
