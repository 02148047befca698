import Foundation
import Glibc
import Testing
import TestSupport
@testable import stickerize

/// Standard output that stops taking data, and names that would break a line: a full
/// device is an error (exit 1, one line why), a reader that went away ends `--list` as
/// SIGPIPE would (141) but not the batch, and control characters in file names are
/// escaped on the lines people read while `--json` keeps them exactly.
@Suite struct StandardOutputTests {
    let runner = CommandRunner()

    /// Writing end of a FIFO whose reading end is already closed: every write is EPIPE.
    /// Both ends are opened close-on-exec, so no other test's child can hold the reading
    /// end open.
    private func pipeWithoutReader() throws -> FileHandle {
        let fifo = TestFiles.temporaryFolder("stdout-fifo").appendingPathComponent("fifo")
        try #require(mkfifo(fifo.path, 0o600) == 0)
        let reader = open(fifo.path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        let writer = open(fifo.path, O_WRONLY | O_CLOEXEC)
        try #require(reader >= 0 && writer >= 0)
        close(reader)
        return FileHandle(fileDescriptor: writer, closeOnDealloc: true)
    }

    @Test func aFullStandardOutputIsAnErrorNotASilentSuccess() throws {
        let photos = CommandLineTests.photos(2)
        let out = TestFiles.temporaryFolder("stdout-out")
        let full = try #require(FileHandle(forWritingAtPath: "/dev/full"))
        let message = "stickerize: cannot write standard output: No space left on device\n"

        let batch = try runner.run([photos.path, "--out", out.path, "--no-cache", "--json", "-q"], standardOutput: full)
        #expect(batch.status == 1)
        #expect(batch.standardError == message, "said once, and the batch went on")
        #expect(try TestFiles.stickers(in: out).keys.sorted() == ["p000.png", "p001.png"])

        let list = try runner.run([photos.path, "--out", out.path, "--list"], standardOutput: full)
        #expect(list.status == 1)
        #expect(list.standardError == message, "the listing stops: no summary of lines never written")

        for flag in ["--help", "--version"] {
            let shown = try runner.run([flag], standardOutput: full)
            #expect(shown.status == 1, "\(flag)")
            #expect(shown.standardError == message, "\(flag)")
        }
    }

    @Test func aReaderThatWentAwayEndsTheListingButNotTheBatch() throws {
        let photos = CommandLineTests.photos(3)
        let out = TestFiles.temporaryFolder("stdout-out")
        let list = try runner.run([photos.path, "--out", out.path, "--list", "--no-cache"], standardOutput: try pipeWithoutReader())
        #expect(list.status == 141)
        #expect(list.standardError.isEmpty, "\(list.standardError)")

        let batch = try runner.run([photos.path, "--out", out.path, "--no-cache", "--json"], standardOutput: try pipeWithoutReader())
        #expect(batch.status == 0, "\(batch.standardError)")
        #expect(batch.standardError.hasPrefix("3 photos: 3 new, 0 cached, 0 failed"), "\(batch.standardError)")
        #expect(try TestFiles.stickers(in: out).count == 3)
    }

    /// The help and the version are written before the batch starts: a reader gone by then
    /// stops them with 141 too, not SIGPIPE (which the runner would report as 13).
    @Test(arguments: ["--help", "--version"])
    func aReaderThatWentAwayStopsTheHelpQuietly(flag: String) throws {
        let shown = try runner.run([flag], standardOutput: try pipeWithoutReader())
        #expect(shown.status == 141)
        #expect(shown.standardError.isEmpty, "\(shown.standardError)")
    }

    @Test(arguments: [("plain/naïve café.jpg", "plain/naïve café.jpg"), ("a\tb\nc\rd", "a\\tb\\nc\\rd"),
                      ("\u{0}\u{1B}\u{7F}", "\\x00\\x1B\\x7F"), ("csi\u{9B}2J", "csi\\xC2\\x9B2J"),
                      ("already \\x41 \\n", "already \\x41 \\n")])
    func controlCharactersAreEscaped(text: String, escaped: String) {
        #expect(text.escapingControlCharacters == escaped)
    }

    @Test func controlCharactersInFileNamesAreEscapedOnTheLinesPeopleRead() throws {
        let photos = TestFiles.temporaryFolder("stdout-names")
        let names = ["bad\nname.jpg", "red\u{1B}[31m.jpg"]
        for name in names { try Data("not an image".utf8).write(to: photos.appendingPathComponent(name)) }
        let out = TestFiles.temporaryFolder("stdout-out")

        let result = try runner.run([photos.path, "--out", out.path, "--no-cache", "--json"])
        #expect(result.status == 1)
        let reason = "not a PNG, JPEG, WebP, TIFF, GIF, JPEG XL, HEIC or AVIF image"
        let lines = result.standardError.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.prefix(2).sorted() == [
            "stickerize: \(photos.path)/bad\\nname.jpg: \(reason)",
            "stickerize: \(photos.path)/red\\x1B[31m.jpg: \(reason)",
        ], "\(result.standardError)")
        #expect(!result.standardError.contains("\u{1B}"))
        let sources = try result.standardOutput.split(separator: "\n").map { line in
            try #require(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])["source"] as? String
        }
        #expect(Set(sources.compactMap { $0 }) == Set(names.map { "\(photos.path)/\($0)" }), "JSON keeps the names exactly")

        let list = try runner.run([photos.path, "--out", out.path, "--list", "--no-cache"])
        #expect(list.standardOutput.split(separator: "\n").sorted() == [
            "new    \(photos.path)/bad\\nname.jpg -> bad\\nname.png",
            "new    \(photos.path)/red\\x1B[31m.jpg -> red\\x1B[31m.png",
        ], "a dry run hashes the files, it does not decode them: \(list.standardOutput)")
    }
}
