import FoundationEssentials
import Glibc

/// A file path as the bytes the kernel stores, which need not be UTF-8: a folder copied
/// from an old camera card can hold `IMG\xE9.jpg` in Latin-1. Swift strings would replace
/// such bytes with U+FFFD and the file could no longer be opened, so walks and path lists
/// carry `RawPath` and open files by their bytes; people and JSON see `display`.
public struct RawPath: Sendable, Hashable, Comparable {
    /// The path's bytes, without a terminating NUL.
    public private(set) var bytes: [UInt8]

    public init(_ path: String) { bytes = Array(path.utf8) }

    public init(bytes: some Sequence<UInt8>) { self.bytes = Array(bytes) }

    /// The path with `name` appended as one more component.
    public func appending(_ name: [UInt8]) -> RawPath {
        RawPath(bytes: bytes.isEmpty ? name : bytes + (bytes.last == UInt8(ascii: "/") ? [] : [UInt8(ascii: "/")]) + name)
    }

    /// The last component's bytes.
    public var lastComponent: ArraySlice<UInt8> {
        let trimmed = bytes.last == UInt8(ascii: "/") ? bytes.dropLast() : bytes[...]
        guard let slash = trimmed.lastIndex(of: UInt8(ascii: "/")) else { return trimmed }
        return trimmed[(slash + 1)...]
    }

    /// The path for people, manifests and output names: valid UTF-8 as it is, every byte
    /// of an invalid sequence written as `\xNN`.
    public var display: String {
        if let valid = String(validating: bytes, as: UTF8.self) { return valid }
        var text = ""
        var index = 0
        while index < bytes.count {
            let length = RawPath.sequenceLength(lead: bytes[index])
            if index + length <= bytes.count,
               let scalar = String(validating: bytes[index..<index + length], as: UTF8.self) {
                text += scalar
                index += length
            } else {
                text += "\\x" + bytes[index].hexDigits(uppercase: true)
                index += 1
            }
        }
        return text
    }

    /// The absolute path with every link, `.` and `..` resolved (`realpath`), or nil when
    /// the path does not lead anywhere (or cannot be read on the way).
    public var resolved: RawPath? {
        withCString { path in
            guard let real = realpath(path, nil) else { return nil }
            defer { free(real) }
            return RawPath(bytes: UnsafeRawBufferPointer(start: real, count: strlen(real)))
        }
    }

    /// Calls `body` with the path as a NUL-terminated C string, for `open`, `stat` and co.
    public func withCString<Result>(_ body: (UnsafePointer<CChar>) throws -> Result) rethrows -> Result {
        try (bytes + [0]).withUnsafeBufferPointer { buffer in
            try buffer.withMemoryRebound(to: CChar.self) { try body($0.baseAddress!) }
        }
    }

    /// Byte order: deterministic whatever the encoding, and code-point order for UTF-8.
    public static func < (lhs: RawPath, rhs: RawPath) -> Bool { lhs.bytes.lexicographicallyPrecedes(rhs.bytes) }

    /// Bytes a UTF-8 sequence starting with `lead` claims (1 for a byte that cannot lead).
    private static func sequenceLength(lead: UInt8) -> Int {
        switch lead {
        case 0xC2...0xDF: return 2
        case 0xE0...0xEF: return 3
        case 0xF0...0xF4: return 4
        default: return 1
        }
    }
}
