import FoundationEssentials

/// One part of a stable partition of a batch's inputs (`--shard I/N`), so a CI matrix of
/// N jobs covers every input exactly once.
///
/// An input belongs to shard `1 + h mod N`, where `h` is the first 8 bytes of the SHA-256
/// of its output stem: its relative path without the extension (`trip/a.jpg` -> `trip/a`).
/// The stem and not the whole path, so that inputs that compete for one output (`a.jpg`,
/// `a.png`) always share a shard and get the same names as in an unsharded run. The hash
/// depends on nothing else, so a file lands in the same shard whatever the input order,
/// the machine or the other files.
public struct Shard: Sendable, Equatable, CustomStringConvertible {
    /// 1-based.
    public let index: Int
    public let count: Int

    public init?(index: Int, count: Int) {
        guard count >= 1, (1...count).contains(index) else { return nil }
        self.index = index
        self.count = count
    }

    /// Parses `I/N`.
    public init?(_ text: String) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]) else { return nil }
        self.init(index: index, count: count)
    }

    public var description: String { "\(index)/\(count)" }

    /// Whether the input found at `relativePath` (relative to its folder, or as listed)
    /// belongs to this shard.
    public func contains(relativePath: String) -> Bool {
        Shard.number(of: relativePath, count: count) == index
    }

    /// The shard (1-based, out of `count`) of the input at `relativePath`.
    static func number(of relativePath: String, count: Int) -> Int {
        let stem = OutputNaming.removingExtension(OutputNaming.contained(relativePath))
        let digest = UInt64(ContentHash(of: Data(stem.utf8)).hex.prefix(16), radix: 16) ?? 0
        return 1 + Int(digest % UInt64(count))
    }
}
