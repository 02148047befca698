import FoundationEssentials

/// A self-contained HTML page to look at a batch (`--preview FILE.html`): failures first
/// with their reasons, then one row per sticker with the input's thumbnail (embedded as a
/// PNG data URI), the sticker on a checkerboard and on its card (linked relative to the
/// page), its palette swatches and its confidence. Stickers whose confidence is under
/// `doubtfulConfidence` come first, marked, so a review starts with them.
public enum PreviewPage {
    /// Long side of the embedded input thumbnails, in pixels.
    static let thumbnailSide = 160
    /// Stickers less confident than this are listed first and marked (see
    /// `Sticker.confidence`: over the validation sets, 16% of stickers, holding three
    /// quarters of those under 0.5 IoU).
    static let doubtfulConfidence = 0.5

    /// The page for `manifest`, whose outputs live in `outputDirectory`, to be written at
    /// `page`. Inputs are read again (shrunk on load) for their thumbnails.
    public static func render(_ manifest: Manifest, outputDirectory: URL, page: URL) -> String {
        let base = page.deletingLastPathComponent().standardizedFileURL
        let failures = manifest.items.filter { $0.status == .failed }
        let made = manifest.items.filter { $0.status != .failed }
        let isDoubtful = { (item: ManifestItem) in (item.confidence ?? 1) < doubtfulConfidence }
        let stickers = made.filter(isDoubtful) + made.filter { !isDoubtful($0) }
        var html = """
            <!doctype html>
            <html lang="en"><head><meta charset="utf-8"><title>stickerize preview</title>
            <style>
            body { font: 14px system-ui, sans-serif; margin: 24px; color: #222; background: #fff; }
            table { border-collapse: collapse; }
            td, th { padding: 8px; border-bottom: 1px solid #ddd; vertical-align: middle; text-align: left; }
            img { display: block; max-width: 240px; max-height: 240px; }
            .checker { background: conic-gradient(#ccc 25%, #fff 0 50%, #ccc 0 75%, #fff 0) 0 0 / 16px 16px; padding: 4px; }
            .card { padding: 12px; }
            .swatch { display: inline-block; width: 28px; height: 28px; margin-right: 4px; border: 1px solid #0003; }
            .failed td { color: #a00; }
            .doubtful td:last-child { color: #a00; font-weight: bold; }
            code { font-size: 12px; }
            </style></head><body>
            <h1>stickerize preview</h1>
            <p>\(stickers.count) stickers (\(stickers.count(where: isDoubtful)) with confidence under \(doubtfulConfidence), listed first), \(failures.count) failed</p>

            """
        if !failures.isEmpty {
            html += "<h2>Failed</h2>\n<table class=\"failed\">\n"
            for item in failures {
                html += "<tr><td><code>\(escape(item.source))</code></td><td>\(escape(item.error ?? "failed"))</td></tr>\n"
            }
            html += "</table>\n"
        }
        html += "<h2>Stickers</h2>\n<table>\n<tr><th>input</th><th>photo</th><th>sticker</th><th>on its card</th><th>palette</th><th>confidence</th></tr>\n"
        for item in stickers {
            guard let output = item.output else { continue }
            let sticker = escape(link(outputDirectory.appendingPathComponent(output), from: base))
            let thumbnail = thumbnailURI(of: item.source).map { "<img alt=\"photo\" src=\"\($0)\">" } ?? "(not shown)"
            let gradient = item.gradient ?? ["#eeeeee", "#cccccc"]
            let card = item.card.map { "<img alt=\"card\" src=\"\(escape(link(outputDirectory.appendingPathComponent($0), from: base)))\">" }
                ?? "<div class=\"card\" style=\"background: linear-gradient(\(gradient.joined(separator: ", ")))\"><img alt=\"sticker on its card\" src=\"\(sticker)\"></div>"
            let swatches = (item.palette ?? []).map {
                "<span class=\"swatch\" title=\"\($0.hex)\" style=\"background: \($0.hex)\"></span>"
            }.joined()
            let confidence = item.confidence.map { String($0) } ?? "-"
            html += "<tr\(isDoubtful(item) ? " class=\"doubtful\"" : "")><td><code>\(escape(item.source))</code></td><td>\(thumbnail)</td>"
                + "<td><div class=\"checker\"><img alt=\"sticker\" src=\"\(sticker)\"></div></td><td>\(card)</td><td>\(swatches)</td>"
                + "<td>\(confidence)</td></tr>\n"
        }
        return html + "</table>\n</body></html>\n"
    }

    /// The input as a small PNG data URI, or nil when it cannot be read or decoded now.
    static func thumbnailURI(of source: String) -> String? {
        guard let data = try? InputFile.read(source),
              let decoded = try? ImageDecoder.decode(data, options: DecodeOptions(minimumLongSide: thumbnailSide)) else {
            return nil
        }
        let image = decoded.image
        let scale = Double(thumbnailSide) / Double(max(image.width, image.height))
        let width = max(1, Int((Double(image.width) * min(1, scale)).rounded()))
        let height = max(1, Int((Double(image.height) * min(1, scale)).rounded()))
        let region = Resampler.Region(x: 0, y: 0, width: Double(image.width), height: Double(image.height))
        guard let png = try? PNGEncoder(encoding: .libpng(level: 9))
            .encode(AlphaResampler.resample(image, region: region, width: width, height: height)) else { return nil }
        return "data:image/png;base64," + png.base64EncodedString()
    }

    /// `file` as a URL path relative to the folder `base`, percent-encoded. It may still
    /// hold '&', which an HTML attribute reads as the start of a character reference
    /// (`&copy.png` as `©.png`): the page writes it through `escape`.
    static func link(_ file: URL, from base: URL) -> String {
        let target = file.standardizedFileURL.pathComponents, origin = base.pathComponents
        var shared = 0
        while shared < min(target.count, origin.count), target[shared] == origin[shared] { shared += 1 }
        let parts = Array(repeating: "..", count: origin.count - shared) + target[shared...]
        let path = parts.joined(separator: "/")
        return percentEncoded(path)
    }

    /// The bytes a link's path keeps as they are: those Foundation's `urlPathAllowed` keeps
    /// on Linux (RFC 3986's unreserved characters, its sub-delimiters but ';', and '@' and
    /// '/'), so the links are what they were when Foundation encoded them.
    private static let pathAllowed = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~!$&'()*+,=@/".utf8)

    /// `path` with every other UTF-8 byte written as %XX.
    static func percentEncoded(_ path: String) -> String {
        var encoded = ""
        for byte in path.utf8 {
            if pathAllowed.contains(byte) {
                encoded.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                encoded += "%" + byte.hexDigits(uppercase: true)
            }
        }
        return encoded
    }

    static func escape(_ text: String) -> String {
        var escaped = ""
        for character in text {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&#39;"
            default: escaped.append(character)
            }
        }
        return escaped
    }
}
