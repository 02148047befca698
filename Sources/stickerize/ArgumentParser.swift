import FoundationEssentials
import StickerKit

/// Parses the command line against a table of options (`OptionSpec.all`).
///
/// Accepts `--name value`, `--name=value`, `-n value`, `-nvalue` (for options that take a
/// value), short options bundled as getopt allows (`-qj2` is `-q -j 2`), `-` as an input
/// (the path list on stdin) and `--` to end options.
enum ArgumentParser {
    static func parse(_ arguments: [String]) throws(UsageError) -> CommandLineOptions {
        var options = CommandLineOptions()
        var rest = arguments[...]
        var onlyInputs = false
        /// The option's value: written inside its argument, else the next argument.
        func value(of spec: OptionSpec, inline: String?) throws(UsageError) -> String {
            if let inline { return inline }
            guard let next = rest.popFirst() else {
                throw UsageError("option '\(spec.displayName)' needs a value (\(spec.valueName))")
            }
            return next
        }
        while let argument = rest.popFirst() {
            if onlyInputs || argument == "-" || !argument.hasPrefix("-") {
                options.inputs.append(argument)
            } else if argument == "--" {
                onlyInputs = true
            } else if argument.hasPrefix("--") {
                let body = argument.dropFirst(2)
                let name = String(body.prefix { $0 != "=" })
                let inline = body.contains("=") ? String(body.drop { $0 != "=" }.dropFirst()) : nil
                guard let spec = OptionSpec.all.first(where: { $0.long == name }) else {
                    throw UsageError("unknown option '--\(name)'")
                }
                if let apply = spec.applyValue {
                    try apply(&options, try value(of: spec, inline: inline))
                } else if inline != nil {
                    throw UsageError("option '\(spec.displayName)' takes no value")
                } else {
                    spec.applyFlag?(&options)
                }
            } else {
                // Flags apply one by one; the first option that takes a value takes the
                // rest of the argument, or the next argument.
                var letters = argument.dropFirst()
                while let letter = letters.popFirst() {
                    guard let spec = OptionSpec.all.first(where: { $0.short == letter }) else {
                        throw UsageError("unknown option '-\(letter)'" + (argument.count > 2 ? " in '\(argument)'" : ""))
                    }
                    guard let apply = spec.applyValue else {
                        spec.applyFlag?(&options)
                        continue
                    }
                    try apply(&options, try value(of: spec, inline: letters.isEmpty ? nil : String(letters)))
                    break
                }
            }
        }
        if !options.showsHelp && !options.showsVersion {
            try validate(options)
        }
        return options
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
        let outputFolders = [("--out", options.outputDirectory)] + (options.maskDirectory.map { [("--mask", $0)] } ?? [])
        for input in options.inputs where input != "-" {
            if let (option, folder) = outputFolders.first(where: { sameFolder(input, $0.1) }) {
                throw UsageError("input \(input) is the \(option) folder \(folder), where outputs would replace the photos; "
                                 + "give \(option) a folder of its own")
            }
        }
        if let masks = options.maskDirectory, sameFolder(masks, options.outputDirectory) {
            throw UsageError("--mask \(masks) is the --out folder, where each mask would replace the sticker of its name; "
                             + "give the masks a folder of their own")
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

    /// Whether two folder names are one folder: the same path once made absolute and
    /// standardized (as the walk compares the folders it leaves out), or, when both exist,
    /// the same place once links are resolved.
    private static func sameFolder(_ a: String, _ b: String) -> Bool {
        let standardized = [a, b].map { URL(fileURLWithPath: $0).standardizedFileURL.path }
        if standardized[0] == standardized[1] { return true }
        return RawPath(a).resolved.map { $0 == RawPath(b).resolved } ?? false
    }
}
