#!/usr/bin/env ruby
# frozen_string_literal: true

# Writes lib/messaging_platform/resources/generated.rb from the API's OpenAPI document: a class per
# `x-sdk-resource` (`conversations.messages` is `client.conversations.messages`), a method per `x-sdk-method`
# with the path parameters as positional arguments and the query and body fields as keyword arguments
# (required ones without a default, the others left out unless given), `idempotency_key:` on POSTs,
# `if_match:` where If-Match is honoured, `request_options:` last, and the operation's summary and
# description as its comment. Operations marked `x-sdk-core` (login, refresh, logout) are the hand-written
# session code's. Hand-written additions reopen the classes (resources/customers.rb, resources/auth.rb).
#
#   ruby scripts/generate_resources.rb            regenerate (run in sdks/ruby, after `npm run openapi`)
#   ruby scripts/generate_resources.rb --check    exit 1, naming the drift, when generated.rb is out of date
#   ruby scripts/generate_resources.rb --openapi path/to/openapi.json [--check]

require "json"
require_relative "generator_command"

module MessagingPlatform
  # Generates resources/generated.rb; see the header of this script.
  class ResourceGenerator
    SDK_ROOT = File.expand_path("..", __dir__)
    DEFAULT_OPENAPI = File.expand_path("../../openapi.json", SDK_ROOT)
    OUTPUT = File.join(SDK_ROOT, "lib", "messaging_platform", "resources", "generated.rb")
    HTTP_METHODS = %w[get post put patch delete].freeze
    WIDTH = 120
    # Names Ruby already gives every object: the method takes another name, and the word as an alias.
    RENAMED = { "send" => "create" }.freeze
    ALIASES = { "send" => "send_message", "retry" => "redeliver" }.freeze
    # Reserved words, usable as keyword arguments but not as local variables.
    KEYWORDS = %w[alias and begin break case class def defined? do else elsif end ensure false for if in module next nil not
                  or redo rescue retry return self super then true undef unless until when while yield].freeze

    def initialize(openapi_path = DEFAULT_OPENAPI, output = OUTPUT)
      @output = output
      @document = JSON.parse(File.read(openapi_path))
    end

    # The Ruby source generated.rb should hold.
    def source
      operations = sdk_operations
      resources = operations.map { |op| op[:resource] }.uniq
      classes = resources.map { |resource| class_lines(resource, resources, operations.select { |op| op[:resource] == resource }) }
      # Sub-resources first: a class is defined before the parent that makes it.
      ordered = resources.zip(classes).sort_by.with_index { |(resource, _), index| [-resource.count("."), index] }.map(&:last)
      lines = ["# GENERATED from openapi.json by scripts/generate_resources.rb. Do not edit: run `ruby scripts/generate_resources.rb`",
               "# frozen_string_literal: true", "",
               "module MessagingPlatform", "  module Resources"]
      ordered.each_with_index do |class_source, index|
        lines << "" unless index.zero?
        lines.concat(class_source)
      end
      lines << "  end" << "end"
      "#{lines.join("\n")}\n"
    end

    def write
      File.write(@output, source)
    end

    # nil when generated.rb is current, otherwise what differs.
    def difference
      return "#{@output} does not exist" unless File.exist?(@output)

      current = File.read(@output)
      wanted = source
      return nil if current == wanted

      methods = ->(text) { text.scan(/^ {6}def (\w+)/).flatten }
      missing = methods.call(wanted) - methods.call(current)
      "#{"methods missing: #{missing.join(', ')}; " unless missing.empty?}#{GeneratorCommand.first_difference(current, wanted)}"
    end

    private

    def sdk_operations
      parameters = @document.dig("components", "parameters") || {}
      @document.fetch("paths").flat_map do |path, item|
        HTTP_METHODS.filter_map do |method|
          op = item[method]
          next unless op && op["x-sdk-resource"] && !op["x-sdk-core"]

          params = (op["parameters"] || []).map { |p| p["$ref"] ? parameters.fetch(p["$ref"].split("/").last) : p }
          body_ref = op.dig("requestBody", "content", "application/json", "schema", "$ref")
          body = body_ref && @document.dig("components", "schemas", body_ref.split("/").last)
          success = op.fetch("responses").select { |status, _| status.match?(/\A2\d\d\z/) }
          response_ref = success.values.filter_map { |r| r.dig("content", "application/json", "schema", "$ref") }
          response = response_ref.size == 1 ? @document.dig("components", "schemas", response_ref.first.split("/").last) : nil
          {
            id: op.fetch("operationId"), method: method, path: path,
            resource: op.fetch("x-sdk-resource"), name: op.fetch("x-sdk-method"), paginated: op["x-sdk-paginated"] == true,
            doc: [op["summary"] && "#{op['summary']}.", op["description"]].compact.join(" "),
            path_params: params.select { |p| p["in"] == "path" }.map { |p| p["name"] },
            query: params.select { |p| p["in"] == "query" }.map { |p| [p["name"], p["required"] == true] },
            body: body && (body["properties"] || {}).keys.map { |name| [name, (body["required"] || []).include?(name)] },
            idempotency_key: params.any? { |p| p["in"] == "header" && p["name"] == "Idempotency-Key" },
            if_match: params.any? { |p| p["in"] == "header" && p["name"] == "If-Match" },
            returns_nil: response_ref.empty?,
            unwrap: response && response["type"] == "object" && (response["properties"] || {}).keys == ["data"]
          }
        end
      end
    end

    def class_lines(resource, resources, operations)
      name = camelize(resource.split(".").last)
      children = resources.select { |r| r.start_with?("#{resource}.") && !r.delete_prefix("#{resource}.").include?(".") }
      lines = ["    # `client.#{resource}`.", "    class #{name} < Base"]
      unless children.empty?
        lines << "      attr_reader #{children.map { |c| ":#{c.split('.').last}" }.join(', ')}" << ""
        lines << "      def initialize(transport)" << "        super"
        children.each { |child| lines << "        @#{child.split('.').last} = #{camelize(child.split('.').last)}.new(transport)" }
        lines << "      end"
      end
      operations.each_with_index do |op, index|
        lines << "" unless index.zero? && children.empty?
        lines.concat(method_lines(op))
      end
      lines << "    end"
    end

    def method_lines(op)
      nested = op[:resource].include?(".")
      parent = op[:resource].split(".")[-2]
      # The parent's `{id}` of a sub-resource is named after it: conversations.messages.list(conversation_id).
      arg_of = ->(param) { nested && param == "id" ? "#{singular(parent)}_id" : param }
      positional = op[:path_params].map(&arg_of)
      fields = op[:query] + (op[:body] || [])
      paging = op[:paginated] ? fields.select { |f, _| %w[limit cursor].include?(f) } : []
      fields -= paging
      fields = fields.select(&:last) + fields.reject(&:last) + paging
      keywords = fields.map { |field, required| required ? "#{field}:" : "#{field}: UNSET" }
      keywords << "idempotency_key: nil" if op[:idempotency_key]
      keywords << "if_match: nil" if op[:if_match]
      keywords << "request_options: nil"
      name = RENAMED.fetch(op[:name], op[:name])
      value = ->(field) { KEYWORDS.include?(field) ? "binding.local_variable_get(:#{field})" : field }
      hash = ->(names) { "{ #{names.map { |f| "#{f}: #{value.call(f)}" }.join(', ')} }" }
      path_hash = op[:path_params].empty? ? "{}" : hash_of_path(op[:path_params], arg_of)
      given = "given(#{hash.call(fields.map(&:first))[2..-3]})"
      opts = ["request_options"]
      opts << "idempotency_key: idempotency_key" if op[:idempotency_key]
      opts << "if_match: if_match" if op[:if_match]
      options = "options(#{opts.join(', ')})"
      body =
        if op[:paginated]
          "paged(#{op[:id].inspect}, #{path_hash}, #{given}, request_options)"
        else
          args = [op[:id].inspect, path_hash]
          args << "query: #{given}" unless op[:query].empty?
          args << "body: body_of(#{op[:id].inspect}, #{op[:body].empty? ? '{}' : given})" if op[:body]
          args << "request_options: #{options}"
          call = "call(#{args.join(', ')})"
          op[:unwrap] ? "#{call}.data" : call
        end
      lines = comment(op[:doc], "      ")
      lines.concat(wrap_call("def #{name}(#{(positional + keywords).join(', ')})", "      "))
      lines.concat(wrap_call(body, "        "))
      lines << "        nil" if op[:returns_nil]
      lines << "      end"
      alias_name = ALIASES[op[:name]]
      lines << "      alias #{alias_name} #{name}" if alias_name
      lines
    end

    def hash_of_path(params, arg_of)
      "{ #{params.map { |p| "#{p}: #{arg_of.call(p)}" }.join(', ')} }"
    end

    # A long call broken after its commas, continued under its first argument.
    def wrap_call(text, indent)
      return ["#{indent}#{text}"] if indent.size + text.size <= WIDTH

      open = text.index("(") + 1
      parts = split_top_level(text[open...text.rindex(")")])
      lines = ["#{indent}#{text[0...open]}#{parts.first},"]
      parts[1..].each_with_index do |part, i|
        last = i == parts.size - 2
        lines << "#{indent}#{' ' * open}#{part}#{last ? text[text.rindex(')')..] : ','}"
      end
      lines
    end

    def split_top_level(text)
      parts = []
      depth = 0
      current = +""
      text.each_char do |char|
        depth += 1 if "({[".include?(char)
        depth -= 1 if ")}]".include?(char)
        if char == "," && depth.zero?
          parts << current.strip
          current = +""
        else
          current << char
        end
      end
      parts << current.strip
    end

    def comment(text, indent)
      words = text.split(/\s+/).reject(&:empty?)
      lines = []
      line = +""
      words.each do |word|
        if !line.empty? && indent.size + 2 + line.size + 1 + word.size > WIDTH
          lines << line
          line = word.dup
        else
          line = line.empty? ? word.dup : "#{line} #{word}"
        end
      end
      lines << line unless line.empty?
      lines.map { |l| "#{indent}# #{l}" }
    end

    def camelize(name)
      name.split("_").map(&:capitalize).join
    end

    def singular(name)
      name.sub(/ies\z/, "y").sub(/s\z/, "")
    end
  end
end

if $PROGRAM_NAME == __FILE__
  MessagingPlatform::GeneratorCommand.run(MessagingPlatform::ResourceGenerator, ARGV, script: "scripts/generate_resources.rb")
end
