# frozen_string_literal: true

require_relative "test_helper"

# Cursor pagination: Enumerable lists over every page, one page with its cursor, resuming, laziness.
class PaginationTest < SdkTest
  class << self
    # Seven conversations of a fresh tenant, newest first.
    def conversation_ids
      @conversation_ids ||= Array.new(7) { tenant.client.conversations.create(channel: "sandbox", customer: { phone: TestSupport.phone }).id }.reverse
    end
  end

  def setup
    @ids = self.class.conversation_ids
    @proxy = FaultProxy.new
    @paged = tenant.client_with(base_url: @proxy.url)
  end

  def teardown
    @proxy.close
  end

  def list_requests
    @proxy.to("GET", "/conversations")
  end

  def test_each_walks_every_item_of_every_page_newest_first
    assert_equal @ids, @paged.conversations.list(limit: 3).map(&:id)
    assert_equal 3, list_requests.size
    assert_equal ["limit=3", "cursor="], [list_requests[0].path[/limit=\d+/], list_requests[1].path[/cursor=/]]
  end

  def test_page_gives_one_page_with_its_cursor_next_page_and_a_list_from_the_cursor_continue_it
    page = @paged.conversations.list(limit: 3).page
    assert_instance_of MessagingPlatform::Page, page
    assert_equal @ids.first(3), page.map(&:id)
    assert page.has_more?
    assert_equal 3, page.limit
    refute_nil page.next_cursor

    resumed = @paged.conversations.list(limit: 3, cursor: page.next_cursor).first_page
    assert_equal @ids[3, 3], resumed.data.map(&:id)
    assert_equal resumed.data, page.next_page.data

    last = resumed.next_page
    assert_equal @ids[6, 1], last.data.map(&:id)
    refute last.has_more?
    assert_nil last.next_cursor
    assert_nil last.next_page
  end

  def test_each_page_yields_each_page
    sizes = @paged.conversations.list(limit: 3).each_page.map(&:size)
    assert_equal [3, 3, 1], sizes
  end

  def test_first_stops_fetching_once_it_has_enough
    assert_equal @ids.first(4), @paged.conversations.list(limit: 3).first(4).map(&:id)
    assert_equal 2, list_requests.size
  end

  def test_a_list_is_lazy
    list = @paged.conversations.list(limit: 3)
    assert_empty list_requests
    assert_equal @ids.first, list.first.id
    assert_equal 1, list_requests.size
  end
end
