import type { RequestOptions } from '../core/http.js';
import type { PagedList } from '../core/pagination.js';
import { ApiResource } from '../core/resource.js';
import type { Event, ListEventsParams } from '../types.js';

export class Events extends ApiResource {
  /** The last 30 days of events, newest first; `type` takes an exact type or `*`, `conversation.*`, `booking.*`. */
  list(params?: ListEventsParams, options?: RequestOptions): PagedList<Event> {
    return this.pagedList('/events', params, options);
  }
}
