# frozen_string_literal: true

require "json"

module MessagingPlatform
  # Base class of the API's resources (see models.rb, generated from openapi.json).
  #
  # A model wraps the JSON object the API returned: each documented property has a reader
  # (`conversation.status`), nested objects and lists become models too, and `[]` reads any member by
  # name, including ones newer than this SDK (`conversation[:status]`, `conversation["status"]`).
  # `to_h` gives the plain JSON object back.
  class Model
    class << self
      # The documented properties: name => { type:, nullable:, required:, enum: }.
      def properties
        @properties ||= {}
      end

      # Declares a property and its reader. `type` is a primitive (:string, :integer, :number,
      # :boolean, :hash, :any), a model's name ("CustomerRef"), a list ([type]) or a union
      # ({ discriminator: "type", mapping: { "x" => "Model" } }).
      def property(name, type, required: false, nullable: false, enum: nil, const: nil)
        key = name.to_s
        properties[key] = { type: type, required: required, nullable: nullable, enum: enum, const: const }.freeze
        define_method(name) { read(key) }
      end

      def required_properties
        properties.select { |_, spec| spec[:required] }.keys
      end

      # Builds a model from a parsed JSON object (a Hash); anything else is returned as is.
      def build(value)
        value.is_a?(Hash) ? new(value) : value
      end
    end

    def initialize(attributes = {})
      raise ArgumentError, "#{self.class.name} needs a Hash, not #{attributes.class}" unless attributes.is_a?(Hash)

      @attributes = attributes.transform_keys(&:to_s)
      @cache = {}
    end

    # Any member by name (String or Symbol), converted like the readers do.
    def [](name)
      read(name.to_s)
    end

    def key?(name)
      @attributes.key?(name.to_s)
    end

    def dig(name, *rest)
      value = self[name]
      rest.empty? || value.nil? ? value : value.dig(*rest)
    end

    # The JSON object as the API sent it (string keys).
    def to_h
      @attributes.dup
    end

    def to_json(*args)
      @attributes.to_json(*args)
    end

    def ==(other)
      other.is_a?(Model) && other.to_h == to_h
    end
    alias eql? ==

    def hash
      @attributes.hash
    end

    def inspect
      "#<#{self.class.name} #{@attributes.inspect}>"
    end
    alias to_s inspect

    def respond_to_missing?(name, include_private = false)
      @attributes.key?(name.to_s) || super
    end

    # Members the SDK does not know yet are readable as methods too.
    def method_missing(name, *args)
      key = name.to_s
      return read(key) if args.empty? && @attributes.key?(key)

      super
    end

    private

    def read(key)
      return @cache[key] if @cache.key?(key)

      spec = self.class.properties[key]
      @cache[key] = Types.convert(@attributes[key], spec ? spec[:type] : :any)
    end
  end

  # A oneOf of models told apart by a discriminator member (`Event` by `type`, `Me` by `kind`).
  class Union
    attr_reader :name, :discriminator, :mapping

    def initialize(name, discriminator, mapping)
      @name = name
      @discriminator = discriminator
      @mapping = mapping.freeze
      freeze
    end

    # The model of the value's variant; an unknown variant (newer than this SDK) is a plain Model.
    def build(value)
      return value unless value.is_a?(Hash)

      variant = mapping[(value[discriminator] || value[discriminator.to_sym]).to_s]
      variant ? Types.model(variant).new(value) : Model.new(value)
    end

    # The model classes of the variants.
    def variants
      mapping.values.map { |variant| Types.model(variant) }
    end

    def inspect
      "#<MessagingPlatform::Union #{name} by #{discriminator}>"
    end
  end

  # Turning parsed JSON into models by the generated type descriptions.
  module Types
    PRIMITIVES = %i[string integer number boolean hash any].freeze

    module_function

    def convert(value, type)
      return value if value.nil?

      case type
      when Symbol then value
      when String then model(type).build(value)
      when Array then value.is_a?(Array) ? value.map { |item| convert(item, type.first) } : value
      when Hash then Union.new("(inline)", type[:discriminator], type[:mapping]).build(value)
      when Union then type.build(value)
      else raise ArgumentError, "unknown type description #{type.inspect}"
      end
    end

    # A generated model (or union) by its name in Models, e.g. "Conversation" or "Conversation::Handoff".
    def model(name)
      Models.const_get(name, false)
    end
  end
end
