/**
 * Cursor pagination. A list call returns a `PagedList`: iterate it with `for await` to walk every item
 * of every page, or ask for one `page()` at a time and keep its `nextCursor`.
 */

/** The body of every list response. */
export interface PageBody<T> {
  data: T[];
  pagination: { limit: number; has_more: boolean; next_cursor: string | null };
}

export type FetchPage<T> = (cursor: string | undefined) => Promise<PageBody<T>>;

/** One page of a list. Iterable over its items. */
export class Page<T> implements Iterable<T> {
  /** The items of this page, newest first. */
  readonly data: T[];
  /** Whether another page follows. */
  readonly hasMore: boolean;
  /** Pass it as `cursor` to get the next page; null on the last page. */
  readonly nextCursor: string | null;
  /** The page size asked for. */
  readonly limit: number;

  constructor(
    body: PageBody<T>,
    private readonly fetchPage: FetchPage<T>,
  ) {
    this.data = body.data;
    this.hasMore = body.pagination.has_more;
    this.nextCursor = body.pagination.next_cursor;
    this.limit = body.pagination.limit;
  }

  /** The next page, or null after the last one. */
  async nextPage(): Promise<Page<T> | null> {
    if (!this.hasMore || this.nextCursor === null) return null;
    return new Page(await this.fetchPage(this.nextCursor), this.fetchPage);
  }

  [Symbol.iterator](): Iterator<T> {
    return this.data[Symbol.iterator]();
  }
}

/**
 * A list that fetches lazily. `for await (const item of list)` walks every page; `await list.page()` (or
 * `await list`) gives the first page (or the page at the `cursor` the list was called with).
 */
export class PagedList<T> implements AsyncIterable<T>, PromiseLike<Page<T>> {
  constructor(
    private readonly fetchPage: FetchPage<T>,
    private readonly cursor?: string,
  ) {}

  /** One page: the first, or the one at the `cursor` given to the list call. */
  async page(): Promise<Page<T>> {
    return new Page(await this.fetchPage(this.cursor), this.fetchPage);
  }

  /** Every page in turn. */
  async *pages(): AsyncGenerator<Page<T>, void, undefined> {
    let page: Page<T> | null = await this.page();
    while (page) {
      yield page;
      page = await page.nextPage();
    }
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<T, void, undefined> {
    for await (const page of this.pages()) yield* page.data;
  }

  /** Every item, fetching pages until `max` items (default: all of them). */
  async toArray(options: { max?: number } = {}): Promise<T[]> {
    const max = options.max ?? Infinity;
    const items: T[] = [];
    if (max <= 0) return items;
    for await (const item of this) {
      items.push(item);
      if (items.length >= max) break;
    }
    return items;
  }

  then<R1 = Page<T>, R2 = never>(
    onFulfilled?: ((value: Page<T>) => R1 | PromiseLike<R1>) | null,
    onRejected?: ((reason: unknown) => R2 | PromiseLike<R2>) | null,
  ): Promise<R1 | R2> {
    return this.page().then(onFulfilled, onRejected);
  }
}
