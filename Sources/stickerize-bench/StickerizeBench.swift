import Foundation

/// Measurements that need StickerKit itself, run by `Scripts/bench` and
/// `Scripts/bench-colors`:
///
///     stickerize-bench palette [--colors N] FILE...   palette fidelity, stability, speed
///     stickerize-bench png-size DIR                    sticker bytes vs libpng's defaults
@main
enum StickerizeBench {
    static func main() throws {
        let arguments = Array(CommandLine.arguments.dropFirst())
        switch arguments.first {
        case "palette": try PaletteBench.run(Array(arguments.dropFirst()))
        case "png-size": try PNGSizeBench.run(Array(arguments.dropFirst()))
        default:
            FileHandle.standardError.write(Data("usage: stickerize-bench palette FILE... | png-size DIR\n".utf8))
            exit(2)
        }
    }
}

/// One target's verdict line.
enum BenchReport {
    static func line(_ target: String, _ passed: Bool) {
        print((passed ? "PASS " : "FAIL ") + target)
    }
}
