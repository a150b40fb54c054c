import type { BoundPageQuery, PageTokenBinding, PageTokenCodec } from './page-token-codec.js';

/**
 * The page's query, bound at most once and only when a token is opened or sealed: a first page
 * that fits needs no digest, a middle page opens one token and seals the next with one digest.
 */
export function boundQuery(
  codec: PageTokenCodec,
  binding: PageTokenBinding,
): () => Promise<BoundPageQuery> {
  let bound: Promise<BoundPageQuery> | undefined;
  return () => {
    bound ??= codec.bindQuery(binding);
    return bound;
  };
}
