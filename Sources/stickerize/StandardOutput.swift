import FoundationEssentials
import Glibc
import StickerKit

/// Writes to standard output, which carries data (`--json` lines, `--list`'s lines, help),
/// and says how a write failed: a reader that went away (`| head`, EPIPE) is how pipes
/// end, not an error, while a full disk or a broken device is one the command must report,
/// never a silent exit 0 with the data lost. SIGPIPE is ignored (`InterruptSignals`), so
/// both arrive here as errors of `write(2)`.
enum StandardOutput {
    enum Failure: Error {
        /// The pipe's reading end closed (EPIPE).
        case readerGone
        /// Any other write error, with its reason (`No space left on device`).
        case unwritable(reason: String)
    }

    static func write(_ data: Data) throws(Failure) {
        let error = DescriptorWriter.writeAll(data, to: STDOUT_FILENO)
        if error == EPIPE { throw .readerGone }
        if error != 0 { throw .unwritable(reason: String(cString: strerror(error))) }
    }

    /// The one-line message for an unwritable standard output.
    static func message(_ reason: String) -> String {
        "cannot write standard output: \(reason)"
    }

    /// For output that is the whole product (`--list`, help): stops quietly with 141 when
    /// the reader went away, as a process SIGPIPE killed would, else says why on stderr
    /// and exits 1.
    static func exitCode(for failure: Failure) -> ExitCode {
        switch failure {
        case .readerGone:
            return .readerGone
        case .unwritable(let reason):
            StandardError.line("stickerize: " + message(reason))
            return .someInputsFailed
        }
    }
}
