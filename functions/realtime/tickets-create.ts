import * as z from 'zod/mini';
import { httpHandler, tenantPrincipal } from '../http/handler';
import { issueTicket } from './service';
import { subscriptionFields, subscriptionOf } from './subscription';

export const CreateTicketBody = z.strictObject(subscriptionFields);

/** A short-lived, single-use ticket to open a realtime WebSocket connection (docs/realtime.md). */
export const handler = httpHandler(
  'realtime-tickets-create',
  { body: CreateTicketBody },
  async ({ body, principal, now }) => {
    const issued = await issueTicket(tenantPrincipal(principal), subscriptionOf(body ?? {}), now);
    return { status: 201, headers: { 'Cache-Control': 'no-store' }, body: issued };
  },
);
