# frozen_string_literal: true

# Runs every test of the Ruby SDK against the local runtime whose addresses TEST_RUNTIME_FILE names:
#
#   npm run test:sdk:ruby        (from the repository root; starts and stops the runtime)
#
# `ruby sdks/ruby/test/all.rb -n /pattern/` runs some tests only (minitest's options).
Dir[File.join(__dir__, "*_test.rb")].sort.each { |file| require file }
