// The whole playground state lives in the URL's hash, so a link reproduces it: nothing is stored
// on a server, and nothing expires. Edited data is deflated and base64url-encoded.

export interface PlaygroundState {
  filter: string;
  orderBy: string;
  pageSize: number;
  /** How many rules to generate when the data is not edited. */
  sample: number;
  /** Edited data (JSON text); absent while the generated sample is in use. */
  data?: string;
}

/** Compute Engine's largest maxResults. */
export const MAX_PAGE_SIZE = 500;

export const DEFAULTS: PlaygroundState = {
  filter: '',
  orderBy: '',
  pageSize: 10,
  sample: 300,
};

/**
 * The most characters of packed data a link carries (about 40 rules). Longer links break in chat
 * tools, mail and servers (many stop at 8 KB); larger data is shared as a file instead.
 */
export const MAX_LINK_DATA_CHARS = 6000;

export interface EncodedState {
  hash: string;
  /** The edited data was too large for the link and is not in it. */
  dataLeftOut: boolean;
}

/**
 * The hash for a state. Defaults are left out to keep links short, except the filter: a link
 * with no hash at all opens the first-visit example instead.
 */
export async function encodeState(state: PlaygroundState): Promise<EncodedState> {
  const params = new URLSearchParams();
  params.set('filter', state.filter);
  if (state.orderBy) params.set('orderBy', state.orderBy);
  if (state.pageSize !== DEFAULTS.pageSize) params.set('pageSize', String(state.pageSize));
  let dataLeftOut = false;
  if (state.data !== undefined) {
    const packed = await packText(state.data);
    if (packed.length <= MAX_LINK_DATA_CHARS) params.set('data', packed);
    else dataLeftOut = true;
  } else if (state.sample !== DEFAULTS.sample) params.set('sample', String(state.sample));
  return { hash: `#${params}`, dataLeftOut };
}

export interface DecodedHash {
  state: Partial<PlaygroundState>;
  /** `#example=<id>`: an example's link. */
  example?: string;
  /** Problems reading the hash (such as corrupted data). */
  warnings: string[];
}

/** Reads a hash written by {@link encodeState} (or an example link). Unknown keys are ignored. */
export async function decodeHash(hash: string): Promise<DecodedHash> {
  const params = new URLSearchParams(hash.replace(/^#/, ''));
  const state: Partial<PlaygroundState> = {};
  const warnings: string[] = [];
  const filter = params.get('filter');
  if (filter !== null) state.filter = filter;
  const orderBy = params.get('orderBy');
  if (orderBy !== null) state.orderBy = orderBy;
  const pageSize = params.get('pageSize');
  if (pageSize !== null) {
    const n = Number(pageSize);
    if (Number.isSafeInteger(n) && n >= 1 && n <= MAX_PAGE_SIZE) state.pageSize = n;
    else
      warnings.push(`ignored pageSize=${pageSize}: not a whole number from 1 to ${MAX_PAGE_SIZE}`);
  }
  const sample = params.get('sample');
  if (sample !== null) {
    const n = Number(sample);
    if (Number.isSafeInteger(n) && n >= 0 && n <= 5000) state.sample = n;
    else warnings.push(`ignored sample=${sample}: not a count from 0 to 5000`);
  }
  const data = params.get('data');
  if (data !== null) {
    try {
      state.data = await unpackText(data);
    } catch {
      warnings.push('the data in this link is damaged; the generated sample is shown instead');
    }
  }
  return { state, example: params.get('example') ?? undefined, warnings };
}

// 'z' + deflate-raw, or 'j' + plain UTF-8 where CompressionStream is missing; both base64url.
// The last result is kept: the URL is rewritten on every evaluation, the data rarely changes.
let lastPacked: { text: string; packed: Promise<string> } | undefined;
function packText(text: string): Promise<string> {
  if (lastPacked?.text !== text) lastPacked = { text, packed: pack(text) };
  return lastPacked.packed;
}

async function pack(text: string): Promise<string> {
  const bytes = new TextEncoder().encode(text);
  if (typeof CompressionStream === 'function') {
    const deflated = await transform(bytes, new CompressionStream('deflate-raw'));
    return `z${toBase64Url(deflated)}`;
  }
  return `j${toBase64Url(bytes)}`;
}

async function unpackText(packed: string): Promise<string> {
  const bytes = fromBase64Url(packed.slice(1));
  if (packed[0] === 'j') return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  if (packed[0] !== 'z') throw new Error('unknown data encoding');
  const inflated = await transform(bytes, new DecompressionStream('deflate-raw'));
  return new TextDecoder('utf-8', { fatal: true }).decode(inflated);
}

async function transform(bytes: Uint8Array, stream: CompressionStream | DecompressionStream) {
  const body = new Blob([bytes as BlobPart]).stream().pipeThrough(stream);
  return new Uint8Array(await new Response(body).arrayBuffer());
}

function toBase64Url(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function fromBase64Url(text: string): Uint8Array {
  const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}
