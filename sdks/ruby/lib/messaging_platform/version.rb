# frozen_string_literal: true

module MessagingPlatform
  VERSION = "0.1.0"
end
