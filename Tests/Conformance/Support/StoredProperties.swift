import Testing

/// Records an issue for each stored property of `restarted` that is not as `made`'s, both as
/// `String(reflecting:)` writes them: for a value readied in place for its next use, which must
/// be, field by field, the value its initializer makes.
func expectSameStoredProperties(
    _ restarted: Any, as made: Any, sourceLocation: SourceLocation = #_sourceLocation
) {
    let restartedFields = storedProperties(of: restarted)
    let madeFields = storedProperties(of: made)
    #expect(restartedFields.count == madeFields.count, sourceLocation: sourceLocation)
    for (field, value) in madeFields where restartedFields[field] != value {
        Issue.record(
            "\(field) is \(restartedFields[field] ?? "missing") after a restart, \(value) when made",
            sourceLocation: sourceLocation)
    }
}

/// A value's stored properties, by name, each as `String(reflecting:)` writes it.
private func storedProperties(of value: Any) -> [String: String] {
    Dictionary(
        uniqueKeysWithValues: Mirror(reflecting: value).children.map {
            ($0.label ?? "?", String(reflecting: $0.value))
        })
}
