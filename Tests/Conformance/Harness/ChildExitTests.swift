import Foundation
@testable import Harness
import Testing

/// How the parent tells apart the ways an isolated child can end without a report.
@Suite("Harness: how an isolated child ended")
struct ChildExitTests {
    static let token = try! ReplayToken(parsing: ChildTranscriptTests.token)

    private static func exit(
        _ reason: Process.TerminationReason,
        _ status: Int32,
        timedOut: Bool = false,
        crashToken: ReplayToken? = nil,
        lastSchedule: ReplayToken? = nil
    ) -> ChildExit {
        ChildExit(
            reason: reason,
            status: status,
            timedOut: timedOut,
            crashToken: crashToken,
            lastSchedule: lastSchedule
        )
    }

    @Test("a crash signal with a crash report is a crash in the schedule the report names")
    func crashInSchedule() {
        #expect(
            Self.exit(.uncaughtSignal, SIGSEGV, crashToken: Self.token, lastSchedule: Self.token)
                == .crashedInSchedule(signal: SIGSEGV, token: Self.token))
        #expect(
            Self.exit(.uncaughtSignal, SIGABRT, lastSchedule: Self.token)
                == .crashedOutsideScenario(signal: SIGABRT))
    }

    @Test("SIGKILL and SIGTERM come from outside: killed in the last schedule begun, or before any")
    func killedFromOutside() {
        for signal in [SIGKILL, SIGTERM] {
            #expect(
                Self.exit(.uncaughtSignal, signal, lastSchedule: Self.token)
                    == .killedInSchedule(signal: signal, token: Self.token))
        }
        #expect(Self.exit(.uncaughtSignal, SIGKILL) == .killedBeforeSchedule(signal: SIGKILL))
    }

    @Test("a child the parent killed for silence timed out; one that exited by itself exited")
    func timedOutAndExited() {
        #expect(Self.exit(.uncaughtSignal, SIGKILL, timedOut: true, lastSchedule: Self.token) == .timedOut)
        #expect(Self.exit(.exit, 66, lastSchedule: Self.token) == .exited(status: 66))
    }
}
