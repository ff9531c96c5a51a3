/// Every comparison the benchmarks make, by group, in the order the table prints them.
public enum Catalog {
    /// The seam's production path against raw pthreads.
    public static let seam = SeamWorkloads.comparisons

    /// The groups: a title and its comparisons.
    public static let groups: [(title: String, comparisons: [Comparison])] = [
        ("Seam", seam),
    ]
}
