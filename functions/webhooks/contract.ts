import * as z from 'zod/mini';
import { defineContract, named, page, resourceId, tenantId, timestamp, version } from '../platform/api-contract';
import { EVENT_ENVELOPES, Event } from '../events/event-schemas';

const secret = z.string().check(
  z.meta({
    pattern: '^whsec_[A-Za-z0-9+/]{43}=$',
    description: 'The signing secret (Standard Webhooks): shown here only.',
    examples: ['whsec_EfUYa02/3jOHven2bw8SR7nMtL9O2qgg35r6KRZLCN8='],
  }),
);

const endpointFields = {
  id: resourceId('whk'),
  tenant_id: tenantId,
  url: z.string().check(
    z.meta({
      format: 'uri',
      description: 'Admins get the whole URL; agents only its origin when the rest is hidden (`url_redacted`).',
      examples: ['https://crm.example.com/hooks/messaging'],
    }),
  ),
  url_redacted: z.boolean().check(
    z.meta({
      description:
        'true when `url` is only the origin: agents do not see a path or query, which is often the receiver’s token.',
    }),
  ),
  events: z.array(z.string()).check(
    z.meta({
      description: 'Event types, or `*`, `conversation.*`, `booking.*`, `payment.*`.',
      examples: [['conversation.*']],
    }),
  ),
  description: z.nullable(z.string()),
  is_active: z.boolean(),
  created_at: timestamp,
  updated_at: timestamp,
  version,
};

export const WebhookEndpoint = named('WebhookEndpoint', z.object(endpointFields));
export const NewWebhookEndpoint = named('NewWebhookEndpoint', z.object({ ...endpointFields, webhook_secret: secret }));
export const RotatedWebhookEndpoint = named(
  'RotatedWebhookEndpoint',
  z.object({
    ...endpointFields,
    webhook_secret: secret,
    previous_secret_expires_at: timestamp.check(
      z.meta({ description: 'The replaced secret keeps signing (a second signature) until then.' }),
    ),
  }),
);

export const DeliveryAttempt = named(
  'DeliveryAttempt',
  z.object({
    at: timestamp,
    status_code: z
      .nullable(z.int())
      .check(z.meta({ description: 'null when no response came (timeout, connection error).' })),
    duration_ms: z.number().check(z.minimum(0)),
    error: z.nullable(z.string()),
    response_body: z.nullable(z.string()).check(z.meta({ description: 'The first 1 KB of the response body.' })),
  }),
);

const deliveryFields = {
  id: resourceId('dlv'),
  tenant_id: tenantId,
  webhook_id: resourceId('whk'),
  event_id: resourceId('evt'),
  event_type: z.string(),
  status: z.enum(['pending', 'succeeded', 'failed', 'cancelled']),
  cycle: z
    .int()
    .check(z.minimum(1), z.meta({ description: 'Each replay starts a new cycle with the full retry schedule.' })),
  cycle_attempts: z.int().check(z.minimum(0)),
  attempts: z.array(DeliveryAttempt),
  next_attempt_at: z.nullable(timestamp),
  failure_reason: z.nullable(z.string()),
  created_at: timestamp,
  updated_at: timestamp,
  succeeded_at: z.nullable(timestamp),
  failed_at: z.nullable(timestamp),
};

export const Delivery = named('Delivery', z.object(deliveryFields));
export const DeliveryList = page('DeliveryList', Delivery);
export const DeliveryWithPayload = named('DeliveryWithPayload', z.object({ ...deliveryFields, payload: Event }));

export const DeliveryReplay = named(
  'DeliveryReplay',
  z.object({ delivery_id: resourceId('dlv'), status: z.literal('pending'), cycle: z.int().check(z.minimum(2)) }),
);
export const RecoveryResult = named(
  'RecoveryResult',
  z.object({
    replayed: z.int(),
    skipped: z
      .int()
      .check(z.meta({ description: 'Deliveries no longer failed when their turn came (replayed meanwhile).' })),
    has_more: z.boolean().check(z.meta({ description: 'More than 1,000 matched: call again.' })),
    since: timestamp,
    until: timestamp,
  }),
);
export const TestDelivery = named(
  'TestDelivery',
  z.object({ delivery_id: resourceId('dlv'), event: EVENT_ENVELOPES['webhook.test'] }),
);

const params = { id: resourceId('whk') };

export const contract = defineContract({
  'webhooks-create': {
    operationId: 'createWebhook',
    summary: 'Register a webhook endpoint',
    description:
      'Only `https` URLs without credentials, on port 443 or 1024–65535, whose host resolves to public addresses only (422 `unsafe_url`). ' +
      'At most 50 endpoints per tenant. The endpoint gets every matching event committed after this response. The signing secret is in this response only.',
    responses: {
      201: {
        description: 'The endpoint and its signing secret.',
        body: NewWebhookEndpoint,
        headers: ['ETag', 'Location', 'Cache-Control'],
      },
    },
    errors: { 409: ['concurrent_update'], 422: ['unsafe_url', 'too_many_webhooks'] },
    requestExample: {
      url: 'https://crm.example.com/hooks/messaging',
      events: ['conversation.*', 'booking.created'],
      description: 'My CRM',
    },
  },
  'webhooks-list': {
    operationId: 'listWebhooks',
    summary: 'List webhook endpoints',
    description:
      'The tenant\u2019s endpoints (at most 50), newest first; never their secrets. Agents get each URL\u2019s origin only (`url_redacted`).',
    responses: { 200: { description: 'A page of endpoints.', body: page('WebhookEndpointList', WebhookEndpoint) } },
  },
  'webhooks-get': {
    operationId: 'getWebhook',
    summary: 'Get a webhook endpoint',
    description:
      'The endpoint\u2019s URL (for agents, its origin only: `url_redacted`), subscriptions and state; never its secrets.',
    params,
    responses: { 200: { description: 'The endpoint (never its secrets).', body: WebhookEndpoint, headers: ['ETag'] } },
    errors: { 404: ['not_found'] },
  },
  'webhooks-update': {
    operationId: 'updateWebhook',
    summary: 'Update a webhook endpoint',
    description:
      '`is_active: false` stops deliveries at once: nothing new is queued, and pending retries end `cancelled`.',
    params,
    ifMatch: true,
    responses: { 200: { description: 'The updated endpoint.', body: WebhookEndpoint, headers: ['ETag'] } },
    errors: { 404: ['not_found'], 422: ['unsafe_url'] },
    requestExample: { events: ['*'], is_active: true },
  },
  'webhooks-delete': {
    operationId: 'deleteWebhook',
    summary: 'Delete a webhook endpoint',
    description:
      'Pending retries stop; the delivery history stays readable. With If-Match, only that version is deleted.',
    params,
    ifMatch: true,
    responses: { 204: { description: 'Deleted.' } },
    errors: { 404: ['not_found'] },
  },
  'webhooks-rotate': {
    operationId: 'rotateWebhookSecret',
    summary: 'Rotate the signing secret',
    description:
      'A new secret signs from now on; the one it replaces keeps signing too for 24 h (two signatures), and any older one stops at once. ' +
      'With If-Match, only that version is rotated (412 otherwise); without it, a rotation that meets a concurrent change is made again on the fresh endpoint, unless that change was another rotation (409 `concurrent_update`: its secret stands).',
    params,
    ifMatch: true,
    responses: {
      200: {
        description: 'The endpoint with its new secret.',
        body: RotatedWebhookEndpoint,
        headers: ['ETag', 'Cache-Control'],
      },
    },
    errors: { 404: ['not_found'], 409: ['concurrent_update'], 412: ['version_mismatch'] },
  },
  'webhooks-test': {
    operationId: 'sendTestEvent',
    summary: 'Send a test event',
    description: 'Delivers a `webhook.test` event to this endpoint now (an inactive endpoint receives nothing).',
    params,
    responses: { 202: { description: 'The delivery and its event.', body: TestDelivery } },
    errors: { 404: ['not_found'] },
  },
  'webhooks-recover': {
    operationId: 'recoverWebhookDeliveries',
    summary: 'Replay failed deliveries',
    description:
      'Replays every failed delivery of this endpoint for events between `since` and `until` (without `until`, every one failed by the time of the call), up to 1,000 per call.',
    params,
    responses: { 202: { description: 'How many were replayed.', body: RecoveryResult } },
    errors: { 400: ['invalid_window'], 404: ['not_found'] },
    requestExample: { since: '2026-11-21T23:14:30Z' },
  },
  'webhooks-deliveries': {
    operationId: 'listWebhookEndpointDeliveries',
    summary: 'List an endpoint\u2019s deliveries',
    description:
      'This endpoint\u2019s deliveries, newest first. `status` and `event_type` filter them; `since` and `until` bound the event\u2019s time. ' +
      'A page reads at most 1,000 deliveries to find its matches, so a narrow `event_type` may give a short page with `has_more`.',
    params,
    responses: { 200: { description: 'A page of deliveries, newest first.', body: DeliveryList } },
    errors: { 404: ['not_found'] },
  },
  'webhook-deliveries-list': {
    operationId: 'listWebhookDeliveries',
    summary: 'List failed deliveries',
    description:
      'The failed-delivery view across the tenant\u2019s endpoints, newest event first; `status` picks another status. ' +
      '`webhook_id` (a deleted endpoint\u2019s too) and `event_type` narrow it; `since` and `until` bound the event\u2019s time. ' +
      'A page reads at most 1,000 deliveries to find its matches, so a narrow `event_type` may give a short page with `has_more`.',
    responses: { 200: { description: 'A page of deliveries, newest first.', body: DeliveryList } },
  },
  'webhook-deliveries-get': {
    operationId: 'getWebhookDelivery',
    summary: 'Get a delivery',
    description:
      'The payload and every attempt: time, status code, duration, error, and the first 1 KB of the response.',
    params: { id: resourceId('dlv') },
    responses: { 200: { description: 'The delivery.', body: DeliveryWithPayload } },
    errors: { 404: ['not_found'] },
  },
  'webhook-deliveries-retry': {
    operationId: 'retryWebhookDelivery',
    summary: 'Replay a delivery',
    description: 'Starts a new cycle with the full retry schedule. A delivery still pending is 409.',
    params: { id: resourceId('dlv') },
    responses: { 202: { description: 'The new cycle.', body: DeliveryReplay } },
    errors: { 404: ['not_found'], 409: ['delivery_in_progress'] },
  },
});
