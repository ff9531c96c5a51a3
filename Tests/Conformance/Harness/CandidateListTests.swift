@testable import Harness
import Testing

@Suite("Harness: the model's list of a decision's candidates")
struct CandidateListTests {
    /// Candidates of every kind, the access of each different, so that a candidate written to
    /// the wrong place or half copied is told apart.
    private static func candidate(_ number: Int) -> Candidate {
        switch number % 4 {
        case 0: Candidate(.thread(number), access: Access(object: .cancellation(ofThread: number), isRead: true))
        case 1: Candidate(.spuriousWake(number), access: Access(object: .jobQueue, isRead: false))
        case 2: Candidate(.job(JobIdentity(task: number % 3 == 0 ? nil : number, enqueueOrder: number)))
        default: Candidate(.advanceClock, isSymmetricCopy: true)
        }
    }

    @Test("the list keeps its candidates in order past its first capacity, and empties to fill again")
    func growsAndEmpties() {
        let list = CandidateList(capacity: 2)
        let all = (0..<37).map(Self.candidate)
        for candidate in all { list.append(candidate) }
        #expect(Array(list.view) == all)
        #expect(list.count == 37 && !list.isEmpty)
        list.removeAll()
        #expect(list.isEmpty && Array(list.view) == [])
        list.append(contentsOf: Array(all.prefix(3)))
        #expect(Array(list.view) == Array(all.prefix(3)))
    }

    @Test("removing the candidates that match keeps the others in their order")
    func removesWhereMatching() {
        let list = CandidateList(capacity: 4)
        let all = (0..<12).map(Self.candidate)
        list.append(contentsOf: all)
        list.removeAll { $0.choice.isInjected }
        #expect(Array(list.view) == all.filter { !$0.choice.isInjected })
        #expect(list.contains { $0.choice == .thread(8) })
        #expect(!list.contains { $0.choice == .advanceClock })
        // T8's step is among them (a decision may keep T8 running), T100's is not.
        #expect(list.offersStep(of: 8))
        #expect(!list.offersStep(of: 100))
    }

    @Test("a view of an array shows its candidates, and views with the same candidates are equal")
    func views() {
        let all = (0..<5).map(Self.candidate)
        let list = CandidateList(capacity: 1)
        list.append(contentsOf: all)
        all.withCandidates { view in
            #expect(Array(view) == all)
            #expect(view == list.view)
            #expect(view.indices == 0..<5)
        }
        #expect([Candidate]().withCandidates { $0.isEmpty })
    }
}
