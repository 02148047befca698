import CImageCodecs
import FoundationEssentials

/// The on-disk form of a cache entry, checksummed so a torn or corrupt file is a miss:
///
///     <kind: 6 bytes> <metadata length: 8 bytes, big-endian> <metadata JSON> <payload>
///
/// Three kinds: a result ("STKC2\n": its fields, then the sticker's PNG), the files a
/// rendition made from one ("STKR1\n": their sizes, then the files end to end), and its
/// full-frame mask ("STKM1\n": nothing, then the mask's PNG). The
/// metadata JSON also holds the CRC-32 of the payload (the entry is found by its key, so
/// the check only has to catch damage; CRC-32 runs at memory speed where SHA-256 took a
/// fifth of a warm rerun's CPU time).
enum DiskCacheEntry {
    private static let resultKind = Data("STKC2\n".utf8)
    private static let renditionKind = Data("STKR1\n".utf8)
    private static let maskKind = Data("STKM1\n".utf8)

    /// The metadata and the payload's checksum, under the keys result entries were first
    /// written with.
    private struct Envelope<Metadata: Codable>: Codable {
        var metadata: Metadata
        var payloadCRC32: UInt32

        enum CodingKeys: String, CodingKey {
            case metadata = "result"
            case payloadCRC32 = "pngCRC32"
        }
    }

    /// What a rendition entry says of its files: the sticker's pixel size and each file's
    /// length (the sticker's, then the card's when made).
    private struct RenditionMetadata: Codable {
        var width: Int
        var height: Int
        var sticker: Int
        var card: Int?
    }

    /// A mask entry's metadata: none beyond the checksum.
    private struct MaskMetadata: Codable {}

    static func encode(_ result: CachedResult) throws -> Data {
        try encode(resultKind, metadata: result, payload: result.png)
    }

    /// The entry's result, or nil when the bytes are not a complete, intact result entry.
    static func decode(_ data: Data) -> CachedResult? {
        guard let (metadata, png) = decode(resultKind, CachedResult.self, from: data) else { return nil }
        var result = metadata
        result.png = png
        return result
    }

    static func encode(_ files: StickerRendition.Files) throws -> Data {
        let metadata = RenditionMetadata(width: files.width, height: files.height, sticker: files.sticker.count,
                                         card: files.card?.count)
        return try encode(renditionKind, metadata: metadata, payload: files.sticker + (files.card ?? Data()))
    }

    /// The entry's files, or nil when the bytes are not a complete, intact rendition entry.
    static func decodeFiles(_ data: Data) -> StickerRendition.Files? {
        guard let (metadata, payload) = decode(renditionKind, RenditionMetadata.self, from: data) else { return nil }
        let card = metadata.card ?? 0
        guard (0...payload.count).contains(metadata.sticker), card == payload.count - metadata.sticker else { return nil }
        // Slices: they share the bytes read.
        let stickerEnd = payload.startIndex + metadata.sticker
        return StickerRendition.Files(sticker: payload[..<stickerEnd], width: metadata.width, height: metadata.height,
                                      card: metadata.card.map { _ in payload[stickerEnd...] })
    }

    static func encode(mask: Data) throws -> Data {
        try encode(maskKind, metadata: MaskMetadata(), payload: mask)
    }

    /// The entry's mask PNG, or nil when the bytes are not a complete, intact mask entry.
    static func decodeMask(_ data: Data) -> Data? {
        decode(maskKind, MaskMetadata.self, from: data)?.payload
    }

    private static func encode(_ kind: Data, metadata: some Codable, payload: Data) throws -> Data {
        let json = try JSONEncoder().encode(Envelope(metadata: metadata, payloadCRC32: crc32(payload)))
        var data = kind
        var length = UInt64(json.count).bigEndian
        withUnsafeBytes(of: &length) { data.append(contentsOf: $0) }
        data.append(json)
        data.append(payload)
        return data
    }

    private static func decode<Metadata: Codable>(_ kind: Data, _ type: Metadata.Type,
                                                  from data: Data) -> (Metadata, payload: Data)? {
        let header = kind.count + 8
        guard data.count > header, data.prefix(kind.count) == kind else { return nil }
        let length = data.dropFirst(kind.count).prefix(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        guard length <= UInt64(data.count - header) else { return nil }
        let jsonEnd = data.startIndex + header + Int(length)
        guard let envelope = try? JSONDecoder().decode(Envelope<Metadata>.self,
                                                       from: data[(data.startIndex + header)..<jsonEnd]) else { return nil }
        // A slice: it shares the bytes read rather than copying a megabyte per warm hit.
        let payload = data[jsonEnd...]
        guard crc32(payload) == envelope.payloadCRC32 else { return nil }
        return (envelope.metadata, payload)
    }

    private static func crc32(_ data: Data) -> UInt32 {
        data.withUnsafeBytes { cic_crc32($0.bindMemory(to: UInt8.self).baseAddress, $0.count) }
    }
}
