extension GeneratedScenario where Call: SimplifiableCall {
    /// The scenarios with calls moved, in shrinking's order: each client's calls appended
    /// to another client's (one thread fewer, the calls in the order they were); each
    /// client's first call appended to the initial part; each client's last call put first
    /// in the final part, unless that call is blocking (``ShapedCall/isBlocking``: it stays
    /// in the parallel part). A client left without calls is dropped.
    func movedCalls() -> [GeneratedScenario] {
        var candidates: [GeneratedScenario] = []
        for source in parallel.indices where parallel.count > 1 {
            for target in parallel.indices where target != source {
                var candidate = self
                candidate.parallel[target] += parallel[source]
                candidate.parallel.remove(at: source)
                candidates.append(candidate)
            }
        }
        for client in parallel.indices where parallel.count > 1 || parallel[client].count > 1 {
            if parallel[client].first?.isBlocking == false {
                var first = self
                first.initial.append(first.parallel[client].removeFirst())
                candidates.append(first.droppingEmptyClients())
            }
            if parallel[client].last?.isBlocking == false {
                var last = self
                last.final.insert(last.parallel[client].removeLast(), at: 0)
                candidates.append(last.droppingEmptyClients())
            }
        }
        return candidates
    }

    /// The scenarios with one argument simpler wherever it occurs: for each argument in order
    /// of first appearance and each simpler version of its first call (simplest first), every
    /// call with that argument replaced by its simpler version with the new one. Offered only
    /// when every such call has that version and the new argument occurs nowhere else, so the
    /// calls that shared a value still share one and no others do: values that were distinct
    /// stay distinct (the checker's unique-value fast checks stay applicable), and a history
    /// reads as the failing one did.
    func simplerArguments() -> [GeneratedScenario] {
        var candidates: [GeneratedScenario] = []
        let calls = initial + parallel.flatMap { $0 } + final
        var arguments: [String] = []
        for case let argument? in calls.map(\.argument) where !arguments.contains(argument) {
            arguments.append(argument)
        }
        for argument in arguments {
            guard let first = calls.first(where: { $0.argument == argument }) else { continue }
            for simpler in first.simplerCalls() {
                guard let replacement = simpler.argument, !arguments.contains(replacement) else { continue }
                if let candidate = replacing(argument, with: replacement) {
                    candidates.append(candidate)
                }
            }
        }
        return candidates
    }

    /// This scenario with every call whose argument is `argument` made with `replacement`
    /// instead; `nil` when one of them offers no such simpler call.
    private func replacing(_ argument: String, with replacement: String) -> GeneratedScenario? {
        func replaced(_ calls: [Call]) -> [Call]? {
            var result: [Call] = []
            for call in calls {
                guard call.argument == argument else {
                    result.append(call)
                    continue
                }
                guard let simpler = call.simplerCalls().first(where: { $0.argument == replacement }) else { return nil }
                result.append(simpler)
            }
            return result
        }
        guard let newInitial = replaced(initial), let newFinal = replaced(final) else { return nil }
        var newParallel: [[Call]] = []
        for calls in parallel {
            guard let client = replaced(calls) else { return nil }
            newParallel.append(client)
        }
        return GeneratedScenario(initial: newInitial, parallel: newParallel, final: newFinal)
    }

    /// This scenario without clients that make no call.
    private func droppingEmptyClients() -> GeneratedScenario {
        var scenario = self
        scenario.parallel.removeAll(where: \.isEmpty)
        return scenario
    }
}
