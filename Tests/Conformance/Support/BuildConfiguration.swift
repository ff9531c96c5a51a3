/// Facts about how the tests were compiled.
enum BuildConfiguration {
    /// Whether the tests were compiled with optimization (`swift test -c release`).
    static var isOptimized: Bool {
        #if DEBUG
        false
        #else
        true
        #endif
    }
}
