/// The record of one input's outcome: a line of `--json` output and, as `recorded`, an
/// item of `manifest.json`.
public struct ManifestItem: Sendable, Codable, Equatable {
    /// `ok` (computed now), `cached` (served from the cache; `--json` only: the manifest
    /// says `ok`) or `failed`.
    public enum Status: String, Sendable, Codable {
        case ok
        case cached
        case failed
    }

    /// A palette entry as the manifest shows it.
    public struct Swatch: Sendable, Codable, Equatable {
        public var hex: String
        public var rgb: [UInt8]
        public var share: Double

        init(_ color: PaletteColor) {
            hex = color.hex
            rgb = [color.red, color.green, color.blue]
            share = color.share
        }
    }

    public var index: Int
    public var source: String
    public var sha256: String?
    public var status: Status
    public var output: String?
    /// The card beside the sticker (`--card`).
    public var card: String?
    /// The sticker file's size in bytes.
    public var bytes: Int?
    public var width: Int?
    public var height: Int?
    public var crop: PixelRect?
    public var scale: Double?
    /// `Sticker.confidence`, to three decimals.
    public var confidence: Double?
    public var palette: [Swatch]?
    public var roles: PaletteRoles?
    public var subject: [Swatch]?
    public var gradient: [String]?
    /// Milliseconds per stage (`--json` only: nil in the manifest).
    public var timings: StageTimings?
    /// Wall-clock milliseconds this run spent on the input, reading to writing (`--json`
    /// only: nil in the manifest).
    public var ms: Double?
    /// Why it failed, one line for people.
    public var error: String?
    /// What kind of failure it was, a stable word for scripts.
    public var failure: FailureKind?

    /// The item as `manifest.json` keeps it: what the outputs are, not how this run came
    /// by them (no `timings` or `ms`, and a result served from the cache is `ok`), so a
    /// rerun over the same photos writes the same manifest, byte for byte, and a build
    /// that commits its stickers can check them with `git diff --exit-code`.
    public var recorded: ManifestItem {
        var item = self
        item.timings = nil
        item.ms = nil
        if item.status == .cached { item.status = .ok }
        return item
    }

    static func failed(_ job: BatchJob, sha256: String?, ms: Double, error: any Error) -> ManifestItem {
        ManifestItem(index: job.index, source: job.source, sha256: sha256, status: .failed, ms: ms,
                     error: String(describing: error), failure: FailureKind(error))
    }

    static func succeeded(_ job: BatchJob, sha256: String, result: CachedResult, status: Status,
                          files: StickerRendition.Files,
                          io: StageTimings, ms: Double) -> ManifestItem {
        var timings = result.timings
        timings.read = io.read
        timings.hash = io.hash
        timings.render = io.render
        timings.write = io.write
        return ManifestItem(index: job.index, source: job.source, sha256: sha256, status: status, output: job.output,
                     card: job.card, bytes: files.sticker.count, width: files.width, height: files.height, crop: result.crop, scale: result.scale,
                     confidence: result.confidence.map { ($0 * 1000).rounded() / 1000 },
                     palette: result.colors.palette.map(Swatch.init), roles: result.colors.roles,
                     subject: result.colors.subject.map(Swatch.init), gradient: result.colors.gradient.map(\.hex),
                     timings: timings, ms: ms)
    }
}
