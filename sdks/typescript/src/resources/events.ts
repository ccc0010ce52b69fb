import type { RequestOptions } from '../core/http.js';
import type { PagedList } from '../core/pagination.js';
import { ApiResource, path } from '../core/resource.js';
import type { Event, ListEventsParams } from '../types.js';

export class Events extends ApiResource {
  /** The last 30 days of events, newest first; `type` takes an exact type or `*`, `conversation.*`, `booking.*`. */
  list(params?: ListEventsParams, options?: RequestOptions): PagedList<Event> {
    return this.pagedList('/events', params, options);
  }

  /** One event of the last 30 days, as webhooks deliver it (a receiver may fetch the event a delivery names). */
  get(id: string, options?: RequestOptions): Promise<Event> {
    return this.call('GET', path`/events/${id}`, { options });
  }
}
