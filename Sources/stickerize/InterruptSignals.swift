import Dispatch
import FoundationEssentials
import Glibc

/// Turns SIGINT and SIGTERM into cancellation of a task (structured, cooperative), and
/// keeps SIGPIPE and SIGXFSZ from killing the process (a closed pipe or a file-size
/// limit becomes an error on the write instead).
final class InterruptSignals {
    private let sources: [any DispatchSourceSignal]
    private let queue = DispatchQueue(label: "stickerize.signals")

    init(onInterrupt: @escaping @Sendable () -> Void) {
        signal(SIGPIPE, SIG_IGN)
        signal(SIGXFSZ, SIG_IGN)
        var sources: [any DispatchSourceSignal] = []
        for number in [SIGINT, SIGTERM] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler(handler: onInterrupt)
            source.resume()
            sources.append(source)
        }
        self.sources = sources
    }

    deinit {
        for source in sources { source.cancel() }
    }
}
