import Foundation
@testable import StickerKit
import Testing

/// The hand-over of paths from a reading thread to the batch: every path, in order, once,
/// whether the batch waits for the thread or the thread runs ahead (the case where a
/// stream's own lock hid the ordering from ThreadSanitizer).
@Suite struct PathListTests {
    @Test(arguments: [false, true])
    func aThreadHandsOverEveryPathInOrder(threadRunsAhead: Bool) async {
        let (list, writer) = PathList.make()
        let names = (0..<2000).map { "photos/\($0).jpg" }
        let done = DispatchGroup()
        done.enter()
        let thread = Thread {
            for (index, name) in names.enumerated() {
                writer.add(RawPath(name))
                if index % 100 == 99 { usleep(200) }   // arrivals in bursts
            }
            writer.finish()
            done.leave()
        }
        thread.start()
        if threadRunsAhead {
            // Let the whole list be buffered before the batch asks for any of it.
            await withCheckedContinuation { continuation in
                done.notify(queue: .global()) { continuation.resume() }
            }
        }
        var received: [String] = []
        for await path in list { received.append(path.display) }
        #expect(received == names)
    }
}
