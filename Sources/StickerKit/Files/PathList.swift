import Foundation

/// Paths handed from the thread that reads them (`PathListReader`) to the batch, as they
/// arrive. They pass through a buffer under an `NSLock` (a pthread mutex, which
/// ThreadSanitizer follows); the `AsyncStream` beside it carries only wake-ups. Handed
/// through the stream itself, a path the batch had not asked for yet was ordered only by
/// the stream's own lock, a futex of the Swift runtime's that ThreadSanitizer cannot see,
/// and it reported the hand-over as a race.
///
///     let (list, writer) = PathList.make()
///     writer.add(RawPath("photo.jpg"))      // from any thread
///     writer.finish()
///     for await path in list { print(path.display) }
public struct PathList: AsyncSequence, Sendable {
    public typealias Element = RawPath

    private let buffer: PathBuffer
    private let arrivals: AsyncStream<Void>

    /// An empty list and the writer that fills it.
    public static func make() -> (PathList, Writer) {
        let buffer = PathBuffer()
        let (arrivals, continuation) = AsyncStream<Void>.makeStream()
        return (PathList(buffer: buffer, arrivals: arrivals), Writer(buffer: buffer, arrivals: continuation))
    }

    /// Adds paths to the list, from any thread, and ends it.
    public struct Writer: Sendable {
        fileprivate let buffer: PathBuffer
        fileprivate let arrivals: AsyncStream<Void>.Continuation

        public func add(_ path: RawPath) {
            buffer.append(path)
            arrivals.yield()
        }

        public func finish() { arrivals.finish() }
    }

    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(buffer: buffer, arrivals: arrivals.makeAsyncIterator())
    }

    public struct AsyncIterator: AsyncIteratorProtocol {
        fileprivate let buffer: PathBuffer
        fileprivate var arrivals: AsyncStream<Void>.Iterator
        private var taken: [RawPath] = []
        private var index = 0

        fileprivate init(buffer: PathBuffer, arrivals: AsyncStream<Void>.Iterator) {
            self.buffer = buffer
            self.arrivals = arrivals
        }

        public mutating func next() async -> RawPath? {
            // Each path is in the buffer before its wake-up is sent, so after a wake-up the
            // buffer holds it, or an earlier take already has it.
            while index == taken.count {
                guard await arrivals.next() != nil else { return nil }
                (taken, index) = (buffer.takeAll(), 0)
            }
            defer { index += 1 }
            return taken[index]
        }
    }
}

/// The paths added and not yet taken, under a lock.
///
/// Why `@unchecked Sendable` is safe: its only mutable state, `paths`, is read and written
/// solely inside `append` and `takeAll`, each of which holds `lock` for the whole access
/// (no `await` in between); `lock` itself is immutable and NSLock is thread-safe.
private final class PathBuffer: @unchecked Sendable {
    private let lock = NSLock()
    private var paths: [RawPath] = []

    func append(_ path: RawPath) {
        lock.lock()
        paths.append(path)
        lock.unlock()
    }

    func takeAll() -> [RawPath] {
        lock.lock()
        defer { lock.unlock() }
        let all = paths
        paths = []
        return all
    }
}
