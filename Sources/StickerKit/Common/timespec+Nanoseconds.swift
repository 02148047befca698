import Glibc

extension timespec {
    /// The wall clock now (`CLOCK_REALTIME`, the clock file times are set from).
    static var wallClockNow: timespec {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return now
    }

    /// The time as nanoseconds since the epoch.
    var nanoseconds: Int64 { Int64(tv_sec) * 1_000_000_000 + Int64(tv_nsec) }
}
