import Foundation
import Primitives
import XCTest

/// `GCD.mainThread` on the main thread itself, which needs the main thread to service the
/// main queue. This is an XCTest case because XCTest provides that setup: it runs its tests
/// on the main thread and, while waiting for an expectation, runs the main run loop, which
/// drains the main queue there. Swift Testing on Linux runs under `dispatchMain()`, where the
/// main thread is parked and main-queue work runs on a pool thread (see `GCD.mainThread`);
/// `GCDTests` checks the main-queue guarantee there.
final class GCDMainThreadXCTests: XCTestCase {
    func testMainThreadWorkRunsOnTheMainThread() {
        XCTAssertTrue(Thread.isMainThread, "XCTest runs its tests on the main thread")
        let ran = expectation(description: "mainThread work ran")
        ran.expectedFulfillmentCount = 2
        let onMainThread = LockedList<Bool>()
        GCD.mainThread {
            onMainThread.append(Thread.isMainThread)
            ran.fulfill()
        }
        GCD.mainThread(delay: .milliseconds(10)) {
            onMainThread.append(Thread.isMainThread)
            ran.fulfill()
        }
        wait(for: [ran], timeout: 10)
        XCTAssertEqual(onMainThread.snapshot, [true, true])
    }
}
