# frozen_string_literal: true

require_relative "test_helper"

# Channels, conversations and messages, customers, saved replies, bookings and schedules, AI functions and events, against the real runtime.
class ChannelsTest < SdkTest
  def test_list_gives_the_sandbox
    channels = new_tenant.client.channels.list
    assert_equal [{ "channel" => "sandbox" }], channels.map(&:to_h)
    assert_instance_of MessagingPlatform::Models::SandboxChannel, channels.first
  end

  def test_sandbox_inbound_opens_a_conversation_and_a_repeated_provider_id_is_a_duplicate
    from = phone
    result = client.channels.sandbox_inbound(from: from, name: "Maria", text: "Hi!", provider_message_id: "p-#{from}")
    assert_equal from, result.conversation.customer.phone
    assert_equal "open", result.conversation.status
    assert_equal "inbound", result.message.direction
    again = client.channels.sandbox_inbound(from: from, text: "Hi!", provider_message_id: "p-#{from}")
    assert_instance_of MessagingPlatform::Models::DuplicateInbound, again
    assert_equal true, again.duplicate
  end

  def test_connect_whatsapp_connects_a_number_the_graph_api_vouches_for
    id = "7#{format('%010d', SecureRandom.random_number(10_000_000_000))}"
    connected = client.channels.connect_whatsapp(phone_number_id: id, display_phone_number: "+1 555 000 1111",
                                                 access_token: "EAAG-token-#{id}", app_secret: "app-secret", verify_token: "verify-token-123")
    assert_equal id, connected.phone_number_id
    assert_equal "/api/v1/channels/whatsapp/webhook", connected.webhook_path
    refute connected.key?(:access_token)
    assert(client.channels.list.any? { |c| c.channel == "whatsapp" && c.phone_number_id == id })

    error = assert_raises(MessagingPlatform::ValidationError) do
      client.channels.connect_whatsapp(phone_number_id: "123456", access_token: "EAAG-wrong", app_secret: "x", verify_token: "verify-token-123")
    end
    assert_equal "whatsapp_credentials_invalid", error.code
  end
end

class ConversationsTest < SdkTest
  def create_conversation
    client.conversations.create(channel: "sandbox", customer: { phone: phone, name: "Olga" }, tags: ["VIP"], priority: "high",
                                message: { text: "Welcome!" })
  end

  def test_create_and_get
    created = create_conversation
    assert_match(/\Aconv_/, created.id)
    assert_equal ["vip"], created.tags
    assert_equal "high", created.priority
    assert_equal 1, created.version
    assert_equal ["Welcome!"], created.messages.map(&:text)

    got = client.conversations.get(created.id)
    assert_instance_of MessagingPlatform::Models::ConversationWithMessages, got
    assert_equal created.id, got.id
    assert_equal false, got.messages_has_more
    assert_equal "Welcome!", got.messages.first.text
  end

  def test_a_second_open_conversation_with_the_same_customer_is_a_conflict
    created = create_conversation
    error = assert_raises(MessagingPlatform::ConflictError) do
      client.conversations.create(channel: "sandbox", customer: { id: created.customer.id })
    end
    assert_equal "conversation_exists", error.code
    assert_equal 409, error.status
  end

  def test_update_with_and_without_if_match
    created = create_conversation
    updated = client.conversations.update(created.id, status: "pending", tags: %w[vip follow-up], if_match: created.version)
    assert_equal "pending", updated.status
    assert_equal %w[vip follow-up], updated.tags
    assert_raises(MessagingPlatform::PreconditionFailedError) do
      client.conversations.update(created.id, priority: "low", if_match: created.version)
    end
    assert_equal "low", client.conversations.update(created.id, priority: "low").priority
  end

  def test_invalid_changes_are_validation_errors_naming_the_field
    created = create_conversation
    assert_raises(MessagingPlatform::ValidationError) do
      client.conversations.update(created.id, status: "snoozed", snoozed_until: "2000-01-01T00:00:00Z")
    end
    error = assert_raises(MessagingPlatform::ValidationError) do
      client.conversations.create(channel: "sandbox", customer: { phone: "nope" })
    end
    assert_equal 422, error.status
    assert(error.errors.any? { |field| field.path.start_with?("customer") }, error.errors.inspect)
    assert_kind_of String, error.errors.first.message
  end

  def test_messages_are_sent_then_read_and_listed_newest_first
    created = create_conversation
    sent = client.conversations.messages.create(created.id, text: "Of course! Tuesday 10:00 works.")
    assert_equal "queued", sent.status
    assert_equal "outbound", sent.direction
    eventually { client.conversations.messages.list(created.id, limit: 1).page.first&.status == "read" }
    texts = client.conversations.messages.list(created.id).map(&:text)
    assert_equal ["Of course! Tuesday 10:00 works.", "Welcome!"], texts
    again = client.conversations.messages.send_message(created.id, text: "See you!")
    assert_equal "See you!", again.text
  end

  def test_list_filters_by_status
    created = create_conversation
    client.conversations.update(created.id, status: "resolved")
    resolved = client.conversations.list(status: "resolved").to_a
    assert(resolved.any? { |c| c.id == created.id })
    assert(resolved.all? { |c| c.status == "resolved" })
    refute(client.conversations.list(status: "open").any? { |c| c.id == created.id })
  end

  def test_unknown_ids_and_parameters
    assert_raises(MessagingPlatform::NotFoundError) { client.conversations.get("conv_01JDQ8ZK3M4N5P6Q7R8S9T0V1W") }
    error = assert_raises(ArgumentError) { client.conversations.list(stauts: "open") }
    assert_match(/stauts/, error.message)
    assert_raises(ArgumentError) { client.conversations.create(chanel: "sandbox") }
  end
end

class NotesTest < SdkTest
  def test_notes_created_and_listed_newest_first
    conversation = client.channels.sandbox_inbound(from: phone, text: "Hello").conversation
    first = client.conversations.notes.create(conversation.id, text: "VIP: be quick")
    edited = client.conversations.notes.update(conversation.id, first.id, text: "VIP: be very quick", if_match: first.version)
    assert_equal ["VIP: be very quick", first.created_at, nil, 2], [edited.text, edited.created_at, first.edited_at, edited.version]
    refute_nil edited.edited_at
    # Made on the version before: someone changed the note meanwhile.
    assert_raises(MessagingPlatform::PreconditionFailedError) do
      client.conversations.notes.update(conversation.id, first.id, text: "stale", if_match: first.version)
    end
    assert_raises(MessagingPlatform::PreconditionFailedError) do
      client.conversations.notes.delete(conversation.id, first.id, if_match: first.version)
    end
    assert_equal "api_key", first.author.type
    second = client.conversations.notes.create(conversation.id, text: "Called back")
    assert_equal [second.id, first.id], client.conversations.notes.list(conversation.id).map(&:id)
    assert_nil client.conversations.notes.delete(conversation.id, second.id)
    assert_equal [first.id], client.conversations.notes.list(conversation.id).map(&:id)
    assert_raises(MessagingPlatform::NotFoundError) do
      client.conversations.notes.create("conv_01JDQ8ZK3M4N5P6Q7R8S9T0V1W", text: "x")
    end
  end
end

class CustomersTest < SdkTest
  def test_list_newest_first_get_and_find_by_phone
    numbers = [phone, phone]
    ids = numbers.each_with_index.map do |number, i|
      client.channels.sandbox_inbound(from: number, name: "Customer #{i}", text: "Hello").conversation.customer.id
    end
    assert_equal ids.reverse, client.customers.list(limit: 2).page.map(&:id)
    got = client.customers.get(ids[0])
    assert_equal ["Customer 0", numbers[0]], [got.name, got.phone]
    assert_equal got.to_h, client.customers.find_by_phone(numbers[0]).to_h
    assert_nil client.customers.find_by_phone("+491519999999")
    ["", " ", nil].each do |missing|
      assert_raises(MessagingPlatform::Error) { client.customers.find_by_phone(missing) }
    end
    assert_raises(MessagingPlatform::NotFoundError) { client.customers.get("cus_01M8097VP4N21KKVHA4G7BR51Q") }
  end

  def test_found_by_the_start_of_their_name
    unique = "Zed#{phone[-7..]}"
    ids = %w[Ölmez Adams].map do |surname|
      client.channels.sandbox_inbound(from: phone, name: "#{unique} #{surname}", text: "Hello").conversation.customer.id
    end
    assert_equal ids.reverse, client.customers.list(name: unique.downcase).map(&:id)
    assert_equal [ids[0]], client.customers.list(name: "#{unique} olm").page.map(&:id)
  end

  def test_update_renames_everywhere_and_if_match_guards
    result = client.channels.sandbox_inbound(from: phone, name: "Ada", text: "Hello")
    customer = client.customers.get(result.conversation.customer.id)
    renamed = client.customers.update(customer.id, name: "Ada Lovelace", if_match: customer.version)
    assert_equal ["Ada Lovelace", customer.version + 1], [renamed.name, renamed.version]
    assert_equal "Ada Lovelace", client.conversations.get(result.conversation.id).customer.name
    assert_raises(MessagingPlatform::PreconditionFailedError) do
      client.customers.update(customer.id, name: nil, if_match: customer.version)
    end
    assert_nil client.customers.update(customer.id, name: nil).name
  end
end

class SavedRepliesTest < SdkTest
  # Shortcuts unique to one test, so the tests of this class (one tenant) never see each other's replies.
  def prefix
    @prefix ||= "t#{SecureRandom.hex(4)}"
  end

  def save(name, text: "Hi {{customer.first_name | there}}!", title: "Reply #{name}")
    client.saved_replies.create(shortcut: "#{prefix}-#{name}", title: title, text: text)
  end

  def test_create_get_and_list_a_to_z_and_by_shortcut_prefix
    hours = client.saved_replies.create(shortcut: "#{prefix.upcase}-Hours", title: "Opening hours",
                                        text: "Hi {{customer.first_name | there}}, we are open 9 to 18.")
    assert_instance_of MessagingPlatform::Models::SavedReply, hours
    assert_match(/\Arpl_[0-9A-Z]{26}\z/, hours.id)
    assert_equal ["#{prefix}-hours", "Opening hours", "Hi {{customer.first_name | there}}, we are open 9 to 18.", 1],
                 [hours.shortcut, hours.title, hours.text, hours.version]
    assert_equal ["api_key", tenant.tenant_id], [hours.created_by.type, hours.tenant_id]
    assert_equal hours.to_h, client.saved_replies.get(hours.id).to_h

    thanks = save("thanks")
    greet = save("greet")
    assert_equal [greet.id, hours.id, thanks.id], client.saved_replies.list(shortcut: prefix).map(&:id)
    assert_equal [hours.id], client.saved_replies.list(shortcut: "#{prefix}-h").map(&:id)
    assert_equal [], client.saved_replies.list(shortcut: "#{prefix}-x").to_a

    page = client.saved_replies.list(shortcut: prefix, limit: 2).page
    assert_equal [[greet.id, hours.id], true], [page.map(&:id), page.has_more?]
    assert_equal [thanks.id], client.saved_replies.list(shortcut: prefix, limit: 2, cursor: page.next_cursor).page.map(&:id)
    assert_equal [greet.id, hours.id, thanks.id], client.saved_replies.list(shortcut: prefix, limit: 2).map(&:id)
    everything = client.saved_replies.list.map(&:shortcut)
    assert_equal everything.sort, everything
    assert_equal [greet, hours, thanks].map(&:shortcut), everything.grep(/\A#{prefix}-/)
  end

  def test_create_refuses_unknown_placeholders_and_parameters
    error = assert_raises(MessagingPlatform::ValidationError) { save("bad", text: "Hi {{customer.email}}") }
    assert_equal 422, error.status
    assert(error.errors.any? { |field| field.path.start_with?("text") }, error.errors.inspect)
    assert_raises(ArgumentError) { client.saved_replies.create(shortcut: "#{prefix}-x", title: "X", txt: "Hello") }
    assert_raises(ArgumentError) { client.saved_replies.list(shortcuts: prefix) }
    assert_equal [], client.saved_replies.list(shortcut: prefix).to_a
  end

  def test_update_sends_only_the_fields_given_and_if_match_guards
    reply = save("hours", text: "Open 9 to 18.", title: "Hours")
    renamed = client.saved_replies.update(reply.id, title: "Opening hours", if_match: reply.version)
    assert_equal ["Opening hours", "Open 9 to 18.", reply.shortcut, 2], [renamed.title, renamed.text, renamed.shortcut, renamed.version]

    error = assert_raises(MessagingPlatform::PreconditionFailedError) do
      client.saved_replies.update(reply.id, text: "Open 9 to 20.", if_match: reply.version)
    end
    assert_equal [412, "version_mismatch"], [error.status, error.code]
    assert_equal renamed.to_h, client.saved_replies.get(reply.id).to_h

    changed = client.saved_replies.update(reply.id, shortcut: "#{prefix}-open", text: "Open 9 to 20.")
    assert_equal ["#{prefix}-open", "Opening hours", "Open 9 to 20.", 3], [changed.shortcut, changed.title, changed.text, changed.version]
    assert_equal [reply.id], client.saved_replies.list(shortcut: "#{prefix}-open").map(&:id)
    assert_equal [], client.saved_replies.list(shortcut: "#{prefix}-hours").to_a
  end

  def test_a_shortcut_in_use_is_a_conflict
    taken = save("thanks")
    error = assert_raises(MessagingPlatform::ConflictError) { save("thanks", title: "Another") }
    assert_instance_of MessagingPlatform::ConflictError, error
    assert_equal [409, "shortcut_taken"], [error.status, error.code]
    other = save("thanks-a-lot")
    error = assert_raises(MessagingPlatform::ConflictError) { client.saved_replies.update(other.id, shortcut: taken.shortcut) }
    assert_equal [409, "shortcut_taken"], [error.status, error.code]
    assert_equal [taken.id, other.id], client.saved_replies.list(shortcut: prefix).map(&:id)
  end

  def test_render_fills_in_the_placeholders_for_a_conversation
    number, other = phone, phone
    conversation = client.conversations.create(channel: "sandbox", customer: { phone: number, name: "Maria Lopez" })
    nameless = client.conversations.create(channel: "sandbox", customer: { phone: other })
    reply = save("hello", text: "Hi {{customer.first_name | there}} ({{ customer.name }}, {{customer.phone}}), {{agent.first_name}} here.")

    rendered = client.saved_replies.render(reply.id, conversation_id: conversation.id)
    assert_instance_of MessagingPlatform::Models::RenderedSavedReply, rendered
    assert_equal "Hi Maria (Maria Lopez, #{number}),  here.", rendered.text
    assert_equal ["agent.first_name"], rendered.missing # an API key has no name

    rendered = client.saved_replies.render(reply.id, conversation_id: nameless.id)
    assert_equal "Hi there (, #{other}),  here.", rendered.text
    assert_equal ["customer.name", "agent.first_name"], rendered.missing
    assert_equal reply.text, client.saved_replies.get(reply.id).text

    assert_raises(MessagingPlatform::NotFoundError) do
      client.saved_replies.render(reply.id, conversation_id: "conv_01JDQ8ZK3M4N5P6Q7R8S9T0V1W")
    end
  end

  def test_delete_then_not_found_and_the_shortcut_is_free
    reply = save("bye")
    assert_nil client.saved_replies.delete(reply.id)
    error = assert_raises(MessagingPlatform::NotFoundError) { client.saved_replies.get(reply.id) }
    assert_equal [404, "not_found"], [error.status, error.code]
    assert_raises(MessagingPlatform::NotFoundError) { client.saved_replies.delete(reply.id) }
    assert_raises(MessagingPlatform::NotFoundError) { client.saved_replies.update(reply.id, title: "Gone") }
    assert_equal [], client.saved_replies.list(shortcut: prefix).to_a
    again = save("bye")
    refute_equal reply.id, again.id
    assert_equal [again.id], client.saved_replies.list(shortcut: prefix).map(&:id)
  end
end

class BookingsTest < SdkTest
  def test_notify_tells_the_customer_in_the_booking_conversation
    opened = client.channels.sandbox_inbound(from: phone, name: "Lucía Pérez", text: "¿Cita?").conversation
    booking = client.bookings.create(customer: { id: opened.customer.id }, conversation_id: opened.id, service: "Corte",
                                     start_at: "2031-03-04T15:00:00+01:00", end_at: "2031-03-04T15:30:00+01:00", timezone: "Europe/Madrid")
    message = client.bookings.notify(booking.id, language: "es")
    assert_instance_of MessagingPlatform::Models::Message, message
    assert_equal opened.id, message.conversation_id
    assert_equal "Hola Lucía, tu cita (Corte) está confirmada para el martes, 4 de marzo a las 15:00. ¡Hasta entonces!", message.text
    lone = client.bookings.create(customer: { phone: phone }, service: "Corte",
                                  start_at: "2031-03-04T16:00:00+01:00", end_at: "2031-03-04T16:30:00+01:00", timezone: "Europe/Madrid")
    error = assert_raises(MessagingPlatform::ValidationError) { client.bookings.notify(lone.id) }
    assert_equal "booking_without_conversation", error.code
  end

  def test_create_conflict_get_reschedule_list_cancel
    customer_id = client.channels.sandbox_inbound(from: phone, name: "Bea", text: "I want to book").conversation.customer.id
    day = day_ahead(7)
    booking = client.bookings.create(customer: { id: customer_id }, service: "Dental cleaning", resource_id: "chair-1",
                                     start_at: "#{day}T10:00:00+01:00", end_at: "#{day}T10:45:00+01:00", timezone: "Europe/Berlin",
                                     metadata: { source: "sdk" })
    assert_equal "confirmed", booking.status
    assert_equal "#{day}T09:00:00.000Z", booking.start_at
    assert_equal({ "source" => "sdk" }, booking.metadata)

    assert_raises(MessagingPlatform::ConflictError) do
      client.bookings.create(customer: { id: customer_id }, service: "Check-up", resource_id: "chair-1",
                             start_at: "#{day}T10:30:00+01:00", end_at: "#{day}T11:00:00+01:00", timezone: "Europe/Berlin")
    end

    got = client.bookings.get(booking.id)
    assert_equal booking, got

    # The chair's morning: busy while booked, hour-long slots around it (Time or ISO 8601).
    morning = client.bookings.availability(resource_id: "chair-1", from: Time.utc(*day.split("-").map(&:to_i), 8),
                                           to: "#{day}T12:00:00Z", duration_minutes: 60)
    assert_equal [[booking.start_at, booking.end_at]], morning.busy.map { |b| [b.start_at, b.end_at] }
    assert_equal %w[08 10 11].map { |h| "#{day}T#{h}:00:00.000Z" }, morning.slots.map(&:start_at)
    moving = client.bookings.availability(resource_id: "chair-1", from: "#{day}T08:00:00Z", to: "#{day}T12:00:00Z",
                                          reschedule_booking_id: booking.id)
    assert_equal [[], nil], [moving.busy, moving.slots]

    moved = client.bookings.update(booking.id, start_at: "#{day}T14:00:00+01:00", end_at: "#{day}T14:45:00+01:00", if_match: got.version)
    assert_equal "#{day}T09:00:00.000Z", moved.rescheduled_from.start_at
    assert_equal 2, moved.version
    assert_raises(MessagingPlatform::PreconditionFailedError) { client.bookings.update(booking.id, notes: "x", if_match: got.version) }

    assert_equal [booking.id], client.bookings.list(customer_id: customer_id).map(&:id)
    window = client.bookings.list(from: Time.utc(*day.split("-").map(&:to_i)), to: "#{day}T23:59:59Z").to_a
    assert(window.any? { |b| b.id == booking.id })

    cancelled = client.bookings.cancel(booking.id, reason: "Customer called to cancel", if_match: moved.version)
    assert_equal "cancelled", cancelled.status
    assert_equal "Customer called to cancel", cancelled.cancellation.reason
    assert_equal "cancelled", client.bookings.cancel(booking.id).status
  end
end

class SchedulesTest < SdkTest
  DAYS = %w[mon tue wed thu fri sat sun].freeze
  NINE_TO_FIVE = [{ start: "09:00", end: "17:00" }].freeze
  WEEKDAYS = { mon: NINE_TO_FIVE, tue: NINE_TO_FIVE, wed: NINE_TO_FIVE, thu: NINE_TO_FIVE, fri: NINE_TO_FIVE }.freeze

  # Resource ids unique to one test, so the tests of this class (one tenant) never see each other's schedules.
  def prefix
    @prefix ||= "t#{SecureRandom.hex(4)}"
  end

  def hours_of(spans)
    spans.map { |span| [span.start, span.end] }
  end

  def spans_of(spans)
    spans.map { |span| [span.start_at, span.end_at] }
  end

  # Books `resource_id` in Berlin time (+01:00 in early March 2031).
  def book(resource_id, day, from, to)
    client.bookings.create(customer: { phone: phone, name: "Ola" }, service: "Haircut", resource_id: resource_id,
                           start_at: "#{day}T#{from}:00+01:00", end_at: "#{day}T#{to}:00+01:00", timezone: "Europe/Berlin")
  end

  def test_create_gives_every_day_of_the_week_get_and_list_a_to_z
    chair = "#{prefix}-chair:1" # `:` is escaped in the path
    created = client.schedules.create(resource_id: chair, timezone: "Europe/Berlin",
                                      weekly_hours: { mon: [{ start: "13:30", end: "18:00" }, { start: "09:00", end: "12:30" }],
                                                      sat: [{ start: "10:00", end: "14:00" }] },
                                      date_overrides: [{ date: "2030-12-31", hours: [] },
                                                       { date: "2030-12-24", hours: [{ start: "09:00", end: "12:00" }] }])
    assert_instance_of MessagingPlatform::Models::Schedule, created
    assert_equal [chair, tenant.tenant_id, "Europe/Berlin", 1], [created.resource_id, created.tenant_id, created.timezone, created.version]
    assert_equal DAYS, created.weekly_hours.to_h.keys
    assert_equal [%w[09:00 12:30], %w[13:30 18:00]], hours_of(created.weekly_hours.mon)
    assert_instance_of MessagingPlatform::Models::OpeningHours, created.weekly_hours.mon.first
    assert_equal [%w[10:00 14:00]], hours_of(created.weekly_hours.sat)
    assert_equal [[], [], [], [], []], %i[tue wed thu fri sun].map { |day| created.weekly_hours[day] }
    assert_equal [["2030-12-24", [%w[09:00 12:00]]], ["2030-12-31", []]],
                 created.date_overrides.map { |override| [override.date, hours_of(override.hours)] }
    assert_equal created.updated_at, created.created_at
    assert_equal created.to_h, client.schedules.get(chair).to_h

    error = assert_raises(MessagingPlatform::ConflictError) do
      client.schedules.create(resource_id: chair, timezone: "UTC", weekly_hours: {})
    end
    assert_equal [409, "schedule_exists"], [error.status, error.code]
    assert_equal 1, client.schedules.get(chair).version

    room = client.schedules.create(resource_id: "#{prefix}-a-room", timezone: "UTC", weekly_hours: WEEKDAYS)
    assert_equal [room.resource_id, chair], client.schedules.list.map(&:resource_id).grep(/\A#{prefix}-/)
    everything = client.schedules.list(limit: 1).map(&:resource_id)
    assert_equal everything.sort, everything
    page = client.schedules.list(limit: 1).page
    assert_equal [1, true], [page.to_a.size, page.has_more?]
    assert_instance_of MessagingPlatform::Models::Schedule, page.first
    assert_equal everything[1], client.schedules.list(limit: 1, cursor: page.next_cursor).page.first.resource_id

    error = assert_raises(MessagingPlatform::NotFoundError) { client.schedules.get("#{prefix}-none") }
    assert_equal [404, "not_found"], [error.status, error.code]
    assert_raises(ArgumentError) { client.schedules.list(resource_id: chair) }
  end

  def test_writes_need_an_admin_and_hours_that_can_be_kept
    error = assert_raises(MessagingPlatform::ValidationError) do
      client.schedules.create(resource_id: "#{prefix}-x", timezone: "Europe/Berlin", weekly_hours: { mon: [{ start: "17:00", end: "09:00" }] })
    end
    assert_equal [422, ["weekly_hours.mon.0.end"]], [error.status, error.errors.map(&:path)]
    assert_raises(MessagingPlatform::NotFoundError) { client.schedules.get("#{prefix}-x") }

    key = client.api_keys.create(name: "Front desk", role: "agent")
    agent = tenant.client_with(api_key: key.key)
    error = assert_raises(MessagingPlatform::PermissionDeniedError) do
      agent.schedules.create(resource_id: "#{prefix}-x", timezone: "UTC", weekly_hours: WEEKDAYS)
    end
    assert_equal 403, error.status
    schedule = client.schedules.create(resource_id: "#{prefix}-x", timezone: "UTC", weekly_hours: WEEKDAYS)
    assert_equal schedule.to_h, agent.schedules.get(schedule.resource_id).to_h # an agent reads them
    assert_raises(MessagingPlatform::PermissionDeniedError) { agent.schedules.delete(schedule.resource_id) }
    assert_nil client.api_keys.revoke(key.id)
  end

  def test_buffers_keep_the_resource_free_around_bookings_made_under_them
    chair = "#{prefix}-buffered"
    schedule = client.schedules.create(resource_id: chair, timezone: "Europe/Berlin", weekly_hours: WEEKDAYS,
                                       buffer_after_minutes: 15)
    assert_equal [0, 15], [schedule.buffer_before_minutes, schedule.buffer_after_minutes]
    first = book(chair, "2031-03-03", "10:00", "10:45")
    assert_equal 15, first.buffer_after_minutes
    error = assert_raises(MessagingPlatform::ConflictError) { book(chair, "2031-03-03", "10:50", "11:20") }
    assert_equal "booking_conflict", error.code
    day = client.bookings.availability(resource_id: chair, from: "2031-03-03T10:00:00+01:00",
                                       to: "2031-03-03T12:00:00+01:00", duration_minutes: 30, step_minutes: 15)
    assert_equal [["2031-03-03T09:00:00.000Z", "2031-03-03T09:45:00.000Z"]], spans_of(day.busy)
    assert_equal [["2031-03-03T09:00:00.000Z", "2031-03-03T10:00:00.000Z"]], spans_of(day.held)
    assert_equal [0, 15], [day.buffer_before_minutes, day.buffer_after_minutes]
    assert_equal "2031-03-03T10:00:00.000Z", day.slots.first.start_at
    # Bookings already made keep theirs.
    changed = client.schedules.update(chair, buffer_after_minutes: 0, if_match: schedule.version)
    assert_equal 0, changed.buffer_after_minutes
    assert_equal 15, client.bookings.get(first.id).buffer_after_minutes
  end

  def test_update_replaces_what_is_sent_and_if_match_guards
    chair = "#{prefix}-chair"
    created = client.schedules.create(resource_id: chair, timezone: "Europe/Berlin", weekly_hours: WEEKDAYS,
                                      date_overrides: [{ date: "2031-03-05", hours: [] }])
    moved = client.schedules.update(chair, timezone: "Europe/Lisbon", if_match: created.version)
    assert_instance_of MessagingPlatform::Models::Schedule, moved
    assert_equal ["Europe/Lisbon", 2], [moved.timezone, moved.version]
    assert_equal [created.weekly_hours.to_h, created.date_overrides.map(&:to_h)], [moved.weekly_hours.to_h, moved.date_overrides.map(&:to_h)]

    error = assert_raises(MessagingPlatform::PreconditionFailedError) do
      client.schedules.update(chair, timezone: "UTC", if_match: created.version)
    end
    assert_equal [412, "version_mismatch"], [error.status, error.code]
    assert_equal moved.to_h, client.schedules.get(chair).to_h

    # The weekdays sent are replaced (the others keep their hours, [] closes one); date_overrides the whole list.
    shorter = client.schedules.update(chair, weekly_hours: { mon: [{ start: "09:00", end: "12:00" }], fri: [] }, date_overrides: [],
                                             if_match: moved.version)
    assert_equal 3, shorter.version
    nine = [%w[09:00 17:00]]
    assert_equal [[%w[09:00 12:00]], nine, nine, nine, [], [], []], DAYS.map { |day| hours_of(shorter.weekly_hours[day]) }
    assert_equal [[], "Europe/Lisbon"], [shorter.date_overrides, shorter.timezone]
    assert_raises(MessagingPlatform::NotFoundError) { client.schedules.update("#{prefix}-nobody", timezone: "UTC") }
    assert_raises(ArgumentError) { client.schedules.update(chair, hours: NINE_TO_FIVE) }
  end

  def test_delete_with_if_match_then_the_resource_is_open_at_all_times
    chair = "#{prefix}-chair"
    created = client.schedules.create(resource_id: chair, timezone: "Europe/Berlin", weekly_hours: WEEKDAYS)
    error = assert_raises(MessagingPlatform::ValidationError) { book(chair, "2031-03-09", "10:00", "11:00") } # a Sunday
    assert_equal "outside_opening_hours", error.code

    changed = client.schedules.update(chair, date_overrides: [{ date: "2031-03-09", hours: [] }])
    error = assert_raises(MessagingPlatform::PreconditionFailedError) { client.schedules.delete(chair, if_match: created.version) }
    assert_equal [412, "version_mismatch"], [error.status, error.code]
    assert_equal changed.to_h, client.schedules.get(chair).to_h

    assert_nil client.schedules.delete(chair, if_match: changed.version)
    error = assert_raises(MessagingPlatform::NotFoundError) { client.schedules.get(chair) }
    assert_equal [404, "not_found"], [error.status, error.code]
    assert_raises(MessagingPlatform::NotFoundError) { client.schedules.delete(chair) }
    assert_equal [], client.schedules.list.map(&:resource_id).grep(/\A#{prefix}-/)
    assert_equal "confirmed", book(chair, "2031-03-09", "10:00", "11:00").status
  end

  def test_a_booking_outside_the_hours_is_a_validation_error
    chair = "#{prefix}-chair"
    client.schedules.create(resource_id: chair, timezone: "Europe/Berlin",
                            weekly_hours: WEEKDAYS.merge(mon: [{ start: "09:00", end: "12:30" }, { start: "13:30", end: "18:00" }]),
                            date_overrides: [{ date: "2031-03-04", hours: [] }])
    inside = book(chair, "2031-03-03", "10:00", "11:00") # Monday 3 March 2031
    assert_equal ["confirmed", "2031-03-03T09:00:00.000Z"], [inside.status, inside.start_at]

    error = assert_raises(MessagingPlatform::ValidationError) { book(chair, "2031-03-03", "12:15", "13:00") } # over lunch
    assert_instance_of MessagingPlatform::ValidationError, error
    assert_equal [422, "outside_opening_hours"], [error.status, error.code]
    assert_equal ["start_at"], error.errors.map(&:path)
    assert_match(/2031-03-03/, error.detail)
    error = assert_raises(MessagingPlatform::ValidationError) { book(chair, "2031-03-04", "10:00", "11:00") } # closed that day
    assert_equal "outside_opening_hours", error.code
    error = assert_raises(MessagingPlatform::ValidationError) do
      client.bookings.update(inside.id, start_at: "2031-03-03T17:30:00+01:00", end_at: "2031-03-03T18:30:00+01:00")
    end
    assert_equal "outside_opening_hours", error.code
    assert_equal "confirmed", book("#{prefix}-unscheduled", "2031-03-04", "10:00", "11:00").status # open at all times
  end

  def test_availability_counts_the_time_outside_the_hours_as_closed
    chair = "#{prefix}-chair"
    client.schedules.create(resource_id: chair, timezone: "Europe/Berlin",
                            weekly_hours: { mon: [{ start: "09:00", end: "12:30" }, { start: "13:30", end: "18:00" }] })
    booking = book(chair, "2031-03-03", "10:00", "11:00")
    day = "2031-03-03"
    at = ->(time) { "#{day}T#{time}:00.000Z" }
    monday = client.bookings.availability(resource_id: chair, from: "#{day}T07:00:00Z", to: "#{day}T18:00:00Z",
                                          duration_minutes: 60, step_minutes: 30)
    assert_instance_of MessagingPlatform::Models::Availability, monday
    assert_equal [[booking.start_at, booking.end_at]], spans_of(monday.busy)
    assert_equal [%w[07:00 08:00], %w[11:30 12:30], %w[17:00 18:00]].map { |span| span.map(&at) }, spans_of(monday.closed)
    assert_instance_of MessagingPlatform::Models::TimeSpan, monday.closed.first
    assert_equal [%w[08:00 09:00], %w[10:00 11:30], %w[12:30 17:00]].map { |span| span.map(&at) }, spans_of(monday.free)
    assert_equal %w[08:00 10:00 10:30 12:30 13:00 13:30 14:00 14:30 15:00 15:30 16:00].map(&at), monday.slots.map(&:start_at)

    open = client.bookings.availability(resource_id: "#{prefix}-unscheduled", from: "#{day}T07:00:00Z", to: "#{day}T08:00:00Z")
    assert_equal [[], [%w[07:00 08:00].map(&at)]], [open.closed, spans_of(open.free)]
  end
end

class AiTest < SdkTest
  def test_analyze_suggest_and_categorize
    analysis = client.ai.analyze(text: "I was charged twice for my massage tomorrow at 3pm!! Refund the €45 to jo@example.com")
    assert_equal "payment_issue", analysis.intent.name
    assert_equal "negative", analysis.sentiment.label
    assert(analysis.entities.any? { |e| e.is_a?(MessagingPlatform::Models::EmailEntity) && e.value == "jo@example.com" })
    assert_equal "local", analysis.provider

    inbound = client.channels.sandbox_inbound(from: phone, name: "Maria Lopez", text: "This is ridiculous, I want to talk to a real person")
    suggestions = client.ai.suggest(conversation_id: inbound.conversation.id, count: 2)
    refute_empty suggestions.suggestions
    assert_equal "Maria Lopez", suggestions.grounding.customer_name

    categorized = client.ai.categorize(conversation_id: inbound.conversation.id, apply: true)
    assert_equal "support", categorized.category.name
    assert_equal true, categorized.applied
  end
end

class EventsTest < SdkTest
  def test_list_filters_by_type_and_time_newest_first_as_typed_events
    client.channels.sandbox_inbound(from: phone, text: "An event, please")
    events = client.events.list(type: "conversation.*", since: Time.now - 3600, until: Time.now).to_a
    refute_empty events
    assert(events.all? { |e| e.type.start_with?("conversation.") })
    ids = events.map(&:id)
    assert_equal ids.sort.reverse, ids
    created = events.find { |e| e.type == "conversation.created" }
    assert_instance_of MessagingPlatform::Models::ConversationCreatedEvent, created
    assert_match(/\Aconv_/, created.data.conversation.id)
    got = client.events.get(created.id)
    assert_instance_of MessagingPlatform::Models::ConversationCreatedEvent, got
    assert_equal created, got
    assert_raises(MessagingPlatform::NotFoundError) { client.events.get("evt_01JDQ8ZK3M4N5P6Q7R8S9T0V1W") }
  end
end

# Realtime tickets (the WebSocket itself is documented in the README: the SDK keeps to the standard library).
class RealtimeTest < SdkTest
  def test_a_ticket_points_at_the_realtime_server_and_events_resume_after_an_id
    ticket = client.realtime.create_ticket(types: ["conversation.*"])
    assert_match(/\Artt_[A-Za-z0-9_-]{32}\z/, ticket.ticket)
    assert_match(%r{\Aws://127\.0\.0\.1:\d+/?\?}, ticket.url)
    assert_includes ticket.url, "ticket=#{ticket.ticket}"
    client.channels.sandbox_inbound(from: phone, text: "first")
    client.channels.sandbox_inbound(from: phone, text: "second")
    received = eventually { found = client.events.list(type: "conversation.message.received").to_a; found if found.size >= 2 }
    first, = received.reverse
    after = client.events.list(after: first.id).to_a
    assert_includes after.map(&:id), received.first.id
    refute_includes after.map(&:id), first.id
  end
end
