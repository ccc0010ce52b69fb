# frozen_string_literal: true

module MessagingPlatform
  # What the generator scripts share: the command line (`--check`, `--openapi PATH`) and how a generated
  # file that drifted from openapi.json is described. A generator class has DEFAULT_OPENAPI, OUTPUT,
  # `new(openapi_path)`, `write` and `difference`.
  module GeneratorCommand
    SDK_ROOT = File.expand_path("..", __dir__)

    module_function

    # Runs the generator as its script's command line: regenerate, or with --check exit 1 naming the drift.
    def run(generator_class, argv, script:)
      options = parse(argv, generator_class::DEFAULT_OPENAPI, script)
      output = generator_class::OUTPUT.delete_prefix("#{SDK_ROOT}/")
      generator = generator_class.new(options[:openapi])
      if options[:check]
        difference = generator.difference
        if difference
          warn "#{output} is out of date with openapi.json (#{difference}).\nRun `ruby #{script}` in sdks/ruby."
          exit 1
        end
        puts "#{output} matches #{options[:openapi]}"
      else
        generator.write
        puts "wrote #{output}"
      end
    end

    def parse(argv, default_openapi, script)
      args = argv.dup
      check = !args.delete("--check").nil?
      openapi = default_openapi
      if (index = args.index("--openapi"))
        openapi = args.fetch(index + 1) { abort "--openapi needs a path" }
        args.slice!(index, 2)
      end
      abort "usage: ruby #{script} [--check] [--openapi PATH]" unless args.empty?
      { check: check, openapi: openapi }
    end

    # Where `current` first differs from `wanted`, by line.
    def first_difference(current, wanted)
      current_lines = current.lines
      wanted_lines = wanted.lines
      index = wanted_lines.each_index.find { |i| current_lines[i] != wanted_lines[i] } || wanted_lines.size
      "first difference at line #{index + 1}: expected #{wanted_lines[index].to_s.strip.inspect}, " \
        "found #{current_lines[index].to_s.strip.inspect}"
    end
  end
end
