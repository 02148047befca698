import Foundation
@testable import StickerKit
import Synchronization
import Testing

/// The hand-over of paths from a reading thread to the batch: every path, in order, once,
/// whether the batch waits for the thread or the thread runs ahead (the case where a
/// stream's own lock hid the ordering from ThreadSanitizer); a thread that runs ahead
/// waits once the list holds `PathList.capacity` paths, and stops waiting when nobody
/// reads any more.
@Suite struct PathListTests {
    /// How many paths the writing thread has handed over, and whether it has finished.
    /// Atomics rather than a `Mutex`, whose futex ThreadSanitizer does not see as a lock
    /// (it reported the counter's increment and a poll of it, both under the lock, as a race).
    final class Progress: Sendable {
        let added = Atomic(0)
        let finished = Atomic(false)

        var addedCount: Int { added.load(ordering: .sequentiallyConsistent) }
        var hasFinished: Bool { finished.load(ordering: .sequentiallyConsistent) }

        /// Polls `condition` every 10 ms for up to 30 s; whether it came true.
        func eventually(_ condition: (Progress) -> Bool) async throws -> Bool {
            for _ in 0..<3000 {
                if condition(self) { return true }
                try await Task.sleep(for: .milliseconds(10))
            }
            return condition(self)
        }
    }

    /// Starts a thread that adds `names` to `writer` and then ends the list.
    static func write(_ names: [String], to writer: PathList.Writer, bursts: Bool = false) -> Progress {
        let progress = Progress()
        Thread {
            for (index, name) in names.enumerated() {
                writer.add(RawPath(name))
                progress.added.add(1, ordering: .sequentiallyConsistent)
                if bursts && index % 100 == 99 { usleep(200) }   // arrivals in bursts
            }
            writer.finish()
            progress.finished.store(true, ordering: .sequentiallyConsistent)
        }.start()
        return progress
    }

    @Test(arguments: [false, true])
    func aThreadHandsOverEveryPathInOrder(threadRunsAhead: Bool) async throws {
        let (list, writer) = PathList.make()
        let names = (0..<(2 * PathList.capacity + 500)).map { "photos/\($0).jpg" }
        let progress = Self.write(names, to: writer, bursts: true)
        if threadRunsAhead {
            // The thread fills the list before the batch asks for any of it, then waits.
            #expect(try await progress.eventually { $0.addedCount == PathList.capacity })
            try await Task.sleep(for: .milliseconds(100))
            #expect(progress.addedCount == PathList.capacity)
        }
        var received: [String] = []
        for await path in list { received.append(path.display) }
        #expect(received == names)
        #expect(try await progress.eventually { $0.hasFinished })
    }

    @Test func aWriterStopsWaitingWhenNobodyReads() async throws {
        let names = (0..<(3 * PathList.capacity)).map { "photos/\($0).jpg" }
        let progress: Progress
        do {
            let (list, writer) = PathList.make()
            progress = Self.write(names, to: writer)
            var received: [String] = []
            for await path in list {
                received.append(path.display)
                if received.count == 10 { break }
            }
            #expect(received == Array(names.prefix(10)))
        }
        #expect(try await progress.eventually { $0.hasFinished })
        #expect(progress.addedCount == names.count)
    }
}
