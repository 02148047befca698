import CInterruptPipe
import FoundationEssentials
import Glibc
import StickerKit
import Synchronization

/// Turns SIGINT, SIGTERM and SIGHUP (a closed terminal, a dropped ssh session) into
/// cancellation of a task (structured, cooperative), and keeps SIGPIPE and SIGXFSZ from
/// killing the process (`ignoreWriteSignals`). A signal the process started with ignored
/// stays ignored, as Unix tools leave it: `nohup stickerize ...` must outlive its
/// terminal, and a background job of a script ignores the terminal's Ctrl-C.
///
/// The signals are caught by a handler that writes them into a pipe, which a thread of
/// its own reads (`cip_catch_signals`), so from the moment `init` returns none is lost.
/// Libdispatch's signal sources, used before, register asynchronously: a signal in the
/// first moments after them was ignored and the run went on to the end (2 of 100 runs
/// struck at 0-15 ms). The handlers go in first thing in `main`, before the batch's task
/// exists (`onInterrupt` names what to cancel once it does): with the task started first,
/// a signal in between killed the process with the default action after the task had
/// created its manifest spool in the output folder, and the spool stayed there.
final class InterruptSignals: Sendable {
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
    /// limit becomes an error on the write instead. Called before anything is written,
    /// the help and the version included.
    static func ignoreWriteSignals() {
        signal(SIGPIPE, SIG_IGN)
        signal(SIGXFSZ, SIG_IGN)
    }

    /// Catches the three signals (those not inherited as ignored) and starts the thread
    /// that reads them from the pipe.
    init() {
        let numbers = [SIGINT, SIGTERM, SIGHUP].filter { !InterruptSignals.startedIgnored($0) }
        guard !numbers.isEmpty else { return }
        let caught = cip_catch_signals(numbers, Int32(numbers.count))
        precondition(caught >= 0, "cannot catch interrupts: \(String(cString: strerror(errno)))")
        let interruption = self.interruption
        SystemThread.start("waits for interrupts") {
            var number: UInt8 = 0
            while true {
                let count = read(caught, &number, 1)
                if count == 1 {
                    interruption.interrupt()
                } else if count == 0 || errno != EINTR {
                    break
                }
            }
        }
    }

    /// Runs `action` on every interrupt from now on, and at once if one already came.
    func onInterrupt(_ action: @escaping @Sendable () -> Void) {
        interruption.set(action)
    }

    /// Whether the process started with `number`'s disposition set to SIG_IGN (C function
    /// pointers are not comparable in Swift; their addresses are).
    private static func startedIgnored(_ number: Int32) -> Bool {
        var current = sigaction()
        guard sigaction(number, nil, &current) == 0, let handler = current.__sigaction_handler.sa_handler else {
            return false
        }
        return unsafeBitCast(handler, to: Int.self) == unsafeBitCast(SIG_IGN, to: Int.self)
    }
}
