/// The `--help` text, built from the option table so the two never disagree.
enum HelpText {
    static let version = "stickerize 0.1.0"

    static var text: String {
        var lines = [
            "usage: stickerize [options] PATH...",
            "",
            "Lifts the main subject out of each photo into a transparent PNG sticker, cropped to",
            "the subject, and extracts its dominant colours. PATH is an image file, a folder",
            "(walked recursively for PNG, JPEG, WebP, TIFF, GIF, JPEG XL, HEIC and AVIF files), or",
            "'-' to read paths from standard input.",
            "",
            "options:",
        ]
        for spec in OptionSpec.all {
            var names = spec.short.map { "-\($0), " } ?? "    "
            names += "--" + spec.long
            if !spec.valueName.isEmpty { names += " " + spec.valueName }
            let padded = names.count < 28 ? names + String(repeating: " ", count: 28 - names.count) : names + "  "
            lines.append("  " + padded + spec.help)
        }
        lines += [
            "",
            "exit codes: 0 all succeeded, 1 some inputs failed, 2 usage error, 130 interrupted",
        ]
        return lines.joined(separator: "\n") + "\n"
    }
}
