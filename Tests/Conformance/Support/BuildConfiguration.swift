import CShim

/// Facts about how the tests were compiled.
enum BuildConfiguration {
    /// A sanitizer the tests can be built with (`swift test --sanitize=…`).
    enum Sanitizer: Sendable, Hashable, CustomStringConvertible {
        /// ThreadSanitizer (`--sanitize=thread`).
        case thread
        /// AddressSanitizer (`--sanitize=address`).
        case address

        var description: String {
            switch self {
            case .thread: "ThreadSanitizer"
            case .address: "AddressSanitizer"
            }
        }
    }

    /// Whether the tests were compiled with optimization (`swift test -c release`).
    static var isOptimized: Bool {
        #if DEBUG
        false
        #else
        true
        #endif
    }

    /// The sanitizer this build runs under, if any, as CShim was compiled (SwiftPM passes
    /// `--sanitize` to C targets too).
    static var sanitizer: Sanitizer? {
        switch cshim_sanitizer() {
        case CSHIM_SANITIZER_THREAD: .thread
        case CSHIM_SANITIZER_ADDRESS: .address
        default: nil
        }
    }
}
