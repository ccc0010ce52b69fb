import * as generated from '../generated/resources.js';
import { RealtimeSubscription, type RealtimeSubscribeOptions } from '../realtime.js';
import type { Event } from '../types.js';

/** `client.realtime`: tickets (generated), and subscriptions that reconnect and resume by themselves. */
export class Realtime extends generated.Realtime {
  /**
   * Opens a realtime subscription: `onEvent` receives every event (of `types`, of `conversationId`) the
   * caller may see, from now on (or after `after`), once each, across drops and reconnections.
   */
  subscribe(options: RealtimeSubscribeOptions): RealtimeSubscription {
    return new RealtimeSubscription(
      {
        createTicket: (body) => this.createTicket(body),
        listEvents: (query) =>
          this.call<{ data: Event[]; pagination: { has_more: boolean; next_cursor: string | null } }>('GET', '/events', {
            query,
          }),
      },
      options,
    );
  }
}
