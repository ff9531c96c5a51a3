// swift-tools-version: 6.1
import PackageDescription

/// The package-benchmark targets, one per area, each in `Benchmarks/<Name>/<Name>.swift`.
let benchmarkTargets = [
    "SeamBenchmarks", "LockBenchmarks", "ThreadBenchmarks", "AsyncBenchmarks", "HarnessBenchmarks",
    "LinearizabilityBenchmarks"
]

let package = Package(
    name: "benchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "swift-concurrency-harness", path: ".."),
        .package(url: "https://github.com/ordo-one/benchmark", exact: "1.38.1", traits: ["MallocInterposer"])
    ],
    targets: [
        .target(name: "CBenchmarkSupport"),
        .target(name: "CMallocCounter"),
        .target(
            name: "Workloads",
            dependencies: [
                "CBenchmarkSupport",
                .product(name: "Primitives", package: "swift-concurrency-harness"),
                .product(name: "Harness", package: "swift-concurrency-harness"),
                .product(name: "Fixtures", package: "swift-concurrency-harness")
            ]
        ),
        .target(
            name: "BenchmarkRegistration",
            dependencies: ["Workloads", .product(name: "Benchmark", package: "benchmark")]
        ),
        .executableTarget(
            name: "BenchmarkTable",
            dependencies: [
                "Workloads",
                "CMallocCounter",
                .product(name: "Harness", package: "swift-concurrency-harness"),
                .product(name: "Fixtures", package: "swift-concurrency-harness")
            ]
        )
    ]
        + benchmarkTargets.map { name in
            .executableTarget(
                name: name,
                dependencies: ["Workloads", "BenchmarkRegistration", .product(name: "Benchmark", package: "benchmark")],
                path: "Benchmarks/\(name)",
                plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
            )
        },
    swiftLanguageModes: [.v6]
)
