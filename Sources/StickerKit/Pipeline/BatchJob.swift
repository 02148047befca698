/// One input of a batch: where to read it and where its output goes.
public struct BatchJob: Sendable, Hashable {
    /// Position in input order (0-based), so results can be ordered whatever the
    /// completion order.
    public var index: Int
    /// The path to read, as given or as found by the walk.
    public var path: RawPath
    /// `path` for people and manifests (`RawPath.display`).
    public var source: String { path.display }
    /// The output's path relative to the output folder (`photos/a.jpg` -> `photos/a.png`).
    public var output: String
    /// The card's path relative to the output folder, when cards are written.
    public var card: String?

    public init(index: Int, path: RawPath, output: String, card: String? = nil) {
        self.card = card
        self.index = index
        self.path = path
        self.output = output
    }
}
