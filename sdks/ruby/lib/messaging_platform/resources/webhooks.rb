# frozen_string_literal: true

module MessagingPlatform
  module Resources
    # Webhook endpoints: `client.webhooks`.
    class Webhooks < Base
      def list(request_options: nil, **params)
        paged("listWebhooks", {}, params, request_options)
      end

      def get(id, request_options: nil)
        call("getWebhook", { id: id }, request_options: options(request_options))
      end

      # Registers an endpoint (`url:`, `events:`, `description:`). Keep `webhook_secret` from the
      # answer (Models::NewWebhookEndpoint): it is not shown again.
      def create(idempotency_key: nil, request_options: nil, **params)
        call("createWebhook", body: body_of("createWebhook", params),
                              request_options: options(request_options, idempotency_key: idempotency_key))
      end

      def update(id, if_match: nil, request_options: nil, **changes)
        call("updateWebhook", { id: id }, body: body_of("updateWebhook", changes),
                                          request_options: options(request_options, if_match: if_match))
      end

      # Deletes the endpoint and stops its retries; its delivery history stays readable. `if_match:` only that version.
      def delete(id, if_match: nil, request_options: nil)
        call("deleteWebhook", { id: id }, request_options: options(request_options, if_match: if_match))
        nil
      end

      # A new secret; the previous one keeps signing for 24 hours. With `if_match:`, only that version is rotated.
      def rotate_secret(id, if_match: nil, idempotency_key: nil, request_options: nil)
        call("rotateWebhookSecret", { id: id },
             request_options: options(request_options, idempotency_key: idempotency_key, if_match: if_match))
      end

      # Delivers a `webhook.test` event to the endpoint now.
      def test(id, idempotency_key: nil, request_options: nil)
        call("sendTestEvent", { id: id }, request_options: options(request_options, idempotency_key: idempotency_key))
      end

      # Replays every failed delivery of events between `since:` and `until:` (default now).
      def recover(id, idempotency_key: nil, request_options: nil, **params)
        call("recoverWebhookDeliveries", { id: id }, body: body_of("recoverWebhookDeliveries", params),
                                                     request_options: options(request_options, idempotency_key: idempotency_key))
      end

      # This endpoint's deliveries, newest first, optionally by `status:` and `event_type:`; `since:` and
      # `until:` bound the event's time.
      def deliveries(id, request_options: nil, **params)
        paged("listWebhookEndpointDeliveries", { id: id }, params, request_options)
      end
    end

    # Deliveries across endpoints: `client.webhook_deliveries`.
    class WebhookDeliveries < Base
      # Failed deliveries across endpoints (or another `status:`), newest event first, optionally of one
      # endpoint (`webhook_id:`) and `event_type:`; `since:` and `until:` bound the event's time.
      def list(request_options: nil, **params)
        paged("listWebhookDeliveries", {}, params, request_options)
      end

      # A delivery with its payload and every attempt (Models::DeliveryWithPayload).
      def get(id, request_options: nil)
        call("getWebhookDelivery", { id: id }, request_options: options(request_options))
      end

      # Replays one delivery with the full retry schedule.
      def retry(id, idempotency_key: nil, request_options: nil)
        call("retryWebhookDelivery", { id: id }, request_options: options(request_options, idempotency_key: idempotency_key))
      end
      alias redeliver retry
    end
  end
end
