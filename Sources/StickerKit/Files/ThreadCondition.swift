import Glibc

/// A pthread mutex and condition variable (the pair `NSCondition` wraps), for plain
/// threads that wait: `PathList`'s writers. ThreadSanitizer follows pthread primitives.
///
/// Why `@unchecked Sendable` is safe: its stored properties are immutable pointers to
/// a mutex and a condition variable, which exist to be used from several threads at once.
final class ThreadCondition: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    init() {
        precondition(pthread_mutex_init(mutex, nil) == 0 && pthread_cond_init(condition, nil) == 0,
                     "cannot make a mutex and a condition variable")
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    func lock() { pthread_mutex_lock(mutex) }

    func unlock() { pthread_mutex_unlock(mutex) }

    /// Releases the lock until another thread broadcasts (or spuriously), then takes it back.
    func wait() { pthread_cond_wait(condition, mutex) }

    /// Wakes every waiting thread.
    func broadcast() { pthread_cond_broadcast(condition) }
}
