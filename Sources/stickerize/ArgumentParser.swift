/// Parses the command line against a table of options (`OptionSpec.all`).
///
/// Accepts `--name value`, `--name=value`, `-n value`, `-nvalue` (for options that take a
/// value), `-` as an input (the path list on stdin) and `--` to end options.
enum ArgumentParser {
    static func parse(_ arguments: [String]) throws(UsageError) -> CommandLineOptions {
        var options = CommandLineOptions()
        var index = 0
        var onlyInputs = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if onlyInputs || argument == "-" || !argument.hasPrefix("-") {
                options.inputs.append(argument)
                continue
            }
            if argument == "--" {
                onlyInputs = true
                continue
            }
            let (spec, inlineValue) = try lookUp(argument)
            guard let apply = spec.applyValue else {
                if inlineValue != nil { throw UsageError("option '\(spec.displayName)' takes no value") }
                spec.applyFlag?(&options)
                continue
            }
            let value: String
            if let inlineValue {
                value = inlineValue
            } else if index < arguments.count {
                value = arguments[index]
                index += 1
            } else {
                throw UsageError("option '\(spec.displayName)' needs a value (\(spec.valueName))")
            }
            try apply(&options, value)
        }
        if !options.showsHelp && !options.showsVersion {
            try validate(options)
        }
        return options
    }

    /// The spec for `--name[=value]` or `-x[value]`, and the value written inside it.
    private static func lookUp(_ argument: String) throws(UsageError) -> (OptionSpec, String?) {
        if argument.hasPrefix("--") {
            let body = argument.dropFirst(2)
            let name = String(body.prefix { $0 != "=" })
            let value = body.contains("=") ? String(body.drop { $0 != "=" }.dropFirst()) : nil
            guard let spec = OptionSpec.all.first(where: { $0.long == name }) else {
                throw UsageError("unknown option '--\(name)'")
            }
            return (spec, value)
        }
        let letter = argument.dropFirst().first!
        guard let spec = OptionSpec.all.first(where: { $0.short == letter }) else {
            throw UsageError("unknown option '-\(letter)'")
        }
        let rest = String(argument.dropFirst(2))
        if rest.isEmpty { return (spec, nil) }
        guard spec.applyValue != nil else { throw UsageError("unknown option '\(argument)'") }
        return (spec, rest)
    }

    private static func validate(_ options: CommandLineOptions) throws(UsageError) {
        if options.inputs.isEmpty {
            throw UsageError("no inputs: give image files, folders, or '-' to read paths from standard input")
        }
        if options.inputs.count(where: { $0 == "-" }) > 1 {
            throw UsageError("'-' (read paths from standard input) can be given only once")
        }
        if options.nulSeparated && !options.inputs.contains("-") {
            throw UsageError("'--null' applies to the path list read with '-'")
        }
        if options.prunes && options.shard != nil {
            throw UsageError("--prune cannot be used with --shard: a shard writes only part of the outputs")
        }
        if options.prunes && options.listsOnly {
            throw UsageError("--prune removes files and --list writes nothing: give one of them")
        }
        if let format = options.format, let preset = options.preset {
            throw UsageError("--format \(format) cannot be used with --preset \(preset), which sets its own format")
        }
        if let margin = options.margin, !options.cropsToSubject {
            throw UsageError("--margin \(margin) has no effect with --no-crop, which keeps the whole photo")
        }
        let margin = options.processingOptions.sticker.margin
        if let size = options.maxSize, options.cropsToSubject, size <= 2 * margin {
            throw UsageError("--max-size \(size) leaves no room inside a --margin of \(margin)")
        }
    }
}
