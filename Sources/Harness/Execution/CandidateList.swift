/// The model's candidates for the decision at hand, in storage kept from one decision to the
/// next and from one execution to the next on a runner (``ExecutionModel/Leftovers``):
/// emptied and filled at every decision, and lent to the strategy as ``Candidates``.
/// Candidates hold no references, so the storage is plain memory: an array checked that its
/// storage was unique at every removal and every append, a fifth of a decision.
final class CandidateList {
    @exclusivity(unchecked) private var base: UnsafeMutablePointer<Candidate>
    @exclusivity(unchecked) private var capacity: Int
    @exclusivity(unchecked) private(set) var count = 0

    /// An empty list with room for `capacity` candidates before it grows.
    init(capacity: Int) {
        precondition(_isPOD(Candidate.self), "a candidate holds a reference, which plain memory would not keep")
        self.capacity = max(capacity, 1)
        base = .allocate(capacity: self.capacity)
    }

    deinit {
        base.deallocate()
    }

    var isEmpty: Bool { count == 0 }

    /// The candidates, as a strategy reads them: valid until the list next changes.
    var view: Candidates {
        Candidates(UnsafeBufferPointer(start: base, count: count))
    }

    @inline(__always)
    func removeAll() {
        count = 0
    }

    @inline(__always)
    func append(_ candidate: Candidate) {
        if count == capacity { grow() }
        (base + count).initialize(to: candidate)
        count += 1
    }

    func append(contentsOf others: [Candidate]) {
        for candidate in others { append(candidate) }
    }

    /// Removes the candidates that satisfy `shouldBeRemoved`, keeping the others' order.
    @inline(__always)
    func removeAll(where shouldBeRemoved: (Candidate) -> Bool) {
        var kept = 0
        for index in 0..<count where !shouldBeRemoved(base[index]) {
            base[kept] = base[index]
            kept += 1
        }
        count = kept
    }

    @inline(__always)
    func contains(where predicate: (Candidate) -> Bool) -> Bool {
        view.contains(where: predicate)
    }

    /// Whether `thread`'s step is among the candidates: whether a decision may keep it running.
    @inline(__always)
    func offersStep(of thread: Int) -> Bool {
        contains { $0.choice == .thread(thread) }
    }

    @inline(never)
    private func grow() {
        let grown = UnsafeMutablePointer<Candidate>.allocate(capacity: capacity * 2)
        grown.moveInitialize(from: base, count: count)
        base.deallocate()
        base = grown
        capacity *= 2
    }
}
