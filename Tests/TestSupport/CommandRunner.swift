import Foundation

/// Runs a built binary (`stickerize`, or the library example) and captures what it does.
public struct CommandRunner: Sendable {
    public struct Result: Sendable {
        public var status: Int32
        public var standardOutput: String
        public var standardError: String
    }

    public let executable: URL

    /// The executable (`stickerize` unless named) built next to the test bundle.
    public init(_ name: String = "stickerize") {
        let buildFolder = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        var candidate = buildFolder.appendingPathComponent(name)
        // Under `swift test` the test binary may sit inside an .xctest bundle.
        if !FileManager.default.isExecutableFile(atPath: candidate.path) {
            candidate = buildFolder.deletingLastPathComponent().appendingPathComponent(name)
        }
        executable = candidate
    }

    /// Another program (a wrapper such as `setpriv` that then runs the built binary).
    public init(executable: URL) {
        self.executable = executable
    }

    /// Blocks this thread for `milliseconds`. Tests that time a signal against a running
    /// command use it rather than `Task.sleep`: the suite's CPU-bound tests hold the
    /// cooperative pool's threads for seconds at a time, so an awaiting test can resume
    /// after the command it meant to interrupt has finished.
    public static func pause(milliseconds: Int) {
        Thread.sleep(forTimeInterval: Double(milliseconds) / 1000)
    }

    /// Starts the command; the caller waits (and may signal it first). Standard output goes
    /// to the returned pipe, or to `standardOutput` when given (a device, a pipe nobody
    /// reads), and the pipe then stays empty.
    public func start(_ arguments: [String], input: Data? = nil, environment: [String: String] = [:],
                      directory: URL? = nil, standardOutput: FileHandle? = nil) throws -> (Process, Pipe, Pipe) {
        let (process, output, error, held) = try startHoldingInput(arguments, input: input ?? Data(), environment: environment,
                                                                   directory: directory, standardOutput: standardOutput)
        try held.close()
        return (process, output, error)
    }

    /// Starts the command as `start` does, but leaves its standard input open after `input`
    /// (returned, for the caller to close): a run reading paths from `-` cannot end on its own.
    public func startHoldingInput(_ arguments: [String], input: Data, environment: [String: String] = [:],
                                  directory: URL? = nil,
                                  standardOutput: FileHandle? = nil) throws -> (Process, Pipe, Pipe, FileHandle) {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        var merged = ProcessInfo.processInfo.environment
        merged["XDG_CACHE_HOME"] = TestFiles.processFolder.appendingPathComponent("cache").path
        for (key, value) in environment { merged[key] = value }
        process.environment = merged
        if let directory { process.currentDirectoryURL = directory }
        let output = Pipe(), error = Pipe()
        process.standardOutput = standardOutput ?? output
        process.standardError = error
        let inputPipe = Pipe()
        process.standardInput = inputPipe
        try process.run()
        if standardOutput != nil { try output.fileHandleForWriting.close() }
        if !input.isEmpty { inputPipe.fileHandleForWriting.write(input) }
        return (process, output, error, inputPipe.fileHandleForWriting)
    }

    /// Runs to the end.
    public func run(_ arguments: [String], input: Data? = nil, environment: [String: String] = [:],
                    directory: URL? = nil, standardOutput: FileHandle? = nil) throws -> Result {
        let (process, output, error) = try start(arguments, input: input, environment: environment, directory: directory,
                                                 standardOutput: standardOutput)
        let out = output.fileHandleForReading.readDataToEndOfFile()
        let err = error.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(status: process.terminationStatus, standardOutput: String(decoding: out, as: UTF8.self),
                      standardError: String(decoding: err, as: UTF8.self))
    }
}
