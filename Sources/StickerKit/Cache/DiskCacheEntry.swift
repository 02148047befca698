import Foundation

/// The on-disk form of a cache entry, checksummed so a torn or corrupt file is a miss:
///
///     "STKC1\n" <metadata length: 8 bytes, big-endian> <metadata JSON> <PNG bytes>
///
/// The metadata JSON holds the result's fields plus the SHA-256 of the PNG bytes.
enum DiskCacheEntry {
    private static let magic = Data("STKC1\n".utf8)

    private struct Metadata: Codable {
        var result: CachedResult
        var pngSHA256: String
    }

    static func encode(_ result: CachedResult) throws -> Data {
        let metadata = try JSONEncoder().encode(Metadata(result: result, pngSHA256: ContentHash(of: result.png).hex))
        var data = magic
        var length = UInt64(metadata.count).bigEndian
        withUnsafeBytes(of: &length) { data.append(contentsOf: $0) }
        data.append(metadata)
        data.append(result.png)
        return data
    }

    /// The entry's result, or nil when the bytes are not a complete, intact entry.
    static func decode(_ data: Data) -> CachedResult? {
        let header = magic.count + 8
        guard data.count > header, data.prefix(magic.count) == magic else { return nil }
        let length = data.dropFirst(magic.count).prefix(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        guard length <= UInt64(data.count - header) else { return nil }
        let metadataEnd = data.startIndex + header + Int(length)
        let metadataBytes = data[(data.startIndex + header)..<metadataEnd]
        guard let metadata = try? JSONDecoder().decode(Metadata.self, from: metadataBytes) else { return nil }
        let png = Data(data[metadataEnd...])
        guard ContentHash(of: png).hex == metadata.pngSHA256 else { return nil }
        var result = metadata.result
        result.png = png
        return result
    }
}
