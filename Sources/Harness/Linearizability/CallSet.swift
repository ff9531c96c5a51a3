/// A set of calls, by their index among the calls searched: a bitset whose first 64 members
/// live inline, so searching up to 64 calls allocates nothing per step.
@usableFromInline
struct CallSet: Hashable {
    @usableFromInline var low: UInt64 = 0
    @usableFromInline var high: [UInt64] = []

    @inlinable init() {}

    @inlinable
    mutating func insert(_ call: Int) {
        if call < 64 {
            low |= 1 << UInt64(call)
            return
        }
        let word = call / 64 - 1
        if word >= high.count { high.append(contentsOf: repeatElement(0, count: word - high.count + 1)) }
        high[word] |= 1 << UInt64(call % 64)
    }

    @inlinable
    mutating func remove(_ call: Int) {
        if call < 64 {
            low &= ~(1 << UInt64(call))
            return
        }
        high[call / 64 - 1] &= ~(1 << UInt64(call % 64))
    }
}
