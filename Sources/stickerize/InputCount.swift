import StickerKit
import Synchronization

/// How many inputs the batch has, counted beside it so the status line can say how many
/// are left: a second pass over the same inputs that walks the folders and names the
/// outputs as the batch does (its shard included) but opens no file. Unknown until the
/// count ends, and for a path list read from standard input, which can be read only once.
final class InputCount: Sendable {
    /// The count, or -1 while unknown.
    private let counted = Atomic<Int>(-1)

    var total: Int? {
        let value = counted.load(ordering: .relaxed)
        return value < 0 ? nil : value
    }

    /// Counts `inputs`; stops, leaving the total unknown, when cancelled.
    func count(_ inputs: BatchInputs) async {
        var count = 0
        for await _ in inputs {
            count += 1
            if count % 512 == 0 {
                await Task.yield()
                if Task.isCancelled { return }
            }
        }
        counted.store(count, ordering: .relaxed)
    }
}
