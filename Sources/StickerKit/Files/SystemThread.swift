import Glibc

/// A thread of the operating system's own, outside Swift's cooperative pool, for work that
/// blocks in a system call for as long as it takes: reading a path list as it arrives
/// (`PathListReader`), waiting for a signal (the command's interrupt handling). A task
/// blocked there would hold one of the pool's few threads.
public enum SystemThread {
    /// Runs `body` on a new, detached thread; `role` names it in the error if none can start.
    public static func start(_ role: String, _ body: @escaping @Sendable () -> Void) {
        final class Body: Sendable {
            let run: @Sendable () -> Void
            init(_ run: @escaping @Sendable () -> Void) { self.run = run }
        }
        let context = Unmanaged.passRetained(Body(body)).toOpaque()
        var thread = pthread_t()
        let result = pthread_create(&thread, nil, { context in
            Unmanaged<Body>.fromOpaque(context!).takeRetainedValue().run()
            return nil
        }, context)
        precondition(result == 0, "cannot start the thread that \(role): \(String(cString: strerror(result)))")
        pthread_detach(thread)
    }
}
