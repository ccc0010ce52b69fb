import type { ConditionalRequestOptions, RequestOptions } from '../core/http.js';
import type { PagedList } from '../core/pagination.js';
import { ApiResource, path } from '../core/resource.js';
import type {
  CreateWebhookParams,
  Delivery,
  DeliveryReplay,
  DeliveryWithPayload,
  ListDeliveriesParams,
  ListEndpointDeliveriesParams,
  ListWebhooksParams,
  NewWebhookEndpoint,
  RecoverDeliveriesParams,
  RecoveryResult,
  RotatedWebhookEndpoint,
  TestDelivery,
  UpdateWebhookParams,
  WebhookEndpoint,
} from '../types.js';

/** Webhook endpoints. */
export class Webhooks extends ApiResource {
  list(params?: ListWebhooksParams, options?: RequestOptions): PagedList<WebhookEndpoint> {
    return this.pagedList('/webhooks', params, options);
  }

  get(id: string, options?: RequestOptions): Promise<WebhookEndpoint> {
    return this.call('GET', path`/webhooks/${id}`, { options });
  }

  /** Registers an endpoint. Keep `webhook_secret` from the answer: it is not shown again. */
  create(params: CreateWebhookParams, options?: RequestOptions): Promise<NewWebhookEndpoint> {
    return this.call('POST', '/webhooks', { body: params, options });
  }

  update(id: string, changes: UpdateWebhookParams, options?: ConditionalRequestOptions): Promise<WebhookEndpoint> {
    return this.call('PATCH', path`/webhooks/${id}`, { body: changes, options });
  }

  /** Deletes the endpoint and stops its retries; its delivery history stays readable. `ifMatch`: only that version. */
  async delete(id: string, options?: ConditionalRequestOptions): Promise<void> {
    await this.call<undefined>('DELETE', path`/webhooks/${id}`, { options });
  }

  /** A new secret; the previous one keeps signing for 24 hours. `ifMatch`: only that version is rotated. */
  rotateSecret(id: string, options?: ConditionalRequestOptions): Promise<RotatedWebhookEndpoint> {
    return this.call('POST', path`/webhooks/${id}/rotate-secret`, { options });
  }

  /** Delivers a `webhook.test` event to the endpoint now. */
  test(id: string, options?: RequestOptions): Promise<TestDelivery> {
    return this.call('POST', path`/webhooks/${id}/test`, { options });
  }

  /** Replays every failed delivery of events between `since` and `until` (default now). */
  recover(id: string, params: RecoverDeliveriesParams, options?: RequestOptions): Promise<RecoveryResult> {
    return this.call('POST', path`/webhooks/${id}/recover`, { body: params, options });
  }

  /** This endpoint's deliveries, newest first, optionally by `status` and `event_type`; `since`/`until` bound the event's time. */
  deliveries(id: string, params?: ListEndpointDeliveriesParams, options?: RequestOptions): PagedList<Delivery> {
    return this.pagedList(path`/webhooks/${id}/deliveries`, params, options);
  }
}

/** Deliveries across endpoints: the failed-delivery view, one delivery with its attempts, replay. */
export class WebhookDeliveries extends ApiResource {
  /** Failed deliveries across endpoints (or another `status`), narrowed by `webhook_id`, `event_type`, `since`, `until`. */
  list(params?: ListDeliveriesParams, options?: RequestOptions): PagedList<Delivery> {
    return this.pagedList('/webhook-deliveries', params, options);
  }

  /** A delivery with its payload and every attempt. */
  get(id: string, options?: RequestOptions): Promise<DeliveryWithPayload> {
    return this.call('GET', path`/webhook-deliveries/${id}`, { options });
  }

  /** Replays one delivery with the full retry schedule. */
  retry(id: string, options?: RequestOptions): Promise<DeliveryReplay> {
    return this.call('POST', path`/webhook-deliveries/${id}/retry`, { options });
  }
}
