import Foundation
import Testing

/// A headless Chromium, found on the `PATH` at run time, that renders a page to a PNG.
enum HeadlessBrowser {
    /// Why a browser test was skipped: the message of the trait that skips it.
    static let installHint: Comment = "install a headless browser: apt-get install chromium"

    /// The browser's executable: the first `chromium` or `chromium-browser` on the `PATH`.
    static let executable: URL? = {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for name in ["chromium", "chromium-browser"] {
            for directory in path.split(separator: ":") {
                let candidate = URL(fileURLWithPath: String(directory)).appendingPathComponent(name)
                if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            }
        }
        return nil
    }()

    enum Failure: Error, CustomStringConvertible {
        case missing
        case timedOut(seconds: Int, log: String)
        case failed(status: Int32, log: String)

        var description: String {
            switch self {
            case .missing: "no browser: \(HeadlessBrowser.installHint)"
            case let .timedOut(seconds, log): "the browser did not finish in \(seconds) s:\n\(log)"
            case let .failed(status, log): "the browser exited with status \(status) and no screenshot:\n\(log)"
            }
        }
    }

    /// Renders the page at `page` in a `width`×`height` window and returns the screenshot's
    /// PNG bytes. Runs the browser with a profile of its own in a fresh directory (so tests
    /// can render at once), without a sandbox (CI runs as root) or GPU, and kills it after
    /// `timeout` seconds.
    static func screenshot(of page: URL, width: Int = 1200, height: Int = 800, timeout: Int = 90) throws -> [UInt8] {
        guard let executable else { throw Failure.missing }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "harness-browser-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let screenshot = directory.appendingPathComponent("screenshot.png")
        let log = directory.appendingPathComponent("browser.log")
        guard FileManager.default.createFile(atPath: log.path, contents: nil) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: log.path])
        }
        let logHandle = try FileHandle(forWritingTo: log)
        defer { try? logHandle.close() }

        let process = Process()
        process.executableURL = executable
        process.arguments = [
            "--headless", "--disable-gpu", "--no-sandbox",
            "--user-data-dir=\(directory.appendingPathComponent("profile").path)",
            "--screenshot=\(screenshot.path)", "--window-size=\(width),\(height)",
            page.absoluteString
        ]
        process.standardOutput = logHandle
        process.standardError = logHandle
        let exited = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in exited.signal() }
        try process.run()
        if exited.wait(timeout: .now() + .seconds(timeout)) == .timedOut {
            process.terminate()
            exited.wait()
            throw Failure.timedOut(seconds: timeout, log: (try? String(contentsOf: log, encoding: .utf8)) ?? "")
        }
        guard let bytes = FileManager.default.contents(atPath: screenshot.path) else {
            throw Failure.failed(
                status: process.terminationStatus, log: (try? String(contentsOf: log, encoding: .utf8)) ?? "")
        }
        return [UInt8](bytes)
    }
}
