# frozen_string_literal: true

module MessagingPlatform
  # The API's resources. Every method takes the operation's parameters as keyword arguments (checked
  # against openapi.json's schemas) and per-call options last: `request_options: { timeout:,
  # max_retries:, headers:, idempotency_key:, if_match: }`.
  module Resources
    # The default of an optional keyword argument: left out of the request (nil sends JSON null).
    UNSET = Object.new.tap { |unset| def unset.inspect = "UNSET" }.freeze

    # Base of every resource: calls an operation of OPERATIONS through the transport.
    class Base
      def initialize(transport)
        @transport = transport
      end

      def inspect
        "#<#{self.class.name}>"
      end

      private

      # Calls an operation and returns its response as a model (nil for 204).
      def call(operation_id, path_params = {}, query: nil, body: nil, request_options: nil)
        operation = OPERATIONS.fetch(operation_id)
        response = @transport.request(method: operation.method, path: operation.expand(path_params), auth: operation.auth,
                                      query: query, body: body, options: request_options)
        model = operation.response_model(response.status)
        model ? model.build(response.body) : response.body
      end

      # A lazy PagedList of a list operation; `cursor:` in the params starts it at that page.
      def paged(operation_id, path_params, params, request_options)
        operation = OPERATIONS.fetch(operation_id)
        filters = query_of(operation, params)
        cursor = filters.delete("cursor")
        item_type = operation.response_model(200).properties.fetch("data").fetch(:type).first
        path = operation.expand(path_params)
        PagedList.new(item_type, cursor) do |next_cursor|
          @transport.request(method: :get, path: path, auth: operation.auth, query: filters.merge("cursor" => next_cursor),
                             options: request_options).body
        end
      end

      # Query parameters, by the names openapi.json gives the operation.
      def query_of(operation, params)
        query = params.to_h { |name, value| [name.to_s, value] }
        unknown = query.keys - operation.query
        unless unknown.empty?
          raise ArgumentError, "unknown parameter(s) for #{operation.id}: #{unknown.join(', ')} " \
                               "(expected #{operation.query.join(', ')})"
        end
        query
      end

      # A request body, with the member names of the operation's request schema.
      def body_of(operation_id, params)
        operation = OPERATIONS.fetch(operation_id)
        body = params.to_h { |name, value| [name.to_s, value] }
        known = operation.body_model.properties.keys
        unknown = body.keys - known
        raise ArgumentError, "unknown parameter(s) for #{operation_id}: #{unknown.join(', ')} (expected #{known.join(', ')})" unless unknown.empty?

        body
      end

      # The keyword arguments given, without those left UNSET.
      def given(params)
        params.reject { |_, value| UNSET.equal?(value) }
      end

      # Per-call options with the `idempotency_key:` / `if_match:` keywords folded in.
      def options(request_options, idempotency_key: nil, if_match: nil)
        merged = (request_options || {}).to_h { |name, value| [name.to_sym, value] }
        merged[:idempotency_key] = idempotency_key unless idempotency_key.nil?
        merged[:if_match] = if_match unless if_match.nil?
        merged
      end
    end
  end
end
