extension Array {
    /// Removes every element and keeps the storage, as `removeAll(keepingCapacity: true)`
    /// does, in a few instructions an element while the list is short: that one goes through
    /// `replaceSubrange`, about ninety instructions whatever the count, which a decision paid
    /// for each list it refilled and a lane for each job it ran.
    @inline(__always)
    mutating func empty() {
        if count > Self.removedOneByOne {
            removeAll(keepingCapacity: true)
        } else {
            while !isEmpty { removeLast() }
        }
    }

    /// The longest list ``empty()`` empties an element at a time: about ten instructions each.
    private static var removedOneByOne: Int { 8 }

    /// Hands this array's storage to `leftover`, emptied with its capacity kept, and takes
    /// `leftover`'s: how an execution that ended leaves the storage its lists grew for the next
    /// execution's (each type's `leave(in:)`).
    mutating func leaveStorage(in leftover: inout [Element]) {
        swap(&self, &leftover)
        leftover.empty()
    }

    /// Appends `filler` until `index` is one of the array's indices: for a list kept by a
    /// number that is handed out densely from 0 (a thread's, a task's).
    mutating func pad(toHold index: Int, with filler: Element) {
        if count <= index { append(contentsOf: repeatElement(filler, count: index + 1 - count)) }
    }
}
