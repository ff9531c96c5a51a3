#!/usr/bin/env bash
# Builds the benchmarks in release mode and prints one table: each benchmark, its baseline
# measured in the same run (samples alternate between the two), their costs, the ratio, the
# target and whether it was met. Ratios are what to read: the machine's absolute speed
# varies from run to run, the ratio between two things sampled side by side much less.
#
#   Benchmarks/run.sh                       the full table (a few minutes)
#   Benchmarks/run.sh --filter CriticalSection --no-harness
#   Benchmarks/run.sh --rounds 31 --sample-ms 40    steadier, slower
#   Benchmarks/run.sh --harness-speed       the harness speed targets of issue 11 only
#   Benchmarks/run.sh --harness-speed --peer "$(Benchmarks/Peers/shuttle/build.sh <Shuttle git dir>)"
#                                           the same, sampled side by side with Shuttle 0.6.1
#   Benchmarks/run.sh --bug-finding         schedules to the first failure of the bug
#                                           patterns and mutants, per strategy (deterministic)
#   Benchmarks/run.sh --strategies          each strategy against the mutants and deep bugs
#   Benchmarks/run.sh --workers             one exploration of (a) on 2 workers against 1
#                                           (also part of --harness-speed)
#   Benchmarks/run.sh --package-benchmark   also every package-benchmark target, with
#                                           percentiles and malloc counts (slower)
#
# Any other option goes to the table runner (Sources/BenchmarkTable/BenchmarkTable.swift).
set -euo pipefail
cd "$(dirname "$0")"

table_arguments=()
package_benchmark=false
for argument in "$@"; do
    if [[ "$argument" == "--package-benchmark" ]]; then
        package_benchmark=true
    else
        table_arguments+=("$argument")
    fi
done

echo "# $(swift --version 2>/dev/null | head -1)"
echo "# $(uname -srm), $(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || uptime)"
echo "# swift build -c release --product BenchmarkTable && .build/release/BenchmarkTable ${table_arguments[*]:-}"
swift build -c release --product BenchmarkTable >&2
.build/release/BenchmarkTable "${table_arguments[@]}"

if $package_benchmark; then
    echo
    echo "# swift package benchmark --format markdown"
    swift package benchmark --format markdown
fi
