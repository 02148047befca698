import FoundationEssentials
import Glibc

/// The inputs of a batch as an `AsyncSequence` of jobs, produced lazily: folders are
/// walked as the pipeline asks for more, and a path list streams as it is read. A file
/// is taken once, at its first appearance, however often the inputs name or reach it
/// (`photos photos/2024`, or `a.jpg ./a.jpg`): another would only be a copy of its sticker.
///
///     let inputs = BatchInputs([.path("photos"), .pathList(PathListReader.paths(...))],
///                              excluding: "stickers")
public struct BatchInputs: AsyncSequence, Sendable {
    public typealias Element = BatchJob

    /// One command-line input.
    public enum Source: Sendable {
        /// A file (processed whatever its name) or a folder (walked for images).
        case path(String)
        /// Paths read from a stream; each may be a file or a folder.
        case pathList(PathList)
    }

    private let sources: [Source]
    private let excluded: [String]
    private let shard: Shard?
    private let rendition: StickerRendition

    /// `excluding` are folders never walked into (the output folders); with a `shard`,
    /// only the inputs of that shard are produced; `rendition` decides the outputs'
    /// extension and whether each has a card.
    public init(_ sources: [Source], excluding: [String] = [], shard: Shard? = nil,
                rendition: StickerRendition = StickerRendition()) {
        self.sources = sources
        excluded = excluding
        self.shard = shard
        self.rendition = rendition
    }

    public func makeAsyncIterator() -> Iterator {
        Iterator(sources: sources.reversed(), excluded: excluded, shard: shard,
                 naming: OutputNaming(fileExtension: rendition.fileExtension, withCards: rendition.writesCard))
    }

    public struct Iterator: AsyncIteratorProtocol {
        var sources: [Source]
        let excluded: [String]
        let shard: Shard?
        var walker: DirectoryWalker?
        var list: PathList.AsyncIterator?
        var naming: OutputNaming
        /// The entries already taken: memory grows with the count, as `naming`'s does.
        var taken: Set<DirectoryEntryIdentity> = []
        var index = 0

        init(sources: [Source], excluded: [String], shard: Shard?, naming: OutputNaming) {
            self.sources = sources
            self.excluded = excluded
            self.shard = shard
            self.naming = naming
        }

        public mutating func next() async -> BatchJob? {
            while true {
                if let entry = walker?.next() {
                    if let job = job(path: entry.path, relativePath: entry.relativePath.display) { return job }
                    continue
                }
                walker = nil
                if list != nil {
                    if let path = await list?.next() {
                        if let job = start(path, relativePath: path.display) { return job }
                        continue
                    }
                    list = nil
                }
                guard let source = sources.popLast() else { return nil }
                switch source {
                case .path(let path):
                    let raw = RawPath(path)
                    if let job = start(raw, relativePath: RawPath(bytes: raw.lastComponent).display) { return job }
                case .pathList(let stream):
                    list = stream.makeAsyncIterator()
                }
            }
        }

        /// A job for a file, or nil after starting a walk for a folder.
        private mutating func start(_ path: RawPath, relativePath: String) -> BatchJob? {
            var info = stat()
            if path.withCString({ stat($0, &info) }) == 0, (info.st_mode & S_IFMT) == S_IFDIR {
                walker = DirectoryWalker(root: path, excluding: excluded)
                return nil
            }
            return job(path: path, relativePath: relativePath)
        }

        /// The file's job, or nil when it belongs to another shard or was already taken
        /// (the same entry named twice, or reached through two of the inputs).
        private mutating func job(path: RawPath, relativePath: String) -> BatchJob? {
            if let shard, !shard.contains(relativePath: relativePath) { return nil }
            if let entry = DirectoryEntryIdentity(path), !taken.insert(entry).inserted { return nil }
            defer { index += 1 }
            let output = naming.claim(relativePath: relativePath)
            return BatchJob(index: index, path: path, output: output,
                            card: naming.withCards ? OutputNaming.cardName(of: output) : nil)
        }
    }
}
