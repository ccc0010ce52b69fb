# frozen_string_literal: true

module MessagingPlatform
  module Resources
    # `client.customers`: the generated operations (generated.rb), and a lookup by phone number.
    class Customers
      # The customer with this phone number (E.164, e.g. "+4915112345678"), or nil.
      def find_by_phone(phone, request_options: nil)
        # Without a number the request would be the whole list, and its first customer someone else.
        raise Error, "find_by_phone needs a phone number" unless phone.is_a?(String) && !phone.strip.empty?

        list(phone: phone, request_options: request_options).page.first
      end
    end
  end
end
