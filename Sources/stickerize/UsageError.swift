/// A command-line mistake, with a one-line message a person can act on.
struct UsageError: Error, Equatable, CustomStringConvertible {
    var message: String

    init(_ message: String) {
        self.message = message
    }

    var description: String { message }

    /// The line printed after the message.
    static let hint = "Run 'stickerize --help' for usage."
}
