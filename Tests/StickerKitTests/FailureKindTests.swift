import Foundation
@testable import StickerKit
import Testing

/// Each error an input can meet has its stable word, and the words are the documented ones.
@Suite struct FailureKindTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var error: any Error & Sendable
        var kind: FailureKind
        var testDescription: String { "\(error) -> \(kind.rawValue)" }
    }

    struct ForeignError: Error {}

    @Test(arguments: [
        Case(error: InputFileError.cannotOpen(reason: "No such file or directory"), kind: .unreadable),
        Case(error: InputFileError.cannotRead(reason: "Input/output error"), kind: .unreadable),
        Case(error: InputFileError.notARegularFile, kind: .unreadable),
        Case(error: InputFileError.empty, kind: .notAnImage),
        Case(error: CodecError.unrecognizedFormat, kind: .notAnImage),
        Case(error: CodecError.corrupt(reason: "bad CRC"), kind: .corrupt),
        Case(error: CodecError.unsupported(reason: "12-bit JPEG"), kind: .unsupported),
        Case(error: CodecError.tooManyPixels(width: 9, height: 9, limit: 80), kind: .tooLarge),
        Case(error: CodecError.outOfMemory, kind: .tooLarge),
        Case(error: StickerError.noSubjectFound, kind: .noSubject),
        Case(error: PresetError.overByteLimit(preset: .telegram, bytes: 600_000, limit: 512 * 1024), kind: .overPresetLimit),
        Case(error: FileWriteError.cannotWrite(path: "/out/a.png", reason: "File too large"), kind: .unwritable),
        Case(error: InputInsideOutputFolder(folder: "/out"), kind: .insideOutputFolder),
        Case(error: ForeignError(), kind: .other),
    ])
    func everyErrorHasItsKind(_ example: Case) {
        #expect(FailureKind(example.error) == example.kind)
    }

    @Test func theWordsAreTheOnesScriptsMatch() {
        #expect(FailureKind.allCases.map(\.rawValue) == [
            "unreadable", "not-an-image", "corrupt", "unsupported", "too-large", "no-subject", "over-preset-limit",
            "unwritable", "inside-output-folder", "other",
        ])
    }
}
