extension Duration {
    /// The duration in seconds, as a floating-point number.
    var seconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }

    /// The whole milliseconds in the duration, rounded toward zero.
    var wholeMilliseconds: Int64 {
        components.seconds &* 1_000 &+ components.attoseconds / 1_000_000_000_000_000
    }
}
