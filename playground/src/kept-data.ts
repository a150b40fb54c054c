// Data too large for a link, kept in this browser's IndexedDB under its digest, which the link
// carries (`dataRef`): the sender's own browser reopens such a link whole, while any other
// browser opens it on an empty "your data" that asks for the data. Bounded like every cache: the
// most recently used MAX_KEPT data sets, MAX_KEPT_CHARS characters in all. Storage that is refused
// (a private window, a full disk) only means the link asks for the data everywhere.

const DB_NAME = 'listkit-playground';
const TEXTS = 'texts';
const ENTRIES = 'entries';

/** How many data sets are kept, the most recently used first. */
export const MAX_KEPT = 10;
/** How many characters of data are kept in all (IndexedDB stores them as UTF-16: twice the bytes). */
export const MAX_KEPT_CHARS = 40_000_000;

interface Entry {
  ref: string;
  chars: number;
  /** When it was kept or last opened (ms since the epoch). */
  at: number;
}

let database: Promise<IDBDatabase | undefined> | undefined;

function openDatabase(): Promise<IDBDatabase | undefined> {
  database ??= new Promise((resolve) => {
    try {
      const request = indexedDB.open(DB_NAME, 1);
      request.onupgradeneeded = () => {
        request.result.createObjectStore(TEXTS);
        request.result.createObjectStore(ENTRIES, { keyPath: 'ref' });
      };
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => resolve(undefined);
      request.onblocked = () => resolve(undefined);
    } catch {
      resolve(undefined);
    }
  });
  return database;
}

const done = (transaction: IDBTransaction) =>
  new Promise<boolean>((resolve) => {
    transaction.oncomplete = () => resolve(true);
    transaction.onerror = () => resolve(false);
    transaction.onabort = () => resolve(false);
  });

const result = <T>(request: IDBRequest<T>) =>
  new Promise<T | undefined>((resolve) => {
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => resolve(undefined);
  });

/**
 * The digest a link names data by: SHA-256 of its text, the first 16 bytes in base64url.
 * Undefined where Web Crypto is missing (a page not served from a secure context).
 *
 * @example
 * const ref = await dataDigest('[{"id":1}]'); // 22 characters
 */
export function dataDigest(text: string): Promise<string | undefined> {
  // The link is rewritten after every evaluation; the data (megabytes) rarely changes.
  if (lastDigest?.text !== text) lastDigest = { text, digest: digestOf(text) };
  return lastDigest.digest;
}

let lastDigest: { text: string; digest: Promise<string | undefined> } | undefined;

async function digestOf(text: string): Promise<string | undefined> {
  if (!globalThis.crypto?.subtle) return undefined;
  const hash = new Uint8Array(
    await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text)),
  ).subarray(0, 16);
  return btoa(String.fromCharCode(...hash))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
}

/**
 * Keeps `text` under `ref`, dropping the least recently used data past the bounds. Resolves to
 * whether it was kept (never rejects).
 *
 * @example
 * await keepData(ref, JSON.stringify(resources));
 */
export async function keepData(ref: string, text: string): Promise<boolean> {
  if (text.length > MAX_KEPT_CHARS) return false;
  const db = await openDatabase();
  if (!db) return false;
  try {
    const transaction = db.transaction([TEXTS, ENTRIES], 'readwrite');
    const texts = transaction.objectStore(TEXTS);
    const entries = transaction.objectStore(ENTRIES);
    texts.put(text, ref);
    entries.put({ ref, chars: text.length, at: Date.now() } satisfies Entry);
    const all = ((await result(entries.getAll())) ?? []) as Entry[];
    all.sort((a, b) => b.at - a.at);
    let total = 0;
    all.forEach((entry, i) => {
      total += entry.chars;
      if (i < MAX_KEPT && total <= MAX_KEPT_CHARS) return;
      texts.delete(entry.ref);
      entries.delete(entry.ref);
    });
    return await done(transaction);
  } catch {
    return false;
  }
}

/**
 * The data kept under `ref`, or undefined (never kept here, dropped, or storage refused).
 *
 * @example
 * const text = await keptData(new URLSearchParams(location.hash.slice(1)).get('dataRef')!);
 */
export async function keptData(ref: string): Promise<string | undefined> {
  const db = await openDatabase();
  if (!db) return undefined;
  try {
    const transaction = db.transaction([TEXTS, ENTRIES], 'readwrite');
    const text = await result<unknown>(transaction.objectStore(TEXTS).get(ref));
    if (typeof text !== 'string') return undefined;
    transaction.objectStore(ENTRIES).put({ ref, chars: text.length, at: Date.now() });
    await done(transaction);
    return text;
  } catch {
    return undefined;
  }
}
