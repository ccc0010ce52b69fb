# frozen_string_literal: true

module MessagingPlatform
  module Resources
    # Resources' opening hours: `client.schedules`, one schedule per booking `resource_id`. Hours are
    # wall-clock times (`{ start: "09:00", end: "17:00" }`, `24:00` is midnight) in the schedule's
    # `timezone`. Once a resource has one, an active booking of it must lie within its hours, else
    # ValidationError (`outside_opening_hours`), and `bookings.availability` counts the rest as `closed`;
    # a resource without one is open at all times. Writes need an admin.
    class Schedules < Base
      # Schedules, A to Z by resource_id.
      def list(limit: nil, cursor: nil, request_options: nil)
        paged("listSchedules", {}, { limit: limit, cursor: cursor }.compact, request_options)
      end

      # Sets a resource's opening hours. `weekly_hours:` by day (`mon:` … `sun:`, a day left out is
      # closed); `date_overrides:` dates with other hours (`{ date: "2026-12-24", hours: [] }`: closed).
      # `buffer_before_minutes:` / `buffer_after_minutes:` (0 to 120) keep the resource free around each
      # booking made from then on. A resource that has one already raises ConflictError
      # (`schedule_exists`). Bookings made before keep their time. Returns a Models::Schedule, every day of
      # its `weekly_hours` present.
      def create(resource_id:, timezone:, weekly_hours:, date_overrides: nil, buffer_before_minutes: nil,
                 buffer_after_minutes: nil, idempotency_key: nil, request_options: nil)
        params = { resource_id: resource_id, timezone: timezone, weekly_hours: weekly_hours,
                   date_overrides: date_overrides, buffer_before_minutes: buffer_before_minutes,
                   buffer_after_minutes: buffer_after_minutes }.compact
        call("createSchedule", body: body_of("createSchedule", params),
                               request_options: options(request_options, idempotency_key: idempotency_key))
      end

      # A resource's schedule; NotFoundError when it has none (it is open at all times).
      def get(resource_id, request_options: nil)
        call("getSchedule", { resource_id: resource_id }, request_options: options(request_options))
      end

      # Changes its timezone, weekly_hours, date_overrides or buffers: only those given are sent. Each
      # weekday in `weekly_hours:` replaces that day's hours (the others keep theirs); `date_overrides:`
      # replaces the whole list. Bookings already made keep their buffers. `if_match: schedule.version`
      # raises PreconditionFailedError if someone changed it meanwhile.
      def update(resource_id, timezone: nil, weekly_hours: nil, date_overrides: nil, buffer_before_minutes: nil,
                 buffer_after_minutes: nil, if_match: nil, request_options: nil)
        changes = { timezone: timezone, weekly_hours: weekly_hours, date_overrides: date_overrides,
                    buffer_before_minutes: buffer_before_minutes, buffer_after_minutes: buffer_after_minutes }.compact
        call("updateSchedule", { resource_id: resource_id }, body: body_of("updateSchedule", changes),
                                                             request_options: options(request_options, if_match: if_match))
      end

      # Removes it: the resource is open at all times again. `if_match:` only that version. Returns nil.
      def delete(resource_id, if_match: nil, request_options: nil)
        call("deleteSchedule", { resource_id: resource_id }, request_options: options(request_options, if_match: if_match))
        nil
      end
    end
  end
end
