import FoundationEssentials

/// The cache's record of which content hash an unchanged input file has, so a rerun over
/// files that were not touched since finds its results without reading or hashing them.
///
/// One small file per file identity (`InputIdentity`) under `inputs/` in the cache folder,
/// named by the SHA-256 of the identity's key:
///
///     "STKI1\n" <identity key> "\n" <content hash, 64 hex> "\n" <SHA-256 of the two lines, 64 hex>
///
/// A torn, corrupt or misplaced entry fails its checks and is a miss. Only settled files
/// are recorded, so a later change always shows in the identity.
enum InputHashIndex {
    private static let magic = "STKI1\n"

    static func entryURL(_ identity: InputIdentity, in directory: URL) -> URL {
        let name = ContentHash(of: Data(identity.key.utf8)).hex
        return directory.appendingPathComponent("inputs").appendingPathComponent(String(name.prefix(2)))
            .appendingPathComponent(name)
    }

    /// The recorded content hash of the file with this identity, if there is an intact
    /// entry (which is then marked used, `CacheEviction.markUsed`).
    static func hash(for identity: InputIdentity, in directory: URL) -> ContentHash? {
        let path = entryURL(identity, in: directory).path
        guard let data = try? InputFile.read(path), let (key, hash) = decode(data), key == identity.key else { return nil }
        CacheEviction.markUsed(path)
        return hash
    }

    /// Records `hash` for a settled file; throws only what writing the entry met.
    static func record(_ hash: ContentHash, for identity: InputIdentity, in directory: URL) throws(FileWriteError) {
        let url = entryURL(identity, in: directory)
        try ContainedFolder.createParents(of: url, under: directory)
        try AtomicFile.write(Data((magic + lines(identity.key, hash) + checksum(identity.key, hash)).utf8), to: url)
    }

    /// An entry's identity key and content hash, or nil when it is not intact.
    static func decode(_ data: Data) -> (key: String, hash: ContentHash)? {
        guard let text = String(data: data, encoding: .utf8), text.hasPrefix(magic) else { return nil }
        let fields = text.dropFirst(magic.count).split(separator: "\n", omittingEmptySubsequences: false)
        guard fields.count == 3, let hash = ContentHash(hex: String(fields[1])) else { return nil }
        let key = String(fields[0])
        return String(fields[2]) == checksum(key, hash) ? (key, hash) : nil
    }

    private static func lines(_ key: String, _ hash: ContentHash) -> String { "\(key)\n\(hash.hex)\n" }

    private static func checksum(_ key: String, _ hash: ContentHash) -> String {
        ContentHash(of: Data(lines(key, hash).utf8)).hex
    }
}
