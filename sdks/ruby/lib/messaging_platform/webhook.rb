# frozen_string_literal: true

require "base64"
require "json"
require "openssl"

module MessagingPlatform
  # Verifying webhook deliveries (Standard Webhooks). Each delivery carries `webhook-id`,
  # `webhook-timestamp` (Unix seconds) and `webhook-signature`: one or more space-separated
  # `v1,<base64>` HMAC-SHA256 signatures of "#{id}.#{timestamp}.#{raw body}", keyed with the
  # base64-decoded part of the `whsec_…` secret. After a secret rotation the old and the new secret both
  # sign for 24 hours.
  module Webhook
    DEFAULT_TOLERANCE = 300

    module_function

    # Checks a delivery's signature and timestamp and returns the parsed event (a Models::Event
    # variant, e.g. Models::ConversationCreatedEvent). `payload` is the raw body exactly as received;
    # `headers` a Hash of the request headers (any case, or a Rack env's HTTP_WEBHOOK_ID …); `secret`
    # the endpoint's `whsec_…` secret, or an Array of them to accept any. `tolerance` is in seconds.
    # Raises WebhookVerificationError.
    def verify(payload, headers, secret, tolerance: DEFAULT_TOLERANCE, now: Time.now)
      # A parsed body (say Rails' params) can never match the signature: say so, as the other SDKs do.
      unless payload.is_a?(String)
        raise WebhookVerificationError.new(:invalid_payload, "payload must be the raw request body (a String), not parsed JSON.")
      end

      id = header(headers, "webhook-id")
      timestamp = header(headers, "webhook-timestamp")
      signature_header = header(headers, "webhook-signature")
      if [id, timestamp, signature_header].any? { |value| value.nil? || value.empty? }
        raise WebhookVerificationError.new(:missing_headers, "The webhook-id, webhook-timestamp and webhook-signature headers are required.")
      end

      timestamp = timestamp.strip
      raise WebhookVerificationError.new(:invalid_timestamp, "webhook-timestamp is not a Unix time in seconds.") unless timestamp.match?(/\A\d{1,15}\z/)

      check_timestamp(Integer(timestamp, 10), now.to_i, tolerance)
      keys = Array(secret).map { |s| secret_key(s) }
      raise WebhookVerificationError.new(:invalid_secret, "No webhook secret was given.") if keys.empty?

      body = payload.to_s.b
      signed = "#{id}.#{timestamp}.".b + body
      unless signature_matches?(keys, signed, signatures(signature_header))
        raise WebhookVerificationError.new(:invalid_signature, "No webhook signature matches the secret.")
      end

      parse(body)
    end

    # The headers the API would send with `payload` (to test a webhook handler); `timestamp` in Unix
    # seconds (default now).
    def sign(payload, secret, id:, timestamp: Time.now.to_i)
      digest = OpenSSL::HMAC.digest("SHA256", secret_key(secret), "#{id}.#{timestamp}.".b + payload.to_s.b)
      { "webhook-id" => id, "webhook-timestamp" => timestamp.to_s, "webhook-signature" => "v1,#{Base64.strict_encode64(digest)}" }
    end

    def header(headers, name)
      rack_name = "HTTP_#{name.upcase.tr('-', '_')}"
      match = headers.find { |key, _| key.to_s.casecmp?(name) || key.to_s == rack_name }
      value = match&.last
      value.is_a?(Array) ? value.join(" ") : value&.to_s
    end

    def check_timestamp(sent_at, now, tolerance)
      if now - sent_at > tolerance
        raise WebhookVerificationError.new(:timestamp_too_old, "The delivery is older than #{tolerance} seconds (a replay?).")
      end
      return unless sent_at - now > tolerance

      raise WebhookVerificationError.new(:timestamp_in_future, "The delivery's timestamp is more than #{tolerance} seconds in the future.")
    end

    def secret_key(secret)
      raise WebhookVerificationError.new(:invalid_secret, "The webhook secret is empty.") unless secret.is_a?(String) && !secret.empty?

      key = decode_base64(secret.delete_prefix("whsec_"))
      raise WebhookVerificationError.new(:invalid_secret, "The webhook secret is not a whsec_ base64 secret.") if key.nil? || key.empty?

      key
    end

    # The decoded `v1` signatures (others, and malformed ones, are ignored).
    def signatures(header)
      header.split(" ").filter_map do |part|
        version, value = part.strip.split(",", 2)
        decode_base64(value) if version == "v1" && value
      end
    end

    # Every candidate is compared (no early exit), each in constant time.
    def signature_matches?(keys, signed, candidates)
      matched = false
      keys.each do |key|
        expected = OpenSSL::HMAC.digest("SHA256", key, signed)
        candidates.each do |candidate|
          matched = true if candidate.bytesize == expected.bytesize && OpenSSL.fixed_length_secure_compare(candidate, expected)
        end
      end
      matched
    end

    def decode_base64(text)
      return nil unless text.match?(%r{\A[A-Za-z0-9+/]*={0,2}\z}) && text.length % 4 != 1

      Base64.decode64(text)
    end

    def parse(body)
      event = JSON.parse(body.dup.force_encoding(Encoding::UTF_8))
      raise WebhookVerificationError.new(:invalid_payload, "The signed body is not a JSON object.") unless event.is_a?(Hash)

      Models::Event.build(event)
    rescue JSON::ParserError
      raise WebhookVerificationError.new(:invalid_payload, "The signed body is not JSON.")
    end
  end

  # Same as Webhook.verify.
  def self.verify_webhook(payload, headers, secret, **options)
    Webhook.verify(payload, headers, secret, **options)
  end
end
