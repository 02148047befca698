import FoundationEssentials

/// `manifest.json` in the output folder: the options of the run and one item per input,
/// sorted by source path (written by `ManifestWriter`; read back with `JSONDecoder`).
public struct Manifest: Sendable, Codable {
    public static let fileName = "manifest.json"
    public static let currentVersion = 1

    public var version: Int
    public var options: ProcessingOptions
    public var items: [ManifestItem]

    public init(options: ProcessingOptions, items: [ManifestItem]) {
        version = Manifest.currentVersion
        self.options = options
        self.items = items.sorted { ($0.source, $0.index) < ($1.source, $1.index) }
    }

    /// The encoder for manifests and `--json` lines: sorted keys, unescaped slashes.
    public static func encoder(pretty: Bool) -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = pretty ? [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            : [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }
}
