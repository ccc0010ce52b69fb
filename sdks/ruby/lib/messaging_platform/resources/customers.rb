# frozen_string_literal: true

module MessagingPlatform
  module Resources
    # Customers: `client.customers`, the people a tenant talks to, created by their first contact.
    class Customers < Base
      # Customers, newest first; `phone:` (E.164) gives the one customer with that number, or none;
      # `name:` gives those whose name, or a later word of it, starts with it (case and accents aside), A to Z.
      def list(request_options: nil, **params)
        paged("listCustomers", {}, params, request_options)
      end

      def get(id, request_options: nil)
        call("getCustomer", { id: id }, request_options: options(request_options))
      end

      # Changes the customer's name (`name: nil` clears it); their conversations and bookings show it too.
      # `if_match: customer.version` raises PreconditionFailedError if someone changed them meanwhile.
      def update(id, if_match: nil, request_options: nil, **changes)
        call("updateCustomer", { id: id }, body: body_of("updateCustomer", changes),
                                           request_options: options(request_options, if_match: if_match))
      end

      # The customer with this phone number (E.164, e.g. "+4915112345678"), or nil.
      def find_by_phone(phone, request_options: nil)
        # Without a number the request would be the whole list, and its first customer someone else.
        raise Error, "find_by_phone needs a phone number" unless phone.is_a?(String) && !phone.strip.empty?

        list(phone: phone, request_options: request_options).page.first
      end
    end
  end
end
