import { defineContract, page, resourceId } from '../platform/api-contract';
import { Event } from './event-schemas';

export const contract = defineContract({
  'events-list': {
    operationId: 'listEvents',
    summary: 'List events',
    description:
      'The tenant\u2019s events of the last 30 days, newest first: what a webhook may have missed. `type` takes an exact type or `*`, ' +
      '`conversation.*`, `booking.*`, `payment.*` (reserved); `since` and `until` bound the time; `after` (an event id) keeps only later events, ' +
      'read strongly consistent: how a realtime client resumes after a drop. ' +
      'A `conversation.*` page, or one of a conversation type, evaluates at most 1,000 events, so it may be short (even empty) with `has_more`: follow `next_cursor`. ' +
      "A message's status events (sent, delivered, read, failed) are listed a moment after the status moved: a poller should overlap its `since` window and dedupe on the event id.",
    responses: { 200: { description: 'A page of events.', body: page('EventList', Event) } },
  },
  'events-get': {
    operationId: 'getEvent',
    summary: 'Get an event',
    description:
      'One event of the last 30 days, exactly as webhooks deliver it. A receiver can fetch the event a delivery names ' +
      'instead of trusting its body, and learn whether an id is one of the tenant’s events.',
    params: { id: resourceId('evt') },
    responses: { 200: { description: 'The event.', body: Event } },
    errors: { 404: ['not_found'] },
  },
});
