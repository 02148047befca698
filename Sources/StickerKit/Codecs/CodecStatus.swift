import CImageCodecs

/// The one place that turns a C shim's status code and message into a typed `CodecError`
/// (the pattern of swift-nio's `syscall(blocking:where:_:)`).
enum CodecStatus {
    /// Runs `body` with a message buffer the shim fills, throwing when it fails.
    static func check(
        _ body: (_ message: UnsafeMutablePointer<CChar>, _ capacity: Int) -> cic_status,
        tooManyPixels: () -> CodecError = { .corrupt(reason: "pixel budget exceeded") }
    ) throws(CodecError) {
        var buffer = [CChar](repeating: 0, count: Int(CIC_MESSAGE_CAPACITY))
        let status = buffer.withUnsafeMutableBufferPointer { body($0.baseAddress!, $0.count) }
        guard status != CIC_OK else { return }
        let message = buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        switch status {
        case CIC_ERR_TOO_MANY_PIXELS: throw tooManyPixels()
        case CIC_ERR_UNSUPPORTED: throw .unsupported(reason: message)
        case CIC_ERR_OUT_OF_MEMORY: throw .outOfMemory
        default: throw .corrupt(reason: message.isEmpty ? "unreadable data" : message)
        }
    }
}
