# frozen_string_literal: true

module MessagingPlatform
  module Resources
    # `client.auth`: the calling credential (generated.rb), and the login session's lifecycle.
    class Auth
      def initialize(transport, session)
        super(transport)
        @session = session
      end

      # Ends the login session at once: its tokens stop working and this client forgets them. A session
      # the API already ended counts as logged out. (With an API key this is a BadRequestError,
      # `not_a_session`: revoke keys with api_keys.revoke.)
      def logout(request_options: nil)
        begin
          call("logout", body: {}, request_options: options(request_options))
        rescue AuthenticationError
          raise unless @session
        end
        @session&.clear
        nil
      end

      # Rotates the session's tokens now (the client also does it by itself before they expire).
      def refresh
        raise Error, "refresh needs a login session (MessagingPlatform::Client.login)" unless @session

        @session.refresh
      end
    end
  end
end
