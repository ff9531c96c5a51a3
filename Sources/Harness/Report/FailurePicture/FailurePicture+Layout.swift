/// Where the picture puts things: which steps are shown and which are collapsed, which pairs
/// and waits are drawn as lines, and the coordinates of every cell. Fixed sizes, so a line's
/// ends are computed here rather than measured in the browser (the page has no script).
struct PictureLayout {
    /// The height of a step's row, and of a step's cell within it.
    static let rowHeight = 36
    static let cellHeight = 32
    /// The width of a lane's column: its cells, then a gutter for the lines between lanes.
    static let laneWidth = 270
    static let cellWidth = 214
    /// The width of the column of step numbers.
    static let numberWidth = 56
    /// The row below the last step that holds the notes (failed check, what a thread waits for).
    static let endRowGap = 10
    static let endRowHeight = 76
    /// Room below the end row for the arcs between its cells.
    static let endArcRoom = 44
    /// A pair further apart than this many rows is marked at both ends with a link to the
    /// other, not joined by a line.
    static let longestLine = 150
    /// The last steps are always shown.
    static let shownTail = 12
    /// A run of quiet steps shorter than this is shown rather than collapsed.
    static let shortestCollapse = 8

    /// A run of consecutive steps, shown or collapsed.
    struct Block {
        let steps: Range<Int>
        let isCollapsed: Bool
    }

    /// The runs of steps, in order; the last one is never collapsed.
    let blocks: [Block]
    /// The column of each lane.
    let columns: [FailurePicture.Lane: Int]
    /// The conflicts joined by a line, by the index of the block that holds both ends.
    let drawnConflicts: [Int: [FailurePicture.Conflict]]
    /// Whether the page has an end row.
    let hasEndRow: Bool
    let stepCount: Int

    init(_ picture: FailurePicture) {
        let count = picture.failure.trace.count
        stepCount = count
        columns = Dictionary(uniqueKeysWithValues: picture.lanes.enumerated().map { ($1, $0) })
        let drawn = picture.conflicts.filter { $0.later - $0.earlier <= Self.longestLine }
        hasEndRow = !picture.notes.isEmpty || !picture.waitsFor.isEmpty

        // A step is shown when something is drawn on it or across it, or when it is one of
        // the last; the rest collapse in runs. Spans are added as a difference array, so
        // this is linear in the steps plus the pairs.
        var shown = [Bool](repeating: false, count: count)
        var spans = [Int](repeating: 0, count: count + 1)
        func cover(_ range: ClosedRange<Int>) {
            spans[range.lowerBound] += 1
            spans[range.upperBound + 1] -= 1
        }
        for conflict in picture.conflicts {
            shown[conflict.earlier] = true
            shown[conflict.later] = true
        }
        for conflict in drawn { cover(conflict.earlier...conflict.later) }
        for edge in picture.waitsFor {
            guard let acquired = edge.acquired else { continue }
            shown[acquired] = true
            if Self.drawsToAcquisition(edge, stepCount: count) { cover(acquired...(count - 1)) }
        }
        for index in max(0, count - Self.shownTail)..<count { shown[index] = true }
        var depth = 0
        for index in 0..<count {
            depth += spans[index]
            if depth > 0 { shown[index] = true }
        }

        var blocks: [Block] = []
        var start = 0
        while start < count {
            var end = start
            while end < count, shown[end] == shown[start] { end += 1 }
            let collapse = !shown[start] && end - start >= Self.shortestCollapse
            if !collapse, let last = blocks.last, !last.isCollapsed {
                blocks[blocks.count - 1] = Block(steps: last.steps.lowerBound..<end, isCollapsed: false)
            } else {
                blocks.append(Block(steps: start..<end, isCollapsed: collapse))
            }
            start = end
        }
        if blocks.last?.isCollapsed ?? true {
            blocks.append(Block(steps: count..<count, isCollapsed: false))
        }
        self.blocks = blocks
        var blockOfStep = [Int](repeating: 0, count: count)
        for (index, block) in blocks.enumerated() {
            for step in block.steps { blockOfStep[step] = index }
        }
        drawnConflicts = Dictionary(grouping: drawn) { blockOfStep[$0.earlier] }
    }

    /// Whether `edge`'s arrow ends at the step where the holder acquired what the waiter
    /// wants (rather than at the holder's note).
    static func drawsToAcquisition(_ edge: FailurePicture.WaitEdge, stepCount: Int) -> Bool {
        guard let acquired = edge.acquired else { return false }
        return stepCount - acquired <= longestLine
    }

    /// The left edge of `lane`'s cells.
    func x(_ lane: FailurePicture.Lane) -> Int {
        Self.numberWidth + (columns[lane] ?? 0) * Self.laneWidth
    }

    /// The width of the picture.
    var width: Int { Self.numberWidth + columns.count * Self.laneWidth }

    /// The height of `block`'s rows, plus the end row when it is the last block.
    func height(of block: Block) -> Int {
        block.steps.count * Self.rowHeight
            + (isLast(block) && hasEndRow ? Self.endRowGap + Self.endRowHeight + Self.endArcRoom : 0)
    }

    func isLast(_ block: Block) -> Bool {
        block.steps.upperBound == stepCount && !block.isCollapsed
    }

    /// The vertical middle of step `index`'s cell in `block`.
    func middle(of index: Int, in block: Block) -> Int {
        (index - block.steps.lowerBound) * Self.rowHeight + Self.rowHeight / 2
    }

    /// The top of the end row in the last block.
    func endRowTop(in block: Block) -> Int {
        block.steps.count * Self.rowHeight + Self.endRowGap
    }
}
