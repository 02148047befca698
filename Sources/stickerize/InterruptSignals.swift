import Dispatch
import FoundationEssentials
import Glibc

/// Turns SIGINT, SIGTERM and SIGHUP (a closed terminal, a dropped ssh session) into
/// cancellation of a task (structured, cooperative), and keeps SIGPIPE and SIGXFSZ from
/// killing the process (`ignoreWriteSignals`). A signal the process started with ignored
/// stays ignored, as Unix tools leave it: `nohup stickerize ...` must outlive its
/// terminal, and a background job of a script ignores the terminal's Ctrl-C.
final class InterruptSignals {
    private let sources: [any DispatchSourceSignal]
    private let queue = DispatchQueue(label: "stickerize.signals")

    /// Keeps SIGPIPE and SIGXFSZ from killing the process: a closed pipe or a file-size
    /// limit becomes an error on the write instead. Called before anything is written
    /// (the help, a listing's first line, which the batch's task may write before the
    /// interrupt handlers are in place).
    static func ignoreWriteSignals() {
        signal(SIGPIPE, SIG_IGN)
        signal(SIGXFSZ, SIG_IGN)
    }

    init(onInterrupt: @escaping @Sendable () -> Void) {
        var sources: [any DispatchSourceSignal] = []
        for number in [SIGINT, SIGTERM, SIGHUP] {
            let inherited = signal(number, SIG_IGN)
            guard !InterruptSignals.isIgnore(inherited) else { continue }
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler(handler: onInterrupt)
            source.resume()
            sources.append(source)
        }
        self.sources = sources
    }

    /// Whether a disposition `signal` returned is SIG_IGN (C function pointers are not
    /// comparable in Swift; their addresses are).
    private static func isIgnore(_ handler: __sighandler_t?) -> Bool {
        guard let handler else { return false }
        return unsafeBitCast(handler, to: Int.self) == unsafeBitCast(SIG_IGN, to: Int.self)
    }

    deinit {
        for source in sources { source.cancel() }
    }
}
