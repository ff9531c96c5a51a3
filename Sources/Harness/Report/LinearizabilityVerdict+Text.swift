extension LinearizabilityVerdict: CustomStringConvertible {
    /// How many calls of a witness order or a longest prefix the description lists.
    public static var callsListed: Int { 20 }

    /// The verdict in words: what was decided, by which algorithm, and, when the history is
    /// not linearizable, why no sequential order explains it. Every message about a
    /// linearizability verdict is built here.
    public var description: String {
        let calls = history.entries.count
        switch outcome {
        case .linearizable(let order):
            return "linearizable: \(calls) call\(calls == 1 ? "" : "s") (\(methodText)); one sequential order:\n"
                + listing(order)
        case .undecided(let budget):
            return """
                undecided: the search spent its budget of \(budget) steps without finding an order of the \(calls) \
                calls or ruling one out. Raise LinearizabilityChecker.budget, give the model independent parts \
                (SequentialModel.partitionKey(of:)), or check a shorter history.
                """
        case .modelNotDeterministic(let report):
            let entry = history.entries[report.entry]
            let answers =
                report.firstAnswer == report.secondAnswer
                ? "\(report.firstAnswer) both times, but left two different states"
                : "\(report.firstAnswer) the first time and \(report.secondAnswer) the second"
            return """
                the model is not deterministic: applying \(entry.operation) (the call \(entry)) to two equal copies of \
                the state \(report.state) answered \(answers). A model's apply must depend only on the model's value; \
                no verdict can be trusted until it does.
                """
        case .notLinearizable(.noSequentialOrder(let deadEnd)):
            return "not linearizable (\(methodText), \(steps) steps): " + explanation(deadEnd)
        case .notLinearizable(.collection(let violation)):
            return "not linearizable (\(methodText)): " + explanation(violation)
        case .notLinearizable(.lostWakeUp(let report)):
            return "not linearizable (\(methodText), \(steps) steps): " + explanation(report)
        }
    }

    /// Which algorithm decided, in words: `unique-value queue check`.
    var methodText: String {
        switch method {
        case .search: "found by search"
        case .uniqueValueQueue: "unique-value queue check"
        case .uniqueValueStack: "unique-value stack check"
        case .uniqueValueSet: "unique-value set check"
        }
    }

    /// `order` as a numbered list, at most ``callsListed`` lines.
    private func listing(_ order: [Int]) -> String {
        var lines = order.prefix(Self.callsListed).enumerated().map {
            "  \($0.offset + 1). \(history.entries[$0.element])"
        }
        if order.count > Self.callsListed { lines.append("  … and \(order.count - Self.callsListed) more") }
        return lines.isEmpty ? "  (no calls)" : lines.joined(separator: "\n")
    }

    private func explanation(_ deadEnd: SearchDeadEnd<Result>) -> String {
        let part = deadEnd.partition.map { " of part \($0)" } ?? ""
        var text = "no sequential order of the calls\(part) gives every call its recorded result. "
        if deadEnd.longestPrefix.isEmpty {
            text += "No call can even go first: starting from \(deadEnd.modelState),"
        } else {
            text +=
                "The longest order found that does takes \(deadEnd.longestPrefix.count) of them:\n"
                + listing(deadEnd.longestPrefix)
                + "\nand leaves the model in the state \(deadEnd.modelState). After it,"
        }
        guard let first = deadEnd.blocked.first else { return text + " nothing can follow." }
        text +=
            " the next call must be one invoked before \(history.entries[first.entry]) responded (it responded first of"
            + " the calls left), but the model \(answering(first))"
        let others = deadEnd.blocked.dropFirst()
        if others.isEmpty { return text + ", and no other call was invoked in time." }
        return text + ", and every other such call gets another result too: "
            + others.map { "\(history.entries[$0.entry]) would get \(answer(of: $0))" }.joined(separator: "; ") + "."
    }

    /// `answers that call 3`, or `makes that call wait` when the model blocks it.
    private func answering(_ call: BlockedCall<Result>) -> String {
        call.modelAnswer.map { "answers that call \($0)" } ?? "makes that call wait"
    }

    /// The model's answer to `call`, or `no answer (it waits)` when the model blocks it.
    private func answer(of call: BlockedCall<Result>) -> String {
        call.modelAnswer.map { "\($0)" } ?? "no answer (it waits)"
    }

    private func explanation(_ report: LostWakeUp<Result>) -> String {
        let part = report.partition.map { " of part \($0)" } ?? ""
        let waiting = report.wakeable.map {
            "\(history.entries[$0.entry]) would return \(answer(of: $0))"
        }.joined(separator: "; ")
        let order =
            report.order.isEmpty
            ? "With no completed call\(part), the model is in the state \(report.modelState)"
            : "Every order of the completed calls\(part) that gives each its result leaves a blocked call able to "
                + "return; the first found takes \(report.order.count):\n" + listing(report.order)
                + "\nand leaves the model in the state \(report.modelState)"
        return "a call waited for good though the model lets it return: a lost wake-up. \(order), where \(waiting)."
    }

    private func explanation(_ violation: CollectionViolation) -> String {
        let (collection, inserted, removed) =
            switch method {
            case .uniqueValueStack: ("stack", "pushed", "popped")
            case .uniqueValueSet: ("set", "inserted", "removed")
            default: ("queue", "enqueued", "dequeued")
            }
        func call(_ entry: Int) -> String { "\(history.entries[entry])" }
        switch violation {
        case .neverInserted(let value, let observer):
            return "\(call(observer)) saw \(value), but no call ever \(inserted) \(value)."
        case .removedTwice(let value, let first, let second):
            return "\(call(first)) and \(call(second)) both \(removed) \(value), which was \(inserted) only once."
        case .observedBeforeInserted(let value, let observer, let insertion):
            return "\(call(observer)) saw \(value), but it responded before \(call(insertion)) was invoked."
        case .observedAfterRemoved(let value, let observer, let removal):
            return
                "\(call(observer)) found \(value), but it was invoked after \(call(removal)) had \(removed) \(value), "
                + "which was \(inserted) only once."
        case .fifo(
            let earlier, let later, let earlierInsertion, let laterInsertion, let earlierRemoval, let laterRemoval):
            let order =
                "\(earlier) was \(inserted) before \(later) (\(call(earlierInsertion)) responded before "
                + "\(call(laterInsertion)) was invoked)"
            guard let earlierRemoval else {
                return "\(call(laterRemoval)) returned \(later), but \(order) and never \(removed)."
            }
            let only =
                history.entries[earlierRemoval].isPending ? ", the only call that can have \(removed) \(earlier)," : ""
            return
                "\(order), but \(later) was \(removed) first (\(call(laterRemoval)) responded before "
                + "\(call(earlierRemoval))\(only) was invoked)."
        case .lifo(let lower, let upper, let lowerInsertion, let upperInsertion, let lowerRemoval, let upperRemoval):
            let after =
                upperRemoval.map { "and \(upper) was popped only after that pop responded (\(call($0)))" }
                ?? "and \(upper) was never popped"
            return
                "\(call(lowerRemoval)) popped \(lower) while \(upper) was on top of it: \(call(upperInsertion)) began "
                + "after \(call(lowerInsertion)) completed and completed before that pop began, \(after)."
        case .noBottom(let firstInsertion, let lastRemoval):
            let end = lastRemoval.map { "the invocation of \(call($0))" } ?? "the end"
            return
                "from the response of \(call(firstInsertion)) to \(end) the stack was never empty, so one value must "
                + "have stayed at its bottom all that time, pushed before and popped after; but every value there was "
                + "pushed later or popped earlier."
        case .emptyWhileHeld(let observer, let holders):
            let held = holders.map { holder in
                let until = holder.until.map { "until the invocation of \(call($0))" } ?? "on, never \(removed)"
                return "\(holder.value) from the response of \(call(holder.since)) \(until)"
            }.joined(separator: ", then ")
            if method == .uniqueValueSet, let value = holders.first?.value {
                return
                    "\(call(observer)) found \(value) absent, but \(value) was in the set all through that call: "
                    + "\(held)."
            }
            return
                "\(call(observer)) found the \(collection) empty, but it held a value all through that call: \(held)."
        }
    }
}
