// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "swift-concurrency-harness",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "Primitives", targets: ["Primitives"]),
    ],
    targets: [
        .target(name: "CShim"),
        .target(name: "Primitives", dependencies: ["CShim"]),
        .testTarget(name: "Conformance", dependencies: ["Primitives", "CShim"]),
    ],
    swiftLanguageModes: [.v6]
)
