# frozen_string_literal: true

module MessagingPlatform
  # One page of a list: its items (`data`), `has_more`, `next_cursor` and `limit`. Enumerable over its
  # items.
  class Page
    include Enumerable

    # The items of this page (models), newest first.
    attr_reader :data
    # Pass it as `cursor:` to get the next page; nil on the last page.
    attr_reader :next_cursor
    # The page size asked for.
    attr_reader :limit

    def initialize(body, item_type, fetch_page)
      pagination = body.fetch("pagination")
      @data = Array(body.fetch("data")).map { |item| Types.convert(item, item_type) }.freeze
      @has_more = pagination.fetch("has_more")
      @next_cursor = pagination.fetch("next_cursor")
      @limit = pagination.fetch("limit")
      @item_type = item_type
      @fetch_page = fetch_page
    end

    # Whether another page follows.
    def has_more?
      @has_more == true
    end
    alias has_more has_more?

    # The next page, or nil after the last one.
    def next_page
      return nil unless has_more? && @next_cursor

      Page.new(@fetch_page.call(@next_cursor), @item_type, @fetch_page)
    end

    def each(&block)
      return enum_for(:each) unless block

      @data.each(&block)
      self
    end

    def size
      @data.size
    end
    alias length size

    def empty?
      @data.empty?
    end

    def inspect
      "#<MessagingPlatform::Page #{@data.size} items, has_more=#{@has_more}, next_cursor=#{@next_cursor.inspect}>"
    end
  end

  # A list that fetches lazily. `each` (and every Enumerable method: `map`, `first(10)`, `to_a` …)
  # walks every item of every page; `page` (or `first_page`) gives one page, the first or the one at
  # the `cursor:` the list was called with; `each_page` yields page after page.
  class PagedList
    include Enumerable

    # fetch_page: given a cursor (or nil), returns the parsed list body. item_type: the items' model.
    def initialize(item_type, cursor = nil, &fetch_page)
      @item_type = item_type
      @cursor = cursor
      @fetch_page = fetch_page
    end

    # One page: the first, or the one at the list's cursor.
    def page
      Page.new(@fetch_page.call(@cursor), @item_type, @fetch_page)
    end
    alias first_page page

    # Yields every page in turn (an Enumerator without a block).
    def each_page
      return enum_for(:each_page) unless block_given?

      current = page
      while current
        yield current
        current = current.next_page
      end
      self
    end

    def each(&block)
      return enum_for(:each) unless block

      each_page { |current| current.each(&block) }
    end

    def inspect
      "#<MessagingPlatform::PagedList #{@item_type.respond_to?(:name) ? @item_type.name : @item_type}>"
    end
  end
end
