import type { AuthKind, ConditionalRequestOptions, Query, RequestSpec, Transport } from './http.js';
import { MessagingError } from './errors.js';
import { PagedList, type PageBody } from './pagination.js';

/** `/conversations/{id}` with the id escaped. */
export function path(strings: TemplateStringsArray, ...ids: string[]): string {
  return strings.reduce((out, part, i) => out + part + (i < ids.length ? encodeURIComponent(ids[i]!) : ''), '');
}

/** An empty id leaves an empty segment: `/conversations/` would be the list, answered as the one asked for. */
const EMPTY_SEGMENT = /\/(?=\/|$)/;

/** Base of every resource: calls through the transport with the resource's kind of credential. */
export abstract class ApiResource {
  protected readonly auth: AuthKind = 'tenant';

  constructor(protected readonly transport: Transport) {}

  protected async call<T>(method: RequestSpec['method'], path: string, init: { query?: Query; body?: unknown; options?: ConditionalRequestOptions | undefined } = {}): Promise<T> {
    if (EMPTY_SEGMENT.test(path)) throw new MessagingError(`id must be a non-empty string (${method} ${path}).`);
    const response = await this.transport.request<T>({ method, path, auth: this.auth, ...init });
    return response.data;
  }

  /** A lazy paged list; `cursor` in the params starts it at that page. */
  protected pagedList<T>(path: string, params: Record<string, unknown> | undefined, options?: ConditionalRequestOptions): PagedList<T> {
    const { cursor, ...filters } = (params ?? {}) as Query & { cursor?: string };
    return new PagedList<T>((next) => this.call<PageBody<T>>('GET', path, { query: { ...filters, cursor: next }, options }), cursor ?? undefined);
  }
}
