import CImageCodecs
import FoundationEssentials

/// The SHA-256 of a file's bytes (through libcrypto), as `sha256sum` prints it.
public struct ContentHash: Sendable, Hashable, CustomStringConvertible {
    public let hex: String

    public init(of data: Data) {
        var digest = [UInt8](repeating: 0, count: 32)
        data.withUnsafeBytes { raw in
            cic_sha256(raw.bindMemory(to: UInt8.self).baseAddress, raw.count, &digest)
        }
        hex = digest.map { $0.hexDigits() }.joined()
    }

    /// A hash as 64 lowercase hex digits; nil for anything else.
    init?(hex: String) {
        guard hex.utf8.count == 64, hex.utf8.allSatisfy(\.isLowercaseHexDigit) else {
            return nil
        }
        self.hex = hex
    }

    public var description: String { hex }
}
