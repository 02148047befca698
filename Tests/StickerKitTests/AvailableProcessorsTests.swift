@testable import StickerKit
import Testing

/// The default job count: the affinity mask capped by the control groups' CPU quota, read
/// from /proc's texts as a container, a CI runner or a systemd slice shows them.
@Suite struct AvailableProcessorsTests {
    private static let version2Mount = "31 23 0:26 / /sys/fs/cgroup rw,nosuid,nodev,noexec,relatime shared:9 - cgroup2 cgroup2 rw,nsdelegate"

    private func quota(_ cgroups: [String], _ mounts: [String], _ files: [String: String]) -> Double? {
        CPUQuota.read(cgroups: cgroups, mounts: mounts, file: { files[$0] })
    }

    @Test func aContainersVersion2LimitAtTheMountsRoot() {
        // docker run --cpus=2 on a 64-core host: the container sees its group as the root.
        let limit = quota(["0::/"], [Self.version2Mount], ["/sys/fs/cgroup/cpu.max": "200000 100000"])
        #expect(limit == 2)
        #expect(CPUQuota.processors(affinity: 64, quota: limit) == 2)
        #expect(quota(["0::/"], [Self.version2Mount], ["/sys/fs/cgroup/cpu.max": "max 100000"]) == nil)
    }

    @Test func theTightestLimitFromTheGroupUpToTheRootBinds() {
        let files = ["/sys/fs/cgroup/ci/cpu.max": "150000 100000", "/sys/fs/cgroup/ci/job/cpu.max": "max 100000",
                     "/sys/fs/cgroup/cpu.max": "400000 100000"]
        let limit = quota(["0::/ci/job"], [Self.version2Mount], files)
        #expect(limit == 1.5)
        #expect(CPUQuota.processors(affinity: 8, quota: limit) == 2, "a part of a processor keeps one more busy part of the time")
    }

    @Test func aVersion1LimitUnderAMountOfSeveralControllers() {
        // cgroup v1 without a cgroup namespace: the group's path repeats the mount's root.
        let mounts = ["35 25 0:30 /docker/abc /sys/fs/cgroup/cpu,cpuacct ro,nosuid - cgroup cgroup rw,cpu,cpuacct",
                      "36 25 0:31 /docker/abc /sys/fs/cgroup/memory ro,nosuid - cgroup cgroup rw,memory", Self.version2Mount]
        let cgroups = ["5:memory:/docker/abc", "4:cpu,cpuacct:/docker/abc", "0::/"]
        let files = ["/sys/fs/cgroup/cpu,cpuacct/cpu.cfs_quota_us": "50000", "/sys/fs/cgroup/cpu,cpuacct/cpu.cfs_period_us": "100000"]
        let limit = quota(cgroups, mounts, files)
        #expect(limit == 0.5)
        #expect(CPUQuota.processors(affinity: 4, quota: limit) == 1)
        let unlimited = ["/sys/fs/cgroup/cpu,cpuacct/cpu.cfs_quota_us": "-1", "/sys/fs/cgroup/cpu,cpuacct/cpu.cfs_period_us": "100000"]
        #expect(quota(cgroups, mounts, unlimited) == nil)
    }

    @Test func aMountPointWithASpaceIsUnescaped() {
        let mount = #"40 31 0:40 / /mnt/my\040cgroups rw - cgroup2 none rw"#
        #expect(quota(["0::/a"], [mount], ["/mnt/my cgroups/a/cpu.max": "300000 100000"]) == 3)
    }

    @Test func noQuotaOrAnUnreadableOneLeavesTheAffinityMask() {
        #expect(quota([], [], [:]) == nil)
        #expect(quota(["0::/"], [Self.version2Mount], ["/sys/fs/cgroup/cpu.max": "garbage"]) == nil)
        #expect(CPUQuota.processors(affinity: 3, quota: nil) == 3)
        #expect(CPUQuota.processors(affinity: 3, quota: 8) == 3, "a quota never adds processors")
    }

    /// /proc's files say they are empty; they are read to their end all the same.
    @Test func thisProcessesOwnFilesAreRead() {
        #expect(AvailableProcessors.lines(of: "/proc/self/status").contains { $0.hasPrefix("Cpus_allowed:") })
        #expect(AvailableProcessors.affinityCount() >= 1)
        #expect(AvailableProcessors.count >= 1 && AvailableProcessors.count <= AvailableProcessors.affinityCount())
    }
}
