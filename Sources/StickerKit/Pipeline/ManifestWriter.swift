import Foundation

/// Builds `manifest.json` for a batch of any size in bounded memory: each finished item
/// is appended as a JSON line to a temporary file in the output folder, only its sort key
/// and byte range stay in memory, and `finish` streams the items back in source order
/// into a temporary manifest that is then renamed over `manifest.json`.
public final class ManifestWriter {
    private struct Entry {
        var source: String
        var index: Int
        var offset: UInt64
        var length: Int
    }

    private let folder: URL
    private let options: ProcessingOptions
    private let spoolURL: URL
    private let spool: FileHandle
    private var entries: [Entry] = []
    private var offset: UInt64 = 0
    private let encoder = Manifest.encoder(pretty: false)

    public init(folder: URL, options: ProcessingOptions) throws {
        self.folder = folder
        self.options = options
        spoolURL = folder.appendingPathComponent(AtomicFile.temporaryPrefix + "\(getpid())-manifest-items")
        guard FileManager.default.createFile(atPath: spoolURL.path, contents: nil) else {
            throw FileWriteError.cannotWrite(path: spoolURL.path, reason: "cannot create a temporary file")
        }
        spool = try FileHandle(forUpdating: spoolURL)
    }

    deinit {
        try? spool.close()
        unlink(spoolURL.path)
    }

    public func add(_ item: ManifestItem) throws {
        let line = try encoder.encode(item)
        try spool.write(contentsOf: line)
        entries.append(Entry(source: item.source, index: item.index, offset: offset, length: line.count))
        offset += UInt64(line.count)
    }

    /// Writes `manifest.json`: `{"version", "options", "items"}`, items sorted by source.
    public func finish() throws {
        entries.sort { ($0.source, $0.index) < ($1.source, $1.index) }
        let header = try Manifest.encoder(pretty: false).encode(Manifest(options: options, items: []))
        // `{"items":[],"options":...}` with the items spliced in, one per line.
        let text = String(decoding: header, as: UTF8.self)
        guard let marker = text.range(of: "\"items\":[]") else { throw CocoaError(.coderInvalidValue) }
        try AtomicFile.write(to: folder.appendingPathComponent(Manifest.fileName)) { output in
            try output.write(contentsOf: Data(text[..<marker.lowerBound].utf8) + Data("\"items\":[\n".utf8))
            for (position, entry) in entries.enumerated() {
                try spool.seek(toOffset: entry.offset)
                guard let line = try spool.read(upToCount: entry.length) else { throw CocoaError(.fileReadCorruptFile) }
                try output.write(contentsOf: line + Data((position + 1 < entries.count ? ",\n" : "\n").utf8))
            }
            try output.write(contentsOf: Data(("]" + text[marker.upperBound...]).utf8) + Data("\n".utf8))
        }
    }
}
