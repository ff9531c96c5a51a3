/// A call that offers simpler versions of itself: the same operation with simpler arguments.
protocol SimplifiableCall: ShapedCall {
    /// Simpler versions, simplest first.
    func simplerCalls() -> [Self]
}

extension LinearizabilityTest.Call: SimplifiableCall {
    func simplerCalls() -> [Self] { simpler() }
}

extension GeneratedScenario where Call: SimplifiableCall {
    /// The scenarios one shrink step away, in the order shrinking tries them, largest
    /// reductions first: without one client of the parallel part; without the whole
    /// initial or final part; without one call (final part, parallel part, initial part);
    /// with one client's calls moved to the end of another's (one thread fewer); with a
    /// client's first call moved to the end of the initial part or its last call to the
    /// start of the final part (fewer calls at once); with one argument simpler wherever it
    /// occurs (``simplerArguments()``). Each has at least one call, and every step makes the
    /// scenario smaller in calls, threads, parallel calls or arguments, so shrinking ends.
    /// The order is part of the scenario codes that replay tokens carry (``ScenarioCode``):
    /// changing it changes what a recorded shrink path means.
    func shrinkCandidates() -> [GeneratedScenario] {
        var candidates: [GeneratedScenario] = []
        func offer(_ candidate: GeneratedScenario) {
            if candidate.callCount > 0 { candidates.append(candidate) }
        }
        if parallel.count > 1 {
            for client in parallel.indices {
                var candidate = self
                candidate.parallel.remove(at: client)
                offer(candidate)
            }
        }
        if initial.count > 1 {
            var candidate = self
            candidate.initial = []
            offer(candidate)
        }
        if final.count > 1 {
            var candidate = self
            candidate.final = []
            offer(candidate)
        }
        for index in final.indices.reversed() {
            var candidate = self
            candidate.final.remove(at: index)
            offer(candidate)
        }
        for client in parallel.indices {
            for index in parallel[client].indices.reversed() {
                var candidate = self
                candidate.parallel[client].remove(at: index)
                if candidate.parallel[client].isEmpty {
                    guard parallel.count == 1 else { continue }  // removing the client is offered above
                    candidate.parallel.remove(at: client)
                }
                offer(candidate)
            }
        }
        for index in initial.indices.reversed() {
            var candidate = self
            candidate.initial.remove(at: index)
            offer(candidate)
        }
        candidates += movedCalls()
        candidates += simplerArguments()
        return candidates
    }
}
