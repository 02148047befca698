import FoundationEssentials
import Glibc
import StickerKit

/// Tells a person how the batch goes, on standard error: on a terminal one live status
/// line (done/started, rate, failures); otherwise a line per failure and a summary.
/// `--json` lines go to standard output. Used only from the task that runs the batch.
final class ProgressReporter {
    private let isTerminal: Bool
    private let quiet: Bool
    private let json: Bool
    private let encoder = Manifest.encoder(pretty: false)
    private let clock = ContinuousClock()
    private let start: ContinuousClock.Instant
    private var lastDraw: ContinuousClock.Instant
    private var started = 0
    private var done = 0
    private var failed = 0
    private var statusShown = false
    private var standardOutputClosed = false

    init(quiet: Bool, json: Bool, isTerminal: Bool = isatty(STDERR_FILENO) == 1) {
        self.quiet = quiet
        self.json = json
        self.isTerminal = isTerminal
        start = clock.now
        lastDraw = start
    }

    func report(_ event: PipelineEvent) {
        switch event {
        case .started:
            started += 1
        case .finished(let item), .cached(let item):
            done += 1
            emitJSON(item)
        case .failed(let item):
            done += 1
            failed += 1
            emitJSON(item)
            clearStatus()
            StandardError.write("stickerize: \(item.source): \(item.error ?? "failed")\n")
        }
        drawStatus(force: false)
    }

    /// The summary line, with how many stale outputs `--prune` removed, if any.
    func finish(_ summary: BatchSummary, pruned: Int = 0) {
        clearStatus()
        guard !quiet else { return }
        let seconds = (clock.now - start).milliseconds / 1000
        var line = "\(photoCount(summary.finishedCount)): \(summary.computedCount) new, \(summary.cachedCount) cached, "
            + "\(summary.failedCount) failed in " + ProgressReporter.decimal(seconds, places: 2) + " s"
        if summary.wasCancelled { line += " (interrupted)" }
        if pruned > 0 { line += "; removed \(pruned) stale output" + (pruned == 1 ? "" : "s") }
        StandardError.write(line + "\n")
    }

    func warn(_ message: String) {
        clearStatus()
        StandardError.write("stickerize: warning: \(message)\n")
    }

    private func emitJSON(_ item: ManifestItem) {
        guard json, !standardOutputClosed, var line = try? encoder.encode(item) else { return }
        line.append(UInt8(ascii: "\n"))
        // A reader that went away (`| head`) ends the JSON lines, not the batch.
        if DescriptorWriter.writeAll(line, to: STDOUT_FILENO) != 0 { standardOutputClosed = true }
    }

    private func drawStatus(force: Bool) {
        guard isTerminal, !quiet else { return }
        let now = clock.now
        guard force || now - lastDraw > .milliseconds(100) else { return }
        lastDraw = now
        let seconds = max((now - start).milliseconds / 1000, 0.001)
        let rate = Double(done) / seconds
        StandardError.write("\r\u{1B}[K" + "\(done)/\(started) done, \(ProgressReporter.decimal(rate, places: 1))/s, \(failed) failed")
        statusShown = true
    }

    /// `value` with `places` decimals, as printf's `%.*f` writes it.
    private static func decimal(_ value: Double, places: Int32) -> String {
        var buffer = [CChar](repeating: 0, count: 64)
        let length = withVaList([places, value]) { vsnprintf(&buffer, buffer.count, "%.*f", $0) }
        return String(decoding: buffer.prefix(Int(max(0, min(length, 63)))).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    private func clearStatus() {
        guard statusShown else { return }
        StandardError.write("\r\u{1B}[K")
        statusShown = false
    }
}
