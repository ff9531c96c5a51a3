/// A set of thread numbers below ``capacity``, the most threads an execution may have, kept
/// in four words: a value with no storage to allocate, whose members come out in ascending
/// order, so that a decision visits only the threads that may take part in it.
struct ThreadSet: Equatable, Sequence {
    /// One more than the largest thread number the set holds.
    static let capacity = 256

    private var word0: UInt64 = 0
    private var word1: UInt64 = 0
    private var word2: UInt64 = 0
    private var word3: UInt64 = 0

    /// An empty set.
    init() {}

    /// Whether the set holds no thread.
    var isEmpty: Bool { word0 | word1 | word2 | word3 == 0 }

    /// Whether `thread` is in the set.
    @inline(__always)
    func contains(_ thread: Int) -> Bool {
        precondition(thread >= 0 && thread < Self.capacity, "T\(thread) is beyond a thread set")
        return word(thread / 64) & (1 << UInt64(thread % 64)) != 0
    }

    /// Adds `thread`, below ``capacity``.
    @inline(__always)
    mutating func insert(_ thread: Int) {
        precondition(thread >= 0 && thread < Self.capacity, "T\(thread) is beyond a thread set")
        setWord(thread / 64, word(thread / 64) | 1 << UInt64(thread % 64))
    }

    /// Removes `thread`, if the set holds it.
    @inline(__always)
    mutating func remove(_ thread: Int) {
        precondition(thread >= 0 && thread < Self.capacity, "T\(thread) is beyond a thread set")
        setWord(thread / 64, word(thread / 64) & ~(1 << UInt64(thread % 64)))
    }

    /// The threads in this set or in `other`.
    func union(_ other: ThreadSet) -> ThreadSet {
        var union = self
        union.word0 |= other.word0
        union.word1 |= other.word1
        union.word2 |= other.word2
        union.word3 |= other.word3
        return union
    }

    /// The members in ascending order.
    struct Iterator: IteratorProtocol {
        /// The members not visited yet, the word being visited first: each word moves down
        /// when the one below it is used up, so that a member takes a few instructions to
        /// find, and the end one test of the words left.
        fileprivate var word0: UInt64
        fileprivate var word1: UInt64
        fileprivate var word2: UInt64
        fileprivate var word3: UInt64
        /// The thread number of `word0`'s lowest bit.
        fileprivate var base = 0

        mutating func next() -> Int? {
            while word0 == 0 {
                guard word1 | word2 | word3 != 0 else { return nil }
                (word0, word1, word2, word3) = (word1, word2, word3, 0)
                base += 64
            }
            let bit = word0.trailingZeroBitCount
            word0 &= word0 - 1
            return base + bit
        }
    }

    func makeIterator() -> Iterator {
        Iterator(word0: word0, word1: word1, word2: word2, word3: word3)
    }

    @inline(__always)
    private func word(_ index: Int) -> UInt64 {
        switch index {
        case 0: word0
        case 1: word1
        case 2: word2
        default: word3
        }
    }

    @inline(__always)
    private mutating func setWord(_ index: Int, _ value: UInt64) {
        switch index {
        case 0: word0 = value
        case 1: word1 = value
        case 2: word2 = value
        default: word3 = value
        }
    }
}
