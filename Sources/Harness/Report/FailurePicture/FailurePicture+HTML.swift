/// Draws a ``FailurePicture`` as one HTML page: what failed and how to replay it, a legend,
/// then the lanes, with lines drawn in inline SVG at coordinates ``PictureLayout`` computes.
struct PictureDocument {
    private typealias Lane = FailurePicture.Lane

    /// The colours of the objects whose conflicts are drawn, in order of first conflict
    /// (cycled past the eighth). Red is kept for the lock-order cycle.
    private static let palette = [
        "#1f77b4", "#ff7f0e", "#2ca02c", "#9467bd", "#8c564b", "#e377c2", "#17becf", "#bcbd22"
    ]
    private static let cycleColour = "#d62728"
    private static let waitColour = "#6b7280"
    /// How far below a cell's middle a line leaves it, and above it a line arrives, so that
    /// a step's incoming and outgoing lines do not meet in one point.
    private static let leaving = 5

    private let picture: FailurePicture
    private let layout: PictureLayout
    private let trace: [TraceStep]
    /// Each conflicting object's index in ``palette``.
    private let colours: [TraceTarget: Int]
    /// Each conflicting object's number of pairs, in order of first conflict.
    private let targets: [(target: TraceTarget, pairs: Int)]
    /// Each step's conflict partners, and whether the pair is joined by a line.
    private let partners: [Int: [(step: Int, drawn: Bool)]]
    /// The steps at which a waited-for lane acquired what it holds.
    private let held: [Int: [FailurePicture.WaitEdge]]

    init(picture: FailurePicture) {
        self.picture = picture
        layout = PictureLayout(picture)
        trace = picture.failure.trace
        var colours: [TraceTarget: Int] = [:]
        var targets: [(target: TraceTarget, pairs: Int)] = []
        var partners: [Int: [(step: Int, drawn: Bool)]] = [:]
        for conflict in picture.conflicts {
            if let known = colours[conflict.target] {
                targets[known].pairs += 1
            } else {
                colours[conflict.target] = targets.count
                targets.append((conflict.target, 1))
            }
            let drawn = conflict.later - conflict.earlier <= PictureLayout.longestLine
            partners[conflict.earlier, default: []].append((conflict.later, drawn))
            partners[conflict.later, default: []].append((conflict.earlier, drawn))
        }
        self.colours = colours.mapValues { $0 % Self.palette.count }
        self.targets = targets
        self.partners = partners
        held = Dictionary(grouping: picture.waitsFor.filter { $0.acquired != nil }, by: { $0.acquired ?? 0 })
    }

    func render() -> String {
        var page = ""
        page.reserveCapacity(4_096 + trace.count * 200)
        let failure = picture.failure
        let reason = "\(failure.reason)".split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false)
        let headline = reason.first.map(String.init) ?? ""
        let details = reason.count > 1 ? "\n<pre class=\"reason\">\(e(reason[1]))</pre>" : ""
        page += """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8">
            <title>\(e("harness failure: \(failure.scenario)"))</title>
            <style>\(style)</style></head>
            <body>
            <header>
            <h1>\(e(headline))</h1>
            <table class="facts">
            <tr><th>scenario</th><td>\(e(failure.scenario))</td></tr>\n
            """
        if let testID = failure.testID {
            page += "<tr><th>test</th><td>\(e(testID))</td></tr>\n"
        }
        page += """
            <tr><th>replay</th><td><pre class="command">\(e(failure.replayCommand))</pre></td></tr>
            <tr><th>in code</th><td><pre class="command">\(e(failure.replayInCode))</pre></td></tr>
            <tr><th>schedule</th><td>\(e(scheduleSummary))</td></tr>
            </table>\(details)
            \(legend)
            </header>
            <main style="width:\(layout.width)px">
            \(markers)
            \(laneHeader)\n
            """
        for (index, block) in layout.blocks.enumerated() {
            if block.isCollapsed {
                page +=
                    "<details><summary>steps \(block.steps.lowerBound)–\(block.steps.upperBound - 1): "
                    + "\(block.steps.count) steps without a conflict (click to show)</summary>\n"
                appendBlock(index, to: &page)
                page += "</details>\n"
            } else {
                appendBlock(index, to: &page)
            }
        }
        page += "</main>\n</body></html>\n"
        return page
    }

    // MARK: Header

    private var scheduleSummary: String {
        let token = picture.failure.token
        let threads = picture.lanes.filter { $0 != .scheduler }.count
        var text = "strategy \(token.strategy), seed 0x\(String(token.seed, radix: 16)), execution \(token.execution): "
        text += "\(trace.count) steps on \(threads) thread\(threads == 1 ? "" : "s")"
        text += ", \(picture.conflicts.count) conflicting pair\(picture.conflicts.count == 1 ? "" : "s")"
        return text
    }

    private var legend: String {
        var items = [
            "Time runs down; one column per lane. Each step shows its operation, the object it touches, and its source "
                + "location (hover for the full path)."
        ]
        if !targets.isEmpty {
            items.append(
                "A coloured step conflicts with another lane's: both touch the same object and at least one writes "
                    + "(atomic stores and read-modify-writes, every mutex and condition operation). A line joins each "
                    + "pair, from the earlier step to the later; pairs more than \(PictureLayout.longestLine) steps "
                    + "apart are linked (↔) instead."
            )
            items.append(
                "Conflicting objects: "
                    + targets.map { target in
                        "<span class=\"chip t\(colours[target.target] ?? 0)\">\(e("\(target.target)"))</span> "
                            + "\(target.pairs) pair\(target.pairs == 1 ? "" : "s")"
                    }.joined(separator: ", "))
        }
        if picture.waitsFor.contains(where: \.inCycle) {
            items.append(
                "<span class=\"key cyc\"></span> waits for, in the lock-order cycle: from the blocked lane to the step "
                    + "where the lane it waits for took what it holds."
            )
        }
        if picture.waitsFor.contains(where: { !$0.inCycle }) {
            items.append("<span class=\"key oth\"></span> waits for, outside the cycle.")
        }
        if layout.blocks.contains(where: \.isCollapsed) {
            items.append("Runs of steps with nothing drawn on them are collapsed; click one to show it.")
        }
        return "<div class=\"legend\">" + items.map { "<p>\($0)</p>" }.joined() + "</div>"
    }

    private var laneHeader: String {
        var header = "<div class=\"lanes\"><b>step</b>"
        for lane in picture.lanes {
            header += "<span class=\"c\(layout.columns[lane] ?? 0)\">\(e(lane.label))</span>"
        }
        return header + "</div>"
    }

    // MARK: Lanes

    private func appendBlock(_ index: Int, to page: inout String) {
        let block = layout.blocks[index]
        page += "<div class=\"blk\" style=\"height:\(layout.height(of: block))px\">"
        for lane in picture.lanes {
            page += "<i class=\"band c\(layout.columns[lane] ?? 0)\"></i>"
        }
        page += "\n"
        for step in block.steps {
            appendStep(step, to: &page)
        }
        if layout.isLast(block), layout.hasEndRow {
            page += "<div class=\"end\" style=\"top:\(layout.endRowTop(in: block))px\">"
            for note in picture.notes {
                page +=
                    "<div class=\"note \(note.kind == .failed ? "failed" : "blocked") "
                    + "c\(layout.columns[note.lane] ?? 0)\" title=\"\(e(note.text))\">"
                page += "<b>\(e(note.lane.label))</b> \(e(note.text))</div>"
            }
            page += "</div>\n"
        }
        if !block.isCollapsed {
            page += lines(in: index)
        }
        page += "</div>\n"
    }

    private func appendStep(_ index: Int, to page: inout String) {
        let step = trace[index]
        // A job's tasks are drawn in the first one's lane; the executor's own steps are not drawn.
        let jobs = picture.failure.taskJobPlaces[index] ?? []
        if step.isBookkeeping && jobs.isEmpty {
            page += "<div class=\"r\"><b>\(index)</b></div>\n"
            return
        }
        let lane = jobs.first.map { Lane.task($0.task) } ?? Lane(of: step)
        var classes = "s c\(layout.columns[lane] ?? 0)"
        if let target = step.accessTarget, let colour = colours[target], partners[index] != nil {
            classes += " t\(colour)"
        } else if lane == .scheduler || step.kind == .start || step.kind == .exit || jobs.isEmpty && step.isBookkeeping
        {
            classes += " quiet"
        }
        let holds = held[index] ?? []
        if !holds.isEmpty { classes += " held" }
        var title = step.location.map { "\($0.fileID):\($0.line)" } ?? ""
        let stepPartners = partners[index] ?? []
        if !stepPartners.isEmpty {
            title +=
                "; conflicts with step" + (stepPartners.count == 1 ? " " : "s ")
                + stepPartners.map { "\($0.step)" }.joined(separator: ", ")
        }
        for edge in holds {
            title += "; \(edge.waiter.label) waits for it"
        }
        page += "<div class=\"r\"><b>\(index)</b><div class=\"\(classes)\""
        if !stepPartners.isEmpty || !holds.isEmpty { page += " id=\"s\(index)\"" }
        if !title.isEmpty { page += " title=\"\(e(title))\"" }
        page += ">"
        for partner in stepPartners where !partner.drawn {
            page += "<a href=\"#s\(partner.step)\">↔\(partner.step)</a>"
        }
        if !holds.isEmpty { page += "<a class=\"hold\">held</a>" }
        let text =
            jobs.isEmpty
            ? step.call?.methodText ?? step.kind.description
            : jobs.map { "task \($0.task) \($0.stepText)" }.joined(separator: "; ")
        page += "<span>\(e(text))"
        if let target = step.accessTarget { page += " <em>\(e("\(target)"))</em>" }
        page += "</span>"
        if let location = step.location {
            page += "<small>\(e(location.fileName)):\(location.line)</small>"
        }
        page += "</div></div>\n"
    }

    /// The SVG of the lines in `block`: its conflicts, and the waits-for arrows when it is
    /// the last block.
    private func lines(in index: Int) -> String {
        let block = layout.blocks[index]
        var paths = ""
        for conflict in layout.drawnConflicts[index] ?? [] {
            let colour = colours[conflict.target] ?? 0
            let from = Lane(of: trace[conflict.earlier])
            let to = Lane(of: trace[conflict.later])
            paths += link(
                from: (from, layout.middle(of: conflict.earlier, in: block) + Self.leaving),
                to: (to, layout.middle(of: conflict.later, in: block) - Self.leaving),
                style: "l\(colour)"
            )
        }
        if layout.isLast(block), layout.hasEndRow {
            let top = layout.endRowTop(in: block)
            for edge in picture.waitsFor {
                let style = edge.inCycle ? "cyc" : "oth"
                if PictureLayout.drawsToAcquisition(edge, stepCount: trace.count), let acquired = edge.acquired {
                    paths += link(
                        from: (edge.waiter, top + 22),
                        to: (edge.holder, layout.middle(of: acquired, in: block) - Self.leaving),
                        style: style
                    )
                } else {
                    paths += arc(
                        from: edge.waiter, to: edge.holder, below: top + PictureLayout.endRowHeight, style: style)
                }
            }
        }
        guard !paths.isEmpty else { return "" }
        return "<svg class=\"over\" width=\"\(layout.width)\" height=\"\(layout.height(of: block))\">\(paths)</svg>\n"
    }

    /// A curve from the side of `from`'s cell that faces `to`'s to the facing side of `to`'s.
    private func link(from: (lane: Lane, y: Int), to: (lane: Lane, y: Int), style: String) -> String {
        let fromX = layout.x(from.lane)
        let toX = layout.x(to.lane)
        let rightward = fromX < toX
        let x1 = rightward ? fromX + PictureLayout.cellWidth : fromX
        let x2 = rightward ? toX : toX + PictureLayout.cellWidth
        let bend = max(abs(x2 - x1) / 2, 16) * (rightward ? 1 : -1)
        return
            "<path class=\"\(style)\" "
            + "d=\"M\(x1) \(from.y)C\(x1 + bend) \(from.y) \(x2 - bend) \(to.y) \(x2) \(to.y)\" />"
    }

    /// An arc below the end row from `from`'s note to `to`'s: a lane waits for one whose
    /// note is in the same row. Arcs to the left hang lower, so a pair of opposite arcs
    /// does not overlap.
    private func arc(from: Lane, to: Lane, below y: Int, style: String) -> String {
        let half = PictureLayout.cellWidth / 2
        let x1 = layout.x(from) + half - 12
        let x2 = layout.x(to) + half + 12
        let depth = layout.x(from) < layout.x(to) ? 24 : 40
        return "<path class=\"\(style)\" d=\"M\(x1) \(y)C\(x1) \(y + depth) \(x2) \(y + depth) \(x2) \(y + 6)\" />"
    }

    // MARK: Styles

    /// Arrowheads (`a…`) and start dots (`d…`) for each line style, defined once; the style
    /// sheet puts them on the lines.
    private var markers: String {
        var defs = ""
        let styles =
            Self.palette.indices.map { ("l\($0)", Self.palette[$0]) } + [
                ("cyc", Self.cycleColour), ("oth", Self.waitColour)
            ]
        for (name, colour) in styles {
            defs +=
                "<marker id=\"a\(name)\" viewBox=\"0 0 10 10\" refX=\"9\" refY=\"5\" markerUnits=\"userSpaceOnUse\" "
                + "markerWidth=\"11\" markerHeight=\"11\" orient=\"auto\"><path d=\"M0 0L10 5L0 10z\" "
                + "fill=\"\(colour)\"/></marker>"
            defs +=
                "<marker id=\"d\(name)\" viewBox=\"0 0 10 10\" refX=\"5\" refY=\"5\" markerUnits=\"userSpaceOnUse\" "
                + "markerWidth=\"8\" markerHeight=\"8\"><circle cx=\"5\" cy=\"5\" r=\"4\" "
                + "fill=\"\(colour)\"/></marker>"
        }
        return "<svg class=\"defs\" width=\"0\" height=\"0\"><defs>\(defs)</defs></svg>"
    }

    private var style: String {
        var css = """
            body{font:13px/1.4 system-ui,-apple-system,"Segoe UI",sans-serif;color:#1f2328;background:#fff;\
            margin:16px 20px}
            h1{font-size:18px;margin:0 0 8px;color:#b42318}
            .facts{border-collapse:collapse;margin-bottom:8px}
            .facts th{text-align:left;font-weight:600;color:#57606a;padding:2px 12px 2px 0;vertical-align:top;\
            white-space:nowrap}
            .facts td{padding:2px 0;vertical-align:top}
            code,pre{font:12px/1.45 ui-monospace,"DejaVu Sans Mono",monospace}
            pre.command{background:#f3f4f6;padding:2px 6px;margin:0;border-radius:3px;max-width:1040px;\
            overflow-x:auto;white-space:pre}
            pre.reason{background:#fff5f5;border-left:4px solid #d62728;padding:6px 10px;margin:8px 0;\
            white-space:pre-wrap}
            .legend{color:#444;max-width:1100px;font-size:12px}
            .legend p{margin:3px 0}
            .chip{display:inline-block;padding:0 6px;border-radius:3px;border-left:4px solid;font-weight:600}
            .key{display:inline-block;width:28px;height:0;vertical-align:middle;\
            border-top:3px solid \(Self.cycleColour)}
            .key.oth{border-top:2px dashed \(Self.waitColour)}
            main{position:relative;margin-top:12px}
            .defs{position:absolute}
            .lanes{position:sticky;top:0;z-index:3;height:28px;background:#fff;border-bottom:1px solid #d0d7de}
            .lanes>*{position:absolute;top:4px;font-weight:700}
            .lanes>span{width:\(PictureLayout.cellWidth)px;text-align:center}
            .lanes>b{left:0;width:\(PictureLayout.numberWidth - 10)px;text-align:right;color:#57606a;font-weight:400}
            .blk{position:relative}
            .band{position:absolute;top:0;bottom:0;width:\(PictureLayout.cellWidth)px;background:#f6f8fa}
            .r{position:relative;height:\(PictureLayout.rowHeight)px}
            .r>b{position:absolute;left:0;width:\(PictureLayout.numberWidth - 10)px;top:9px;text-align:right;\
            font:11px ui-monospace,monospace;color:#8c959f}
            .s{position:absolute;top:2px;box-sizing:border-box;height:\(PictureLayout.cellHeight)px;\
            width:\(PictureLayout.cellWidth)px;padding:0 4px;background:#fff;border:1px solid #d0d7de;\
            border-left-width:4px;border-radius:4px;overflow:hidden;white-space:nowrap;line-height:15px}
            .s span{font-weight:600}
            .s em{font-style:normal;font-weight:400}
            .s small{display:block;color:#6e7781;font-size:11px;overflow:hidden;text-overflow:ellipsis}
            .s a{float:right;font-size:11px;margin-left:4px;color:#0969da;text-decoration:none}
            .s a.hold{color:\(Self.cycleColour);font-weight:700}
            .quiet{color:#6e7781;background:#fafbfc}
            .held{border-color:\(Self.cycleColour);box-shadow:0 0 0 2px \(Self.cycleColour)40}
            .end{position:absolute;left:0;right:0;height:\(PictureLayout.endRowHeight)px}
            .note{position:absolute;top:0;box-sizing:border-box;height:\(PictureLayout.endRowHeight)px;\
            width:\(PictureLayout.cellWidth)px;padding:5px;border-radius:4px;font-size:12px;line-height:15px;\
            overflow:hidden;overflow-wrap:anywhere}
            .failed{background:#ffebe9;border:1px solid \(Self.cycleColour);border-left-width:4px}
            .blocked{background:#fff8c5;border:1px solid #d4a72c;border-left-width:4px}
            .over{position:absolute;top:0;left:0;z-index:2;pointer-events:none;overflow:visible}
            .over path{fill:none;stroke-width:2;opacity:.9}
            .over .cyc{stroke:\(Self.cycleColour);stroke-width:3;marker-start:url(#dcyc);marker-end:url(#acyc)}
            .over .oth{stroke:\(Self.waitColour);stroke-dasharray:6 4;marker-start:url(#doth);marker-end:url(#aoth)}
            details{margin:2px 0}
            summary{cursor:pointer;white-space:nowrap;color:#57606a;font-style:italic;\
            padding:4px 0 4px \(PictureLayout.numberWidth)px;\
            background:repeating-linear-gradient(135deg,#f6f8fa 0 6px,#fff 6px 12px)}\n
            """
        for lane in picture.lanes {
            css += ".c\(layout.columns[lane] ?? 0){left:\(layout.x(lane))px}"
        }
        for (index, colour) in Self.palette.enumerated() {
            css += ".t\(index){background:\(colour)1f;border-color:\(colour)}"
            css += ".l\(index){stroke:\(colour);marker-start:url(#dl\(index));marker-end:url(#al\(index))}"
        }
        return css + "\n"
    }

    private func e(_ text: some StringProtocol) -> String {
        HTMLText.escape(text)
    }
}
