import StickerKit

/// One command-line option: its names, its help line and what it does to the options.
///
///     OptionSpec(short: "j", long: "jobs", valueName: "N", help: "...", applyValue: ...)
struct OptionSpec: Sendable {
    var short: Character?
    var long: String
    /// The value's placeholder in help (`N`, `DIR`); empty for a flag.
    var valueName = ""
    var help: String
    var applyFlag: (@Sendable (inout CommandLineOptions) -> Void)?
    var applyValue: (@Sendable (inout CommandLineOptions, String) throws(UsageError) -> Void)?

    var displayName: String { "--" + long }

    /// Every option, in the order help lists them.
    static let all: [OptionSpec] = [
        OptionSpec(short: "o", long: "out", valueName: "DIR", help: "write stickers and manifest.json here (default: ./stickers)",
                   applyValue: { options, value throws(UsageError) in
                       options.outputDirectory = try path(value, for: "--out", naming: "folder")
                   }),
        OptionSpec(long: "mask", valueName: "DIR", help: "also write each sticker's full-frame alpha mask (grey PNG) here",
                   applyValue: { options, value throws(UsageError) in
                       options.maskDirectory = try path(value, for: "--mask", naming: "folder")
                   }),
        OptionSpec(short: "0", long: "null", help: "the path list read with '-' is NUL-separated (find -print0)",
                   applyFlag: { $0.nulSeparated = true }),
        OptionSpec(short: "j", long: "jobs", valueName: "N", help: "process N photos at once (default: the CPUs this process may use, here \(AvailableProcessors.count))",
                   applyValue: { options, value throws(UsageError) in
                       options.jobs = try integer(value, for: "--jobs", in: 1...1024)
                   }),
        OptionSpec(long: "max-size", valueName: "N|original",
                   help: "longest side of a sticker in pixels, or 'original' (default: 1024)",
                   applyValue: { options, value throws(UsageError) in
                       options.maxSize = value == "original" ? nil : try integer(value, for: "--max-size", in: 16...65535)
                   }),
        OptionSpec(long: "margin", valueName: "N", help: "transparent margin around the subject in pixels (default: 8)",
                   applyValue: { options, value throws(UsageError) in
                       options.margin = try integer(value, for: "--margin", in: 0...1000)
                   }),
        OptionSpec(long: "no-crop", help: "keep the whole photo, background transparent, instead of cropping to the subject",
                   applyFlag: { $0.cropsToSubject = false }),
        OptionSpec(long: "colors", valueName: "N", help: "palette size (default: 5)",
                   applyValue: { options, value throws(UsageError) in
                       options.colors = try integer(value, for: "--colors", in: 1...32)
                   }),
        OptionSpec(long: "max-pixels", valueName: "N",
                   help: "refuse images with more pixels than this, before decoding (default: 100000000)",
                   applyValue: { options, value throws(UsageError) in
                       options.maxPixels = try integer(value, for: "--max-pixels", in: 1...Int(Int32.max))
                   }),
        OptionSpec(long: "cache", valueName: "DIR", help: "cache folder (default: $XDG_CACHE_HOME/stickerize or ~/.cache/stickerize)",
                   applyValue: { options, value throws(UsageError) in
                       options.cacheDirectory = try path(value, for: "--cache", naming: "folder")
                   }),
        OptionSpec(long: "cache-limit", valueName: "SIZE",
                   help: "cache size limit, like 500M, 1.5G or 20G; 0: none (default: 5G)",
                   applyValue: { options, value throws(UsageError) in
                       options.cacheLimit = try size(value, for: "--cache-limit")
                   }),
        OptionSpec(long: "no-cache", help: "neither read nor write the disk cache", applyFlag: { $0.usesCache = false }),
        OptionSpec(long: "format", valueName: "FORMAT", help: "sticker files as png, webp (lossless) or webp:Q (lossy, quality Q) (default: png)",
                   applyValue: { options, value throws(UsageError) in
                       guard let format = StickerFileFormat(value) else {
                           throw UsageError("--format is one of \(StickerFileFormat.names), not '\(value)'")
                       }
                       options.format = format
                   }),
        OptionSpec(long: "preset", valueName: "NAME",
                   help: "fit a platform: telegram, whatsapp (WebP), signal, imessage[:300|408|618], discord",
                   applyValue: { options, value throws(UsageError) in
                       guard let preset = StickerPreset(value) else {
                           throw UsageError("--preset is one of \(StickerPreset.names), not '\(value)'")
                       }
                       options.preset = preset
                   }),
        OptionSpec(long: "outline", valueName: "N", help: "a die-cut outline N pixels wide around the sticker",
                   applyValue: { options, value throws(UsageError) in
                       options.style.outline = try integer(value, for: "--outline", in: 0...200)
                   }),
        OptionSpec(long: "outline-color", valueName: "COLOR", help: "outline colour, #rrggbb, white or black (default: white)",
                   applyValue: { options, value throws(UsageError) in
                       options.style.outlineColor = try color(value, for: "--outline-color")
                   }),
        OptionSpec(long: "shadow", help: "a soft drop shadow under the sticker", applyFlag: { $0.style.shadow = true }),
        OptionSpec(long: "card", help: "also write NAME.card.png: the sticker on its palette gradient",
                   applyFlag: { $0.writesCard = true }),
        OptionSpec(long: "preview", valueName: "FILE", help: "also write an HTML page showing every input, sticker, card and failure",
                   applyValue: { options, value throws(UsageError) in
                       options.previewFile = try path(value, for: "--preview", naming: "file")
                   }),
        OptionSpec(long: "shard", valueName: "I/N", help: "process only shard I of N (a stable split by path, for CI matrices)",
                   applyValue: { options, value throws(UsageError) in
                       guard let shard = Shard(value) else {
                           throw UsageError("--shard takes I/N with 1 <= I <= N (like 2/4), not '\(value)'")
                       }
                       options.shard = shard
                   }),
        OptionSpec(long: "prune", help: "after the run, remove what an earlier run wrote to --out that this one did not",
                   applyFlag: { $0.prunes = true }),
        OptionSpec(long: "list", help: "dry run: print what would be processed and which are cache hits, write nothing",
                   applyFlag: { $0.listsOnly = true }),
        OptionSpec(long: "json", help: "print one JSON object per finished input on standard output",
                   applyFlag: { $0.json = true }),
        OptionSpec(short: "q", long: "quiet", help: "print only errors", applyFlag: { $0.quiet = true }),
        OptionSpec(long: "version", help: "print the version and exit", applyFlag: { $0.showsVersion = true }),
        OptionSpec(short: "h", long: "help", help: "print this help and exit", applyFlag: { $0.showsHelp = true }),
    ]

    /// A folder or file name to write in: not empty, and not `-`, which reads as standard
    /// output but would name a folder or file called "-" (`./-` still names one).
    private static func path(_ text: String, for name: String, naming kind: String) throws(UsageError) -> String {
        guard !text.isEmpty else { throw UsageError("\(name) needs a \(kind) name") }
        guard text != "-" else {
            throw UsageError("\(name) takes a \(kind), not '-' (standard output); for a \(kind) named '-', write ./-")
        }
        return text
    }

    /// `#rrggbb`, `rrggbb`, `white` or `black`.
    private static func color(_ text: String, for name: String) throws(UsageError) -> [UInt8] {
        switch text.lowercased() {
        case "white": return [255, 255, 255]
        case "black": return [0, 0, 0]
        default:
            let hex = text.hasPrefix("#") ? String(text.dropFirst()) : text
            guard hex.count == 6, let value = UInt32(hex, radix: 16) else {
                throw UsageError("\(name) takes #rrggbb, white or black, not '\(text)'")
            }
            return [UInt8(value >> 16), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
        }
    }

    /// A byte count: a whole number of bytes, or a number (with a fraction if need be) and
    /// a binary unit, K, M, G or T in either case, alone or as KB or KiB: `4096`, `500M`,
    /// `1.5G`, `20GiB`, `750mb`.
    private static func size(_ text: String, for name: String) throws(UsageError) -> Int64 {
        let failure = UsageError("\(name) takes a size like 500M, 1.5G or 20GiB (0: no limit), not '\(text)'")
        let units: [Character: Int64] = ["K": 1 << 10, "k": 1 << 10, "M": 1 << 20, "m": 1 << 20,
                                         "G": 1 << 30, "g": 1 << 30, "T": 1 << 40, "t": 1 << 40]
        var number = Substring(text)
        let endsInB = number.last == "B" || number.last == "b"
        if endsInB { number = number.dropLast() }
        let endsInIB = endsInB && (number.last == "i" || number.last == "I")
        if endsInIB { number = number.dropLast() }
        let unit = number.last.flatMap { units[$0] }
        if unit != nil { number = number.dropLast() }
        let parts = number.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        let isDigits = { (part: Substring) in !part.isEmpty && part.allSatisfy { $0.isASCII && $0.isNumber } }
        // "iB" needs a unit; a fraction needs one too (no fraction of a byte).
        guard !(endsInIB && unit == nil), let whole = parts.first, isDigits(whole) else { throw failure }
        guard parts.count == 2 else {
            guard let count = Int64(whole), count <= Int64.max / (unit ?? 1) else { throw failure }
            return count * (unit ?? 1)
        }
        guard let unit, isDigits(parts[1]), let value = Double(number) else { throw failure }
        // Up, so that a size over zero never becomes 0, which means no limit.
        let bytes = (value * Double(unit)).rounded(.up)
        guard bytes < 0x1p63 else { throw failure }
        return Int64(bytes)
    }

    private static func integer(_ text: String, for name: String, in range: ClosedRange<Int>) throws(UsageError) -> Int {
        guard let value = Int(text) else { throw UsageError("\(name) takes a whole number, not '\(text)'") }
        guard range.contains(value) else {
            throw UsageError("\(name) must be between \(range.lowerBound) and \(range.upperBound), not \(value)")
        }
        return value
    }
}
