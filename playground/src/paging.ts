// Paging with the real list pipeline: a Collection (keyset paging over a sorted index) and a
// PageTokenCodec that seals cursors with AES-GCM through Web Crypto, exactly as a server does.
import { Collection, type ListPage, PageTokenCodec, type ResourceSchema } from '@listkit/query';
import type { Resource } from './engine.js';

export interface PageQuery {
  filter: string;
  orderBy: string;
  pageSize: number;
}

let codec: Promise<PageTokenCodec> | undefined;

/** One codec per page load, with a random key: tokens do not outlive the page, as on a server restart. */
export function pageTokenCodec(): Promise<PageTokenCodec> {
  codec ??= PageTokenCodec.create();
  return codec;
}

/** Builds a collection of the resources (the schema's key identifies them). */
export async function buildCollection(
  resources: readonly Resource[],
  schema: ResourceSchema,
): Promise<Collection<Resource>> {
  // The data is the person's own, as pasted: a `null` or a value of another type than the
  // (often inferred) schema says is a thing to see in the results, not a reason for the page to
  // refuse it, so items are kept as given and read by the filter as the engine reads them.
  const collection = new Collection<Resource>(schema, {
    pageTokens: await pageTokenCodec(),
    validate: false,
  });
  for (const resource of resources) collection.put(resource);
  return collection;
}

/** Walks the pages of one query: page n is opened with the token page n-1 returned. */
export class PageWalker {
  /** tokens[i] opens page i; page 0 needs none. */
  private tokens: (string | undefined)[] = [undefined];
  index = 0;

  constructor(
    private readonly collection: Collection<Resource>,
    readonly query: PageQuery,
  ) {}

  /** The current page. Throws ListkitError for an invalid filter, orderBy or token. */
  async current(): Promise<ListPage<Resource>> {
    const page = await this.collection.list({
      filter: this.query.filter,
      orderBy: this.query.orderBy,
      pageSize: this.query.pageSize,
      pageToken: this.tokens[this.index],
    });
    this.tokens[this.index + 1] = page.nextPageToken;
    this.tokens.length = this.index + 2;
    return page;
  }

  get hasNext(): boolean {
    return this.tokens[this.index + 1] !== undefined;
  }

  get hasPrevious(): boolean {
    return this.index > 0;
  }

  /** The token the current page was opened with. */
  get token(): string | undefined {
    return this.tokens[this.index];
  }

  next(): void {
    if (this.hasNext) this.index++;
  }

  previous(): void {
    if (this.index > 0) this.index--;
  }

  first(): void {
    this.index = 0;
  }
}
