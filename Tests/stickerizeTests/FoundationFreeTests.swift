import Foundation
import Testing

/// StickerKit and the command use FoundationEssentials and Glibc, not Foundation: linking
/// Foundation brings its ICU data along and made the release binary three times the size
/// (75 MB against 26) and slower to start. Any Foundation API (`FileHandle`, `NSCondition`,
/// `String(format:)`, ...) needs its import, so no source of theirs may have one.
@Suite struct FoundationFreeTests {
    private let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    @Test(arguments: ["Sources/StickerKit", "Sources/stickerize"])
    func sourcesDoNotImportFoundation(_ folder: String) throws {
        let directory = root.appendingPathComponent(folder)
        let files = try #require(FileManager.default.enumerator(atPath: directory.path)).compactMap { $0 as? String }
            .filter { $0.hasSuffix(".swift") }
        #expect(files.count > 10)
        for file in files {
            let text = try String(contentsOf: directory.appendingPathComponent(file), encoding: .utf8)
            // `import Foundation`, also behind attributes (`@preconcurrency import Foundation`).
            let importsFoundation = text.split(separator: "\n").contains { $0.split(separator: " ").suffix(2) == ["import", "Foundation"] }
            #expect(!importsFoundation, "\(folder)/\(file) imports Foundation")
        }
    }
}
