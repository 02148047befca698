import Foundation

/// Test inputs made by a format's own command-line encoder (Scripts/bootstrap --test
/// installs them): libheif's `heif-enc` for HEIC and AVIF, libjxl's `cjxl` for JPEG XL.
/// The picture is the test's own, written to a file first.
public enum ExternalEncoder {
    /// The encoder exited with a failure status.
    public enum EncoderError: Error { case failed(tool: String, status: Int32) }

    /// `input` (a PNG's or JPEG's bytes, named with `inputExtension`) encoded by `tool`,
    /// whose command line `arguments` builds from the input and output paths.
    public static func encode(_ input: Data, inputExtension: String = "png", tool: String, outputExtension: String,
                              arguments: (_ input: String, _ output: String) -> [String]) throws -> Data {
        let folder = TestFiles.temporaryFolder("encoder")
        let source = folder.appendingPathComponent("in.\(inputExtension)")
        let output = folder.appendingPathComponent("out.\(outputExtension)")
        try input.write(to: source)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments(source.path, output.path)
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw EncoderError.failed(tool: tool, status: process.terminationStatus) }
        return try Data(contentsOf: output)
    }

    /// `input` as HEIC (or AVIF with `-A` among `options`) by `heif-enc`.
    public static func heif(_ input: Data, options: [String]) throws -> Data {
        try encode(input, tool: "/usr/bin/heif-enc", outputExtension: "heif") { options + ["-o", $1, $0] }
    }

    /// `input` as JPEG XL by `cjxl`: `-d 0` lossless (a JPEG input is then transcoded
    /// losslessly, its EXIF orientation kept), `-d 1` visually lossless.
    public static func jxl(_ input: Data, inputExtension: String = "png", options: [String]) throws -> Data {
        try encode(input, inputExtension: inputExtension, tool: "/usr/bin/cjxl", outputExtension: "jxl") { [$0, $1] + options }
    }
}
