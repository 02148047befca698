/// Decides each input's output path under the output folder.
///
/// The output mirrors the input's relative path with the extension changed to the
/// output's (`.png`, or `.webp` for a WebP preset). An output path never leaves the
/// output folder: a path that is absolute or climbs with `..` keeps only its file name.
/// When two inputs would share an output (`a.jpg` and `a.png`), the first in input order
/// keeps `a.png` and each later one keeps its own extension too (`a.png.png`, then
/// `a.png-2.png`, ...): deterministic, never a silent overwrite. With cards, a name is
/// taken only when its card's name (`a.card.png`) is free too, and both are claimed.
/// A name the file system would refuse (over `AtomicFile.longestName` bytes, its card's
/// included) is cut short, whole characters at a time, before its extension: an input
/// named as long as names go still gets its sticker and its card. A mirrored folder's name
/// is cut the same way: a folder of non-UTF-8 bytes, each escaped as `\xNN` (four
/// characters), can have grown past what the file system takes.
public struct OutputNaming: Sendable {
    let fileExtension: String
    let withCards: Bool
    private var claimed: Set<String> = []

    init(fileExtension: String = "png", withCards: Bool = false) {
        self.fileExtension = fileExtension
        self.withCards = withCards
    }

    mutating func claim(relativePath: String) -> String {
        let safe = OutputNaming.contained(relativePath)
        let stem = OutputNaming.removingExtension(safe)
        var candidate = fitted(stem, "." + fileExtension)
        if !isFree(candidate) { candidate = fitted(safe, "." + fileExtension) }
        var counter = 2
        while !isFree(candidate) {
            candidate = fitted(safe, "-\(counter)." + fileExtension)
            counter += 1
        }
        claimed.insert(candidate)
        if withCards { claimed.insert(OutputNaming.cardName(of: candidate)) }
        return candidate
    }

    /// `base` + `suffix`, the last component of `base` shortened by whole characters until
    /// that name, and with cards the card's name made from it, fit `AtomicFile.longestName`.
    private func fitted(_ base: String, _ suffix: String) -> String {
        // The card's name swaps the output's ".extension" for `cardSuffix`.
        let cardTail = suffix.utf8.count - fileExtension.utf8.count - 1 + OutputNaming.cardSuffix.utf8.count
        let room = AtomicFile.longestName - (withCards ? max(suffix.utf8.count, cardTail) : suffix.utf8.count)
        let nameStart = base.lastIndex(of: "/").map { base.index(after: $0) } ?? base.startIndex
        return base[..<nameStart] + OutputNaming.cut(base[nameStart...], toBytes: room) + suffix
    }

    private func isFree(_ candidate: String) -> Bool {
        !claimed.contains(candidate) && !(withCards && claimed.contains(OutputNaming.cardName(of: candidate)))
    }

    /// The card written beside `output`: `trip/a.png` -> `trip/a.card.png`.
    static func cardName(of output: String) -> String {
        removingExtension(output) + cardSuffix
    }

    private static let cardSuffix = ".card.png"

    /// The full-frame mask written for `output` in the mask folder, always a PNG:
    /// `trip/a.webp` -> `trip/a.png`. Outputs share one extension, so no two share a mask.
    public static func maskName(of output: String) -> String {
        removingExtension(output) + ".png"
    }

    /// `path` without `.` components and with each folder's name cut, whole characters at
    /// a time, to `AtomicFile.longestName` bytes; or only its last component when it is
    /// absolute or would climb out of the folder.
    static func contained(_ path: String) -> String {
        var parts = path.split(separator: "/", omittingEmptySubsequences: true).filter { $0 != "." }
        let name = parts.last.map(String.init) ?? "image"
        if path.hasPrefix("/") || parts.contains("..") || parts.isEmpty { return name == ".." ? "image" : name }
        for index in parts.indices.dropLast() { parts[index] = cut(parts[index], toBytes: AtomicFile.longestName) }
        return parts.joined(separator: "/")
    }

    /// `name` without as many of its last characters as it takes to fit `limit` UTF-8 bytes.
    private static func cut(_ name: Substring, toBytes limit: Int) -> Substring {
        var name = name
        while name.utf8.count > limit { name = name.dropLast() }
        return name
    }

    /// `path` without its last component's extension (`trip/a.jpg` -> `trip/a`).
    static func removingExtension(_ path: String) -> String {
        let name = path.split(separator: "/").last ?? ""
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return path }
        let extensionLength = name.distance(from: dot, to: name.endIndex)
        return String(path.dropLast(extensionLength))
    }
}
