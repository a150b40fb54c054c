import { ListkitError } from '../errors.js';

/** The longest parent a list call accepts: longer than any resource name Google allows. */
export const MAX_PARENT_LENGTH = 2048;

/**
 * The parent of a resource name (AIP-122): the name without its last collection and id, so
 * `shelves/1/books/b` is under `shelves/1`, and `books/b` (a top-level resource) under `''`.
 * A name without a `/` has no parent in it: `''`.
 *
 * @example
 * ```ts
 * resourceParent('publishers/p/shelves/1/books/b'); // 'publishers/p/shelves/1'
 * resourceParent('books/b'); // ''
 * ```
 */
export function resourceParent(name: string): string {
  const last = name.lastIndexOf('/');
  if (last < 0) return '';
  const collection = name.lastIndexOf('/', last - 1);
  return collection < 0 ? '' : name.slice(0, collection);
}

/**
 * Which items a list call with a `parent` may return: those whose parent is exactly the
 * request's parent, or, where the request's parent has a `-` segment (AIP-159, "any"), whose
 * parent has the same segments with anything in place of each `-`.
 */
export interface ParentScope {
  /** The parent's exact text when it has no wildcard: the term of the parent index to seek. */
  readonly exact?: string;
  /** Whether an item's parent is inside the scope. */
  matches(itemParent: string): boolean;
}

/**
 * The scope of a request's parent; undefined for none (`undefined` or `''`: the whole
 * collection). Throws a {@link ListkitError} on `parent` for a parent that is not text, is
 * longer than {@link MAX_PARENT_LENGTH} or has an empty segment.
 */
export function parentScope(parent: unknown): ParentScope | undefined {
  if (parent === undefined || parent === '') return undefined;
  const refuse = (message: string, text: string): never => {
    throw ListkitError.of(
      'parent',
      'invalid_parent',
      message,
      { start: 0, end: text.length },
      text,
    );
  };
  if (typeof parent !== 'string') return refuse(`parent must be text, not ${typeof parent}`, '');
  if (parent.length > MAX_PARENT_LENGTH) {
    return refuse(`parent is longer than ${MAX_PARENT_LENGTH} characters`, parent);
  }
  const segments = parent.split('/');
  if (segments.some((s) => s === '')) {
    return refuse(`parent '${parent}' has an empty segment`, parent);
  }
  if (!segments.includes('-')) {
    return { exact: parent, matches: (itemParent) => itemParent === parent };
  }
  return {
    matches: (itemParent) => {
      const theirs = itemParent.split('/');
      return (
        theirs.length === segments.length && segments.every((s, i) => s === '-' || s === theirs[i])
      );
    },
  };
}
