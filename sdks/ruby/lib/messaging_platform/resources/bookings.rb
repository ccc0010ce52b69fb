# frozen_string_literal: true

module MessagingPlatform
  module Resources
    # Bookings: `client.bookings`.
    class Bookings < Base
      # Bookings, newest first; filter by `status:`, `customer_id:`, `from:`, `to:` (Time or ISO 8601).
      def list(request_options: nil, **params)
        paged("listBookings", {}, params, request_options)
      end

      # A resource's busy and free time between `from:` and `to:` (Time or ISO 8601, at most 31 days); with
      # `duration_minutes:`, the slots of that length still free, every `step_minutes:` from `from:`.
      # `reschedule_booking_id:` a booking being moved, whose own time counts as free.
      def availability(resource_id:, from:, to:, duration_minutes: nil, step_minutes: nil, reschedule_booking_id: nil,
                       request_options: nil)
        query = { resource_id: resource_id, from: from, to: to, duration_minutes: duration_minutes,
                  step_minutes: step_minutes, reschedule_booking_id: reschedule_booking_id }
        call("getAvailability", query: query.compact, request_options: options(request_options))
      end

      def get(id, request_options: nil)
        call("getBooking", { id: id }, request_options: options(request_options))
      end

      # Books a slot. Overlapping an active booking of the same `resource_id:` raises ConflictError
      # (`booking_conflict`).
      def create(idempotency_key: nil, request_options: nil, **params)
        call("createBooking", body: body_of("createBooking", params),
                              request_options: options(request_options, idempotency_key: idempotency_key))
      end

      # Changes details, reschedules (`start_at:`/`end_at:`) or moves the status.
      def update(id, if_match: nil, request_options: nil, **changes)
        call("updateBooking", { id: id }, body: body_of("updateBooking", changes),
                                          request_options: options(request_options, if_match: if_match))
      end

      # Cancels (the record stays), with an optional `reason:`. Cancelling twice is harmless.
      def cancel(id, reason: nil, if_match: nil, request_options: nil)
        call("cancelBooking", { id: id }, query: { reason: reason }, request_options: options(request_options, if_match: if_match))
      end

      # Tells the booking's customer where it stands (confirmed, moved, requested or cancelled) as a message
      # in the booking's conversation (else the customer's most recently active one), in `language:`
      # (default: the tenant's). Returns the queued Models::Message. A customer without any conversation
      # (`booking_without_conversation`) or a booking that is over (`nothing_to_notify`) raises ValidationError.
      def notify(id, language: nil, idempotency_key: nil, request_options: nil)
        call("notifyBookingCustomer", { id: id }, query: { language: language }.compact,
                                                  request_options: options(request_options, idempotency_key: idempotency_key))
      end
    end
  end
end
