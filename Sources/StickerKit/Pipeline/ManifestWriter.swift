import FoundationEssentials
import Glibc

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
    /// The spool's file descriptor, open for reading and writing.
    private let spool: Int32
    private var entries: [Entry] = []
    private var offset: UInt64 = 0
    private let encoder = Manifest.encoder(pretty: false)

    public init(folder: URL, options: ProcessingOptions) throws {
        self.folder = folder
        self.options = options
        spoolURL = folder.appendingPathComponent(AtomicFile.temporaryPrefix + "\(getpid())-manifest-items")
        spool = open(spoolURL.path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard spool >= 0 else { throw FileWriteError.cannotWrite(path: spoolURL.path, reason: String(cString: strerror(errno))) }
    }

    deinit {
        close(spool)
        unlink(spoolURL.path)
    }

    /// Spools `item` as the manifest keeps it (`ManifestItem.recorded`).
    public func add(_ item: ManifestItem) throws {
        let line = try encoder.encode(item.recorded)
        let error = DescriptorWriter.writeAll(line, to: spool)
        guard error == 0 else { throw FileWriteError.cannotWrite(path: spoolURL.path, reason: String(cString: strerror(error))) }
        entries.append(Entry(source: item.source, index: item.index, offset: offset, length: line.count))
        offset += UInt64(line.count)
    }

    /// Writes `manifest.json`: `{"version", "options", "items"}`, items sorted by source;
    /// one that already holds the same bytes is left untouched.
    public func finish() throws {
        entries.sort { ($0.source, $0.index) < ($1.source, $1.index) }
        let header = try Manifest.encoder(pretty: false).encode(Manifest(options: options, items: []))
        // `{"items":[],"options":...}` with the items spliced in, one per line.
        let text = String(decoding: header, as: UTF8.self)
        let manifestURL = folder.appendingPathComponent(Manifest.fileName)
        guard let marker = text.firstRange(of: "\"items\":[]") else {
            throw FileWriteError.cannotWrite(path: manifestURL.path, reason: "its header has no list of items")
        }
        try AtomicFile.write(to: manifestURL, keepingIdentical: true) { output throws(FileWriteError) in
            try output.write(Data(text[..<marker.lowerBound].utf8) + Data("\"items\":[\n".utf8))
            for (position, entry) in entries.enumerated() {
                try output.write(try spooled(entry) + Data((position + 1 < entries.count ? ",\n" : "\n").utf8))
            }
            try output.write(Data(("]" + text[marker.upperBound...]).utf8) + Data("\n".utf8))
        }
    }

    /// The line `entry` points at in the spool.
    private func spooled(_ entry: Entry) throws(FileWriteError) -> Data {
        var line = Data(count: entry.length)
        let error = line.withUnsafeMutableBytes { DescriptorReader.read(spool, into: $0, at: off_t(entry.offset)) }
        if error != 0 { throw .cannotWrite(path: spoolURL.path, reason: "reading it back: " + String(cString: strerror(error))) }
        return line
    }
}
