import Foundation
import StickerKit
import Testing
import TestSupport
@testable import stickerize

/// The live status line: its text, and the command drawing it on a real terminal.
@Suite struct ProgressReporterTests {
    @Test func statusLineSaysDoneOfAllAndTheTimeLeftOnceCounted() {
        #expect(ProgressReporter.statusLine(done: 37, started: 39, failed: 1, seconds: 2, total: nil)
                == "37/39 done, 18.5/s, 1 failed")
        #expect(ProgressReporter.statusLine(done: 30, started: 32, failed: 0, seconds: 3, total: 120)
                == "30 of 120 done, 10.0/s, 9 s left, 0 failed")
        #expect(ProgressReporter.statusLine(done: 0, started: 2, failed: 0, seconds: 0.5, total: 120)
                == "0 of 120 done, 0.0/s, 0 failed", "no rate yet, so no time left")
        #expect(ProgressReporter.statusLine(done: 120, started: 120, failed: 0, seconds: 4, total: 120)
                == "120 of 120 done, 30.0/s, 0 s left, 0 failed")
    }

    @Test(arguments: [(0.2, "1 s"), (59, "59 s"), (59.5, "1 min"), (61, "2 min"), (3540, "59 min"), (3541, "1 h 00 min"),
                      (7_500, "2 h 05 min")])
    func timesLeftAreRoundedUp(seconds: Double, text: String) {
        #expect(ProgressReporter.duration(seconds) == text)
    }

    /// Run under `script`, which gives it a terminal: the status line counts the folder's
    /// photos beside the batch and says how many of them are done.
    @Test func onATerminalTheStatusLineCountsTheInputs() throws {
        let photos = CommandLineTests.photos(30, size: 320)
        let out = TestFiles.temporaryFolder("status-out")
        let command = [CommandRunner().executable.path, photos.path, "--out", out.path, "--no-cache", "-j1"]
            .map { "'" + $0 + "'" }.joined(separator: " ")
        let script = Process()
        script.executableURL = URL(fileURLWithPath: "/usr/bin/script")
        script.arguments = ["-q", "-e", "-c", command, "/dev/null"]
        let output = Pipe()
        script.standardOutput = output
        script.standardInput = FileHandle.nullDevice
        try script.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        script.waitUntilExit()
        #expect(script.terminationStatus == 0, "\(text)")
        let lines = text.components(separatedBy: "\r\u{1B}[K").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
        #expect(lines.contains { $0.contains(" of 30 done, ") && $0.contains(" left, 0 failed") }, "\(lines)")
        #expect(lines.last?.hasPrefix("30 photos: 30 new, 0 cached, 0 failed in ") == true, "\(lines.last ?? "")")
    }
}
