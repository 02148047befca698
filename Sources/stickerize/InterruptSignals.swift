import Dispatch
import FoundationEssentials
import Glibc
import Synchronization

/// Turns SIGINT, SIGTERM and SIGHUP (a closed terminal, a dropped ssh session) into
/// cancellation of a task (structured, cooperative), and keeps SIGPIPE and SIGXFSZ from
/// killing the process (`ignoreWriteSignals`). A signal the process started with ignored
/// stays ignored, as Unix tools leave it: `nohup stickerize ...` must outlive its
/// terminal, and a background job of a script ignores the terminal's Ctrl-C.
///
/// The handlers go in before the batch's task exists (`onInterrupt` names what to cancel
/// once it does): with the task started first, a signal in between killed the process
/// with the default action after the task had created its manifest spool in the output
/// folder, and the spool stayed there.
final class InterruptSignals {
    private let sources: [any DispatchSourceSignal]
    private let queue = DispatchQueue(label: "stickerize.signals")
    private let interruption = Interruption()

    /// What an interrupt does, set once; an interrupt that comes first is remembered and
    /// acted on when it is set.
    private final class Interruption: Sendable {
        private let state = Mutex<(action: (@Sendable () -> Void)?, interrupted: Bool)>((nil, false))

        func interrupt() {
            state.withLock { state in
                state.interrupted = true
                return state.action
            }?()
        }

        func set(_ action: @escaping @Sendable () -> Void) {
            let interrupted = state.withLock { state in
                state.action = action
                return state.interrupted
            }
            if interrupted { action() }
        }
    }

    /// Keeps SIGPIPE and SIGXFSZ from killing the process: a closed pipe or a file-size
    /// limit becomes an error on the write instead. Called before anything is written
    /// (the help, or the version, which no interrupt handler waits for).
    static func ignoreWriteSignals() {
        signal(SIGPIPE, SIG_IGN)
        signal(SIGXFSZ, SIG_IGN)
    }

    /// Installs the handlers: from here on the three signals no longer end the process.
    /// libdispatch registers its sources asynchronously, so a signal in the moments
    /// after this may be lost (the run then completes, as if it came too late).
    init() {
        var sources: [any DispatchSourceSignal] = []
        let interruption = self.interruption
        for number in [SIGINT, SIGTERM, SIGHUP] {
            let inherited = signal(number, SIG_IGN)
            guard !InterruptSignals.isIgnore(inherited) else { continue }
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler { interruption.interrupt() }
            source.resume()
            sources.append(source)
        }
        self.sources = sources
    }

    /// Runs `action` on every interrupt from now on, and at once if one already came.
    func onInterrupt(_ action: @escaping @Sendable () -> Void) {
        interruption.set(action)
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
