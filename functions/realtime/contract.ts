import * as z from 'zod/mini';
import { defineContract, named, timestamp } from '../platform/api-contract';

export const RealtimeTicket = named(
  'RealtimeTicket',
  z.object({
    ticket: z.string().check(
      z.meta({
        pattern: '^rtt_[A-Za-z0-9_-]{32}$',
        description: 'Opens one WebSocket connection, once, within 60 seconds. Only its SHA-256 is stored.',
      }),
    ),
    url: z.string().check(
      z.meta({
        description:
          'The WebSocket URL to open, with the tenant and the ticket in its query (`wss://…` in AWS, `ws://127.0.0.1:<port>` locally).',
      }),
    ),
    expires_at: timestamp,
  }),
);

export const contract = defineContract({
  'realtime-tickets-create': {
    operationId: 'createRealtimeTicket',
    summary: 'Create a realtime ticket',
    description:
      'A short-lived, single-use ticket to open a realtime WebSocket connection (docs/realtime.md): the socket then receives every ' +
      'event of the tenant committed after it opened, as the same envelopes as webhooks and `GET /events`, filtered by the ' +
      'caller\u2019s role and by the optional subscription (`types`, `conversation_id`). A ticket used twice, expired or ' +
      'presented for another tenant is refused at the handshake (401). At most 200 connections per tenant and 10 per user or key.',
    responses: {
      201: { description: 'The ticket and the URL to connect to.', body: RealtimeTicket, headers: ['Cache-Control'] },
    },
    requestExample: { types: ['conversation.*'] },
  },
});
