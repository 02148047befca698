import FoundationEssentials
import Glibc
import StickerKit

/// Tells a person how the batch goes, on standard error: on a terminal one live status
/// line (done of all, or done/started until the inputs are counted; rate; time left;
/// failures); otherwise a line per failure and a summary. `--json` lines go to standard
/// output. Used only from the task that runs the batch.
final class ProgressReporter {
    private let isTerminal: Bool
    private let quiet: Bool
    private let json: Bool
    /// The batch's size, once counted (`InputCount`).
    private let inputCount: InputCount?
    private let encoder = Manifest.encoder(pretty: false)
    private let clock = ContinuousClock()
    private let start: ContinuousClock.Instant
    private var lastDraw: ContinuousClock.Instant
    private var started = 0
    private var done = 0
    private var failed = 0
    private var statusShown = false
    private var standardOutputClosed = false
    /// Whether a `--json` line could not be written for a reason other than its reader
    /// going away (a full disk).
    private(set) var standardOutputFailed = false

    init(quiet: Bool, json: Bool, inputCount: InputCount? = nil, isTerminal: Bool = isatty(STDERR_FILENO) == 1) {
        self.quiet = quiet
        self.json = json
        self.inputCount = inputCount
        self.isTerminal = isTerminal
        start = clock.now
        lastDraw = start
    }

    /// Whether the live status line is drawn (a terminal, not `--quiet`).
    var showsStatus: Bool { isTerminal && !quiet }

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
            StandardError.line("stickerize: \(item.source): \(item.error ?? "failed")")
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
        StandardError.line(line)
    }

    func warn(_ message: String) {
        clearStatus()
        StandardError.line("stickerize: warning: \(message)")
    }

    /// A line for a failure of the run itself (not of one input), which makes it exit 1.
    func fail(_ message: String) {
        clearStatus()
        StandardError.line("stickerize: \(message)")
    }

    /// Writes the item's `--json` line. A reader that went away (`| head`) ends the JSON
    /// lines, not the batch (the stickers are files); any other failure ends them too, with
    /// one line on standard error, and `standardOutputFailed` makes the run exit 1.
    private func emitJSON(_ item: ManifestItem) {
        guard json, !standardOutputClosed, var line = try? encoder.encode(item) else { return }
        line.append(UInt8(ascii: "\n"))
        do {
            try StandardOutput.write(line)
        } catch {
            standardOutputClosed = true
            if case .unwritable(let reason) = error {
                standardOutputFailed = true
                fail(StandardOutput.message(reason))
            }
        }
    }

    private func drawStatus(force: Bool) {
        guard showsStatus else { return }
        let now = clock.now
        guard force || now - lastDraw > .milliseconds(100) else { return }
        lastDraw = now
        let line = ProgressReporter.statusLine(done: done, started: started, failed: failed,
                                               seconds: (now - start).milliseconds / 1000, total: inputCount?.total)
        StandardError.write("\r\u{1B}[K" + line)
        statusShown = true
    }

    /// "37 of 120 done, 31.2/s, 3 s left, 0 failed" once the inputs are counted, else
    /// "37/39 done, 31.2/s, 0 failed" (done of started); the time left is the rest at
    /// the rate so far.
    static func statusLine(done: Int, started: Int, failed: Int, seconds: Double, total: Int?) -> String {
        let rate = Double(done) / max(seconds, 0.001)
        let pace = ProgressReporter.decimal(rate, places: 1) + "/s"
        guard let total else { return "\(done)/\(started) done, \(pace), \(failed) failed" }
        let left = done > 0 ? ", " + duration(Double(max(0, total - done)) / rate) + " left" : ""
        return "\(done) of \(total) done, \(pace)\(left), \(failed) failed"
    }

    /// A time to come, rounded up: "12 s", "4 min", "2 h 05 min".
    static func duration(_ seconds: Double) -> String {
        let whole = Int(seconds.rounded(.up))
        if whole < 60 { return "\(whole) s" }
        let minutes = (whole + 59) / 60
        if minutes < 60 { return "\(minutes) min" }
        let rest = minutes % 60
        return "\(minutes / 60) h " + (rest < 10 ? "0" : "") + "\(rest) min"
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
