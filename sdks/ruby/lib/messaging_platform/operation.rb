# frozen_string_literal: true

module MessagingPlatform
  # One operation of the API, as OPERATIONS (generated from openapi.json) describes it: HTTP method,
  # path template, credentials (:tenant, :platform or :none), parameter names, the request body's schema
  # and the response schema by status.
  Operation = Struct.new(:id, :method, :path, :auth, :path_params, :query, :body, :body_required, :responses,
                         keyword_init: true) do
    # The path with its parameters filled in and escaped: "/conversations/conv_…".
    def expand(values = {})
      path.gsub(/\{([^}]+)\}/) do
        name = Regexp.last_match(1)
        value = values.fetch(name.to_sym) { values.fetch(name) { raise ArgumentError, "#{id} needs #{name}" } }
        raise ArgumentError, "#{name} must not be empty" if value.to_s.empty?

        URI.encode_www_form_component(value.to_s).gsub("+", "%20")
      end
    end

    # The model (or union) of a success response with this status, or nil (no body, or not described).
    def response_model(status)
      name = responses[status]
      name && Types.model(name)
    end

    # The request body's model class, or nil.
    def body_model
      body && Types.model(body)
    end
  end
end
