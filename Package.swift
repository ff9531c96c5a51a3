// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "swift-concurrency-harness",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "Primitives", targets: ["Primitives"]),
        .library(name: "Harness", targets: ["Harness"]),
        // The mutants and scenarios of the tests, for the Benchmarks package's bug-finding rows and
        // strategy comparison.
        .library(name: "Fixtures", targets: ["Fixtures"])
    ],
    targets: [
        .target(name: "CShim"),
        // The definitions of pthread_self and its kin in front of the C library's: linked only
        // where the harness is, never into a program that uses only the primitives.
        .target(name: "CIdentityWatch", dependencies: ["CShim"]),
        .target(name: "Primitives", dependencies: ["CShim"]),
        .target(name: "Harness", dependencies: ["Primitives", "CShim", "CIdentityWatch"]),
        .target(
            name: "Fixtures",
            dependencies: ["Primitives", "Harness", "CShim"],
            path: "Fixtures",
            exclude: ["Tokens"]
        ),
        .target(name: "SanitizerSupport", path: "Tests/SanitizerSupport"),
        .testTarget(
            name: "Conformance", dependencies: ["Primitives", "Harness", "Fixtures", "CShim", "SanitizerSupport"]),
        .testTarget(name: "Fuzz", dependencies: ["Primitives", "Harness", "Fixtures"])
    ],
    swiftLanguageModes: [.v6]
)
