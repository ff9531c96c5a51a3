/// Code that overflows the stack of the thread that runs it.
enum StackOverflow {
    /// Recurses without bound, each frame holding a kilobyte of stack that it reads after the
    /// call returns, so no optimization turns the recursion into a loop. Never returns.
    @inline(never)
    static func recurse(_ depth: Int) -> Int {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 1024) { frame in
            frame[frame.count - 1] = UInt8(truncatingIfNeeded: depth)
            return recurse(depth + 1) + Int(frame[frame.count - 1])
        }
    }
}
