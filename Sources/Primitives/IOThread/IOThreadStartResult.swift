import CShim

/// What ``IOThread/start()`` did.
public enum IOThreadStartResult: Sendable, Hashable, CustomStringConvertible {
    /// The thread was launched.
    case success
    /// An earlier call launched the thread; this one did nothing.
    case alreadyStarted
    /// The configuration was refused; nothing was launched and `start()` may not succeed
    /// until the configuration changes.
    case invalidAttribute(IOThreadAttributeProblem)
    /// The system lacked the resources for another thread (`EAGAIN`); a later `start()` may
    /// succeed.
    case insufficientResources
    /// The caller may not use the requested scheduling policy (`EPERM`).
    case lackingPermissions
    /// A POSIX call failed with an error this type has no case for, kept as it was returned.
    case failed(SeamThreadError)

    /// Maps an error of a thread-creation call to its result, by the platform's own errno
    /// constants.
    package init(creationError error: SeamThreadError) {
        switch error.code {
        case EINVAL: self = .invalidAttribute(.rejectedBySystem(error))
        case EAGAIN: self = .insufficientResources
        case EPERM: self = .lackingPermissions
        default: self = .failed(error)
        }
    }

    /// Whether the thread was launched, by this call or an earlier one.
    public var isStarted: Bool {
        switch self {
        case .success, .alreadyStarted: true
        case .invalidAttribute, .insufficientResources, .lackingPermissions, .failed: false
        }
    }

    public var description: String {
        switch self {
        case .success: "success"
        case .alreadyStarted: "already started"
        case .invalidAttribute(let problem): "invalid attribute: \(problem)"
        case .insufficientResources: "insufficient resources"
        case .lackingPermissions: "lacking permissions"
        case .failed(let error): "\(error)"
        }
    }
}

/// What was wrong with an ``IOThread``'s configuration.
public enum IOThreadAttributeProblem: Sendable, Hashable, CustomStringConvertible {
    /// The stack size is below ``IOThread/minimumStackSize``, the smallest Swift code is
    /// known to run on with a margin (the platform's `PTHREAD_STACK_MIN` is too small).
    case stackSizeBelowMinimum(requested: Int, minimum: Int)
    /// The stack size is not a multiple of the page size.
    case stackSizeNotPageMultiple(requested: Int, pageSize: Int)
    /// The system refused an attribute (`EINVAL` from the call named in the error).
    case rejectedBySystem(SeamThreadError)

    public var description: String {
        switch self {
        case .stackSizeBelowMinimum(let requested, let minimum):
            "stack size \(requested) is below the minimum of \(minimum) bytes"
        case .stackSizeNotPageMultiple(let requested, let pageSize):
            "stack size \(requested) is not a multiple of the page size, \(pageSize) bytes"
        case .rejectedBySystem(let error):
            "\(error)"
        }
    }
}
