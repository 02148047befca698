import FoundationEssentials

/// Paths handed from the thread that reads them (`PathListReader`) to the batch, as they
/// arrive. They pass through a buffer under a `ThreadCondition` (a pthread mutex, which
/// ThreadSanitizer follows); the `AsyncStream` beside it carries only wake-ups. Handed
/// through the stream itself, a path the batch had not asked for yet was ordered only by
/// the stream's own lock, a futex of the Swift runtime's that ThreadSanitizer cannot see,
/// and it reported the hand-over as a race.
///
/// The buffer holds at most `capacity` paths: a writer that runs ahead of the batch waits
/// (its own thread, never the cooperative pool) until the batch takes them, so however
/// long the list, no more than that is read ahead into memory. Once the batch stops
/// reading (its list and iterator are gone), writers no longer wait and their paths are
/// dropped.
///
///     let (list, writer) = PathList.make()
///     writer.add(RawPath("photo.jpg"))      // from a thread of its own
///     writer.finish()
///     for await path in list { print(path.display) }
public struct PathList: AsyncSequence, Sendable {
    public typealias Element = RawPath

    /// The most paths held that the batch has not taken yet.
    public static let capacity = 1024

    private let reader: Reader
    private let arrivals: AsyncStream<Void>

    /// An empty list and the writer that fills it. Internal: outside StickerKit, path lists
    /// come from `PathListReader`, whose thread of its own is the one that may wait.
    static func make() -> (PathList, Writer) {
        let buffer = PathBuffer()
        // One pending wake-up says all there is to say: whatever is in the buffer.
        let (arrivals, continuation) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        return (PathList(reader: Reader(buffer: buffer), arrivals: arrivals), Writer(buffer: buffer, arrivals: continuation))
    }

    /// Adds paths to the list and ends it. `add` blocks while the buffer is full, so call
    /// it from a thread of its own, not from a task.
    struct Writer: Sendable {
        fileprivate let buffer: PathBuffer
        fileprivate let arrivals: AsyncStream<Void>.Continuation

        func add(_ path: RawPath) {
            buffer.append(path)
            arrivals.yield()
        }

        func finish() { arrivals.finish() }
    }

    /// Read it once: a second iterator would find the paths the first took gone.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(reader: reader, arrivals: arrivals.makeAsyncIterator())
    }

    public struct AsyncIterator: AsyncIteratorProtocol {
        fileprivate let reader: Reader
        fileprivate var arrivals: AsyncStream<Void>.Iterator
        private var taken: [RawPath] = []
        private var index = 0

        fileprivate init(reader: Reader, arrivals: AsyncStream<Void>.Iterator) {
            self.reader = reader
            self.arrivals = arrivals
        }

        public mutating func next() async -> RawPath? {
            // Each path is in the buffer before its wake-up is sent, so after a wake-up the
            // buffer holds it, or an earlier take already has it.
            while index == taken.count {
                guard await arrivals.next() != nil else { return nil }
                (taken, index) = (reader.buffer.takeAll(), 0)
            }
            defer { index += 1 }
            return taken[index]
        }
    }

    /// The reading side's hold on the buffer: when the last copy of the list and of its
    /// iterator goes, writers stop waiting for a reader.
    fileprivate final class Reader: Sendable {
        let buffer: PathBuffer

        init(buffer: PathBuffer) { self.buffer = buffer }

        deinit { buffer.close() }
    }
}

/// The paths added and not yet taken, at most `PathList.capacity` of them, under a lock.
///
/// Why `@unchecked Sendable` is safe: its only mutable state, `paths` and `closed`, is
/// read and written solely inside `append`, `takeAll` and `close`, each of which holds
/// `condition`'s lock for the whole access (no `await` in between; `append`'s wait
/// releases the lock and takes it back before reading again); `condition` itself is
/// immutable and a `ThreadCondition` is thread-safe.
private final class PathBuffer: @unchecked Sendable {
    private let condition = ThreadCondition()
    private var paths: [RawPath] = []
    private var closed = false

    /// Adds `path`, first waiting while the buffer is full; drops it once nobody reads.
    func append(_ path: RawPath) {
        condition.lock()
        defer { condition.unlock() }
        // A plain thread's wait, not a task's: only `Writer.add` calls this, and writers
        // are internal: `PathListReader`'s own thread holds one, as do the tests' threads.
        while paths.count >= PathList.capacity && !closed { condition.wait() }
        if !closed { paths.append(path) }
    }

    /// Everything added so far, in order, leaving the buffer empty; wakes waiting writers.
    func takeAll() -> [RawPath] {
        condition.lock()
        defer { condition.unlock() }
        let all = paths
        paths = []
        condition.broadcast()
        return all
    }

    /// Nobody reads any more: waiting writers go on, and what they add is dropped.
    func close() {
        condition.lock()
        defer { condition.unlock() }
        closed = true
        paths = []
        condition.broadcast()
    }
}
