import Glibc

/// How many processors this process may keep busy: the CPUs its affinity mask allows
/// (`taskset`, a container's cpuset), capped by the CPU time its
/// control groups grant, rounded up (a container's `--cpus=2`, a Kubernetes CPU limit:
/// cgroup v2's `cpu.max`, or v1's `cpu.cfs_quota_us` over `cpu.cfs_period_us`, the
/// tightest from the process's own group up to the hierarchy's root; Linux's
/// Documentation/admin-guide/cgroup-v2.rst and scheduler/sched-bwc.rst). Foundation's
/// `activeProcessorCount` counts the machine's online CPUs, so on a 64-core CI host a job
/// allowed two would start 64 photos at once, each holding its pixels, and be throttled.
public enum AvailableProcessors {
    /// The count for this process, read once.
    public static let count: Int = {
        let quota = CPUQuota.read(cgroups: lines(of: "/proc/self/cgroup"), mounts: lines(of: "/proc/self/mountinfo"),
                                  file: { lines(of: $0).first })
        return CPUQuota.processors(affinity: affinityCount(), quota: quota)
    }()

    /// CPUs in the affinity mask (/proc/self/status's `Cpus_allowed`, the mask in hex,
    /// as `sched_getaffinity` gives it), or the online CPUs when it cannot be read.
    static func affinityCount() -> Int {
        let mask = lines(of: "/proc/self/status").first { $0.hasPrefix("Cpus_allowed:") }?.dropFirst("Cpus_allowed:".count)
        let count = mask?.reduce(0) { count, digit in count + (digit.hexDigitValue ?? 0).nonzeroBitCount } ?? 0
        return count > 0 ? count : max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN)))
    }

    /// A text file's lines (without their newlines); none when it cannot be read. Read
    /// by `getline`, since /proc's files say they are empty.
    static func lines(of path: String) -> [String] {
        guard let file = fopen(path, "re") else { return [] }
        defer { fclose(file) }
        var lines: [String] = []
        var buffer: UnsafeMutablePointer<CChar>?
        var capacity = 0
        defer { free(buffer) }
        while getline(&buffer, &capacity, file) >= 0, let buffer {
            var line = String(cString: buffer)
            if line.last == "\n" { line.removeLast() }
            lines.append(line)
        }
        return lines
    }
}
