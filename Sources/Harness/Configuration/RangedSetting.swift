/// The one parser and checker of the harness's ranged settings (``ExplorationOptions``,
/// ``StressOptions``, ``EscalationOptions``, ``LinearizabilityOptions``): an environment
/// variable's text, or an option's value, outside its range is a
/// ``HarnessConfigurationError/invalid(setting:value:expected:)`` that names the setting, the
/// value and the range, in the same words for every setting.
enum RangedSetting {
    /// Throws unless `value`, the option `setting` (`ExplorationOptions.maxSteps`), lies in
    /// `range`; the error expects `low to high`, then `unit` (`seconds`) if there is one.
    static func check<Value: Comparable>(
        _ value: Value,
        in range: ClosedRange<Value>,
        _ setting: String,
        unit: String = ""
    ) throws(HarnessConfigurationError) {
        guard range.contains(value) else {
            let unit = unit.isEmpty ? "" : " \(unit)"
            throw .invalid(
                setting: setting, value: "\(value)", expected: "\(range.lowerBound) to \(range.upperBound)\(unit)")
        }
    }

    /// The whole number in `range` that `text`, the value of the environment variable
    /// `variable`, spells.
    static func wholeNumber(_ text: String, in range: ClosedRange<Int>, _ variable: String)
        throws(HarnessConfigurationError) -> Int
    {
        guard let value = Int(text), range.contains(value) else {
            throw .invalid(
                setting: variable, value: text,
                expected: "a whole number from \(range.lowerBound) to \(range.upperBound)")
        }
        return value
    }

    /// The finite number in `range` that `text`, the value of the environment variable
    /// `variable`, spells; `unit` names what it counts (`seconds`), or is empty for a factor.
    static func number(_ text: String, in range: ClosedRange<Double>, _ variable: String, unit: String)
        throws(HarnessConfigurationError) -> Double
    {
        guard let value = Double(text), value.isFinite, range.contains(value) else {
            let what = unit.isEmpty ? "a number" : "a number of \(unit)"
            throw .invalid(
                setting: variable, value: text, expected: "\(what) from \(range.lowerBound) to \(range.upperBound)")
        }
        return value
    }
}

/// Options whose every number has a stated range, checked by ``validate()``.
protocol RangedOptions {
    /// Throws an error naming the first setting outside its range.
    func validate() throws(HarnessConfigurationError)
}

extension RangedOptions {
    /// Traps with the error ``validate()`` throws: a value out of range given to an
    /// initializer is a programmer error.
    func preconditionValid() {
        do {
            try validate()
        } catch {
            preconditionFailure("\(error)")
        }
    }
}
