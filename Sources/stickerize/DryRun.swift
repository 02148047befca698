import FoundationEssentials
import Glibc
import StickerKit

/// `--list`: what a run would process, and which inputs are cache hits, without writing
/// anything. One line per input on standard output (`new`, `cached` or `failed`, the
/// input, its output), or a JSON object per input with `--json`; a summary on stderr,
/// which says so when an interrupt ended the listing early, as a run's does.
/// The lines are the product, so when standard output stops taking them the listing
/// stops (`StandardOutput.exitCode(for:)`).
enum DryRun {
    static func list(_ inputs: BatchInputs, with pipeline: BatchPipeline, options: CommandLineOptions) async -> ExitCode {
        let encoder = Manifest.encoder(pretty: false)
        var counts: [PlannedInput.Status: Int] = [:]
        do {
            try await pipeline.plan(inputs) { (item) throws(StandardOutput.Failure) in
                counts[item.status, default: 0] += 1
                var line: Data
                if options.json {
                    line = (try? encoder.encode(item)) ?? Data()
                } else {
                    let name = item.status.rawValue, status = name + String(repeating: " ", count: max(0, 7 - name.count))
                    let text = status + item.source + (item.error.map { ": " + $0 } ?? " -> " + item.output)
                    line = Data(text.escapingControlCharacters.utf8)
                }
                line.append(UInt8(ascii: "\n"))
                try StandardOutput.write(line)
            }
        } catch {
            return StandardOutput.exitCode(for: error)
        }
        let total = counts.values.reduce(0, +), failed = counts[.failed] ?? 0, interrupted = Task.isCancelled
        if !options.quiet {
            StandardError.line("\(photoCount(total)): \(counts[.new] ?? 0) new, \(counts[.cached] ?? 0) cached, "
                               + "\(failed) unreadable (dry run: nothing written)" + (interrupted ? " (interrupted)" : ""))
        }
        if interrupted { return .interrupted }
        return failed > 0 ? .someInputsFailed : .success
    }
}
