import Foundation

/// Which sanitizer the tests (and the binary they run, built the same way) carry.
public enum Sanitizers {
    /// True under `swift test --sanitize=thread`: its runtime is linked into the process.
    public static var threadSanitizerIsActive: Bool {
        dlsym(nil, "__tsan_init") != nil
    }
}
