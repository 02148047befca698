/// The CPU time a process's control groups grant it, in processors' worth per period (2.5:
/// two and a half), from the texts of /proc/self/cgroup and /proc/self/mountinfo and the
/// limit files under the cgroup mounts: v2's `cpu.max` ("200000 100000", or "max 100000"
/// for none), v1's `cpu.cfs_quota_us` (-1 for none) over `cpu.cfs_period_us`. A limit
/// anywhere from the process's own group up to the mount's root binds it, so the tightest
/// counts. A group's path is taken relative to its mount's root, as a container sees its
/// own group at the root of the mount.
enum CPUQuota {
    /// The quota, or nil when no group limits the process. `file` reads a limit file's
    /// first line (nil when there is none).
    static func read(cgroups: [String], mounts: [String], file: (String) -> String?) -> Double? {
        let mounts = mounts.compactMap(Mount.init)
        var tightest: Double?
        for line in cgroups {
            let fields = line.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
            guard fields.count == 3 else { continue }
            let controllers = fields[1].split(separator: ",")
            let version2 = fields[0] == "0" && controllers.isEmpty
            guard version2 || controllers.contains("cpu"),
                  let mount = mounts.first(where: { version2 ? $0.type == "cgroup2" : $0.type == "cgroup" && $0.options.contains("cpu") })
            else { continue }
            for folder in mount.folders(of: String(fields[2])) {
                let limit = version2 ? version2Limit(file(folder + "/cpu.max"))
                                     : version1Limit(quota: file(folder + "/cpu.cfs_quota_us"), period: file(folder + "/cpu.cfs_period_us"))
                if let limit { tightest = min(tightest ?? limit, limit) }
            }
        }
        return tightest
    }

    /// Processors to use: the affinity mask's count, capped by the quota rounded up (two
    /// and a half processors' worth keeps three busy part of the time), at least one.
    static func processors(affinity: Int, quota: Double?) -> Int {
        guard let quota, quota > 0 else { return max(1, affinity) }
        return max(1, min(affinity, Int(quota.rounded(.up))))
    }

    private static func version2Limit(_ line: String?) -> Double? {
        guard let fields = line?.split(separator: " "), fields.count == 2,
              let quota = Double(fields[0]), let period = Double(fields[1]), quota > 0, period > 0 else { return nil }
        return quota / period
    }

    private static func version1Limit(quota: String?, period: String?) -> Double? {
        guard let quota = quota.flatMap(Double.init), let period = period.flatMap(Double.init), quota > 0, period > 0 else { return nil }
        return quota / period
    }

    /// A cgroup file system's mount, from a line of /proc/self/mountinfo (proc(5)).
    struct Mount {
        /// The group at the mount's root, and where it is mounted.
        var root: String
        var point: String
        /// `cgroup` (v1) or `cgroup2`.
        var type: String
        /// The super-block options: a v1 mount's controllers among them.
        var options: [Substring]

        init?(_ line: String) {
            let fields = line.split(separator: " ")
            guard let separator = fields.firstIndex(of: "-"), separator >= 5, separator + 3 < fields.count,
                  fields[separator + 1].hasPrefix("cgroup") else { return nil }
            root = Mount.unescaped(fields[3])
            point = Mount.unescaped(fields[4])
            type = String(fields[separator + 1])
            options = fields[separator + 3].split(separator: ",")
        }

        /// The folders of group `path` from its own up to the mount point.
        func folders(of path: String) -> [String] {
            var relative = ""
            if root == "/" {
                relative = path == "/" ? "" : path
            } else if path == root || path.hasPrefix(root + "/") {
                relative = String(path.dropFirst(root.count))
            }
            var folders: [String] = []
            while true {
                folders.append(point + relative)
                guard let slash = relative.lastIndex(of: "/") else { return folders }
                relative = String(relative[..<slash])
            }
        }

        /// mountinfo writes a space, tab, newline or backslash in a path as `\ooo` (octal).
        private static func unescaped(_ field: Substring) -> String {
            var bytes: [UInt8] = []
            var rest = Array(field.utf8)[...]
            while let byte = rest.first {
                if byte == UInt8(ascii: "\\"), rest.count >= 4,
                   let code = UInt8(String(decoding: rest.dropFirst().prefix(3), as: UTF8.self), radix: 8) {
                    bytes.append(code)
                    rest = rest.dropFirst(4)
                } else {
                    bytes.append(byte)
                    rest = rest.dropFirst()
                }
            }
            return String(decoding: bytes, as: UTF8.self)
        }
    }
}
