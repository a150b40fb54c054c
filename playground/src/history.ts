// The filters evaluated lately, newest first, kept in localStorage so they survive a reload.
// Bounded in count and length; a filter typed on from the previous one replaces it instead of
// adding one entry per keystroke.

export interface HistoryEntry {
  filter: string;
  orderBy: string;
  /** The dataset it ran on (its id, or "your data"). */
  dataset: string;
  at: number;
}

export const HISTORY_KEY = 'listkit.playground.history';
export const MAX_HISTORY = 30;
const MAX_FILTER_CHARS = 4000;
/** Edits closer together than this that extend or shorten the last filter replace it. */
const TYPING_MS = 4000;

export function loadHistory(storage: Storage | undefined = safeStorage()): HistoryEntry[] {
  try {
    const value = JSON.parse(storage?.getItem(HISTORY_KEY) ?? '[]') as unknown;
    if (!Array.isArray(value)) return [];
    return value
      .filter(
        (e): e is HistoryEntry =>
          typeof e?.filter === 'string' &&
          e.filter.length <= MAX_FILTER_CHARS &&
          typeof e.orderBy === 'string' &&
          typeof e.dataset === 'string' &&
          typeof e.at === 'number',
      )
      .slice(0, MAX_HISTORY);
  } catch {
    return [];
  }
}

/** Adds an evaluated filter; returns the new list (also saved). */
export function recordHistory(
  entry: HistoryEntry,
  storage: Storage | undefined = safeStorage(),
): HistoryEntry[] {
  let list = loadHistory(storage);
  if (!entry.filter.trim() || entry.filter.length > MAX_FILTER_CHARS) return list;
  const last = list[0];
  const typedOn =
    last &&
    entry.at - last.at < TYPING_MS &&
    (entry.filter.startsWith(last.filter) || last.filter.startsWith(entry.filter));
  if (typedOn) list = list.slice(1);
  list = [entry, ...list.filter((e) => e.filter !== entry.filter || e.dataset !== entry.dataset)];
  list = list.slice(0, MAX_HISTORY);
  try {
    storage?.setItem(HISTORY_KEY, JSON.stringify(list));
  } catch {
    // storage full or refused: the history is only kept for this page
  }
  return list;
}

export function clearHistory(storage: Storage | undefined = safeStorage()): void {
  storage?.removeItem(HISTORY_KEY);
}

function safeStorage(): Storage | undefined {
  try {
    return globalThis.localStorage;
  } catch {
    return undefined;
  }
}
