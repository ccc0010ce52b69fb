# frozen_string_literal: true

# The official Ruby SDK of the Messaging Platform API.
#
#   require "messaging_platform"
#   client = MessagingPlatform::Client.new(api_key:, tenant_id:, base_url: "https://api.example.com")
#   client.conversations.list(status: "open").each { |conversation| puts conversation.id }
module MessagingPlatform
end

require_relative "messaging_platform/version"
require_relative "messaging_platform/errors"
require_relative "messaging_platform/model"
require_relative "messaging_platform/operation"
require_relative "messaging_platform/models"
require_relative "messaging_platform/transport"
require_relative "messaging_platform/credentials"
require_relative "messaging_platform/pagination"
require_relative "messaging_platform/resources/base"
require_relative "messaging_platform/resources/generated"
require_relative "messaging_platform/resources/customers"
require_relative "messaging_platform/resources/auth"
require_relative "messaging_platform/client"
require_relative "messaging_platform/webhook"
