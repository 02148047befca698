/// Decides each input's output path under the output folder.
///
/// The output mirrors the input's relative path with the extension changed to `.png`. An
/// output path never leaves the output folder: a path that is absolute or climbs with `..`
/// keeps only its file name. When two inputs would share an output (`a.jpg` and `a.png`),
/// the first in input order keeps `a.png` and each later one keeps its own extension too
/// (`a.png.png`, then `a.png-2.png`, ...): deterministic, never a silent overwrite.
struct OutputNaming: Sendable {
    private var claimed: Set<String> = []

    mutating func claim(relativePath: String) -> String {
        let safe = OutputNaming.contained(relativePath)
        let stem = OutputNaming.removingExtension(safe)
        var candidate = stem + ".png"
        if claimed.contains(candidate) { candidate = safe + ".png" }
        var counter = 2
        while claimed.contains(candidate) {
            candidate = safe + "-\(counter).png"
            counter += 1
        }
        claimed.insert(candidate)
        return candidate
    }

    /// `path` without `.` components, or only its last component when it is absolute or
    /// would climb out of the folder.
    static func contained(_ path: String) -> String {
        let parts = path.split(separator: "/", omittingEmptySubsequences: true).filter { $0 != "." }
        let name = parts.last.map(String.init) ?? "image"
        if path.hasPrefix("/") || parts.contains("..") || parts.isEmpty { return name == ".." ? "image" : name }
        return parts.joined(separator: "/")
    }

    /// `path` without its last component's extension (`trip/a.jpg` -> `trip/a`).
    static func removingExtension(_ path: String) -> String {
        let name = path.split(separator: "/").last ?? ""
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return path }
        let extensionLength = name.distance(from: dot, to: name.endIndex)
        return String(path.dropLast(extensionLength))
    }
}
