import MapGeometry

/// Joins the lines of line-placed labels with the same text that meet end to start, as MapLibre does before laying
/// out anchors (its `mergeLines`): a road cut into pieces at every junction is labelled as one line, so its labels
/// keep `symbol-spacing` along the whole road.
///
/// Items are taken in order. An item whose first point is the last point of an earlier line with the same text is
/// appended to that line; one whose last point is the first point of an earlier line is prepended to it; one that
/// joins two earlier lines joins all three into the one that ends where it starts. Points must be equal exactly.
/// - Parameter items: per symbol, its text and line, or `nil` for a symbol that takes no part (kept as it is).
/// - Returns: per item, its line after merging (the merged line for the item that holds it), or `nil` for an item
///   merged into another's line. `nil` items stay `nil`.
package func mergeLabelLines(_ items: [(text: String, line: [WorldPoint])?]) -> [[WorldPoint]?] {
    struct Key: Hashable {
        var text: String
        var x: Double
        var y: Double
    }
    var lines: [[WorldPoint]?] = items.map { $0?.line }
    // Line ends → the index of the item holding the line.
    var leftIndex: [Key: Int] = [:]
    var rightIndex: [Key: Int] = [:]
    func key(_ text: String, _ p: WorldPoint) -> Key { Key(text: text, x: p.x, y: p.y) }
    for k in items.indices {
        guard let item = items[k], let first = item.line.first, let last = item.line.last else { continue }
        let leftKey = key(item.text, first)
        let rightKey = key(item.text, last)
        let before = rightIndex[leftKey]
        let after = leftIndex[rightKey]
        if let after, let before, after != before {
            // Joins a line that ends where it starts and one that starts where it ends: all three into the first.
            leftIndex[rightKey] = nil
            rightIndex[leftKey] = nil
            var joined = lines[before] ?? []
            joined.removeLast()
            joined += item.line
            joined.removeLast()
            joined += lines[after] ?? []
            lines[before] = joined
            lines[after] = nil
            lines[k] = nil
            leftIndex = leftIndex.filter { $0.value != after }
            rightIndex = rightIndex.filter { $0.value != after }
            if let end = joined.last { rightIndex[key(item.text, end)] = before }
        } else if let after {
            // Prepended to the line that starts where this one ends.
            leftIndex[rightKey] = nil
            leftIndex[leftKey] = after
            var joined = item.line
            joined.removeLast()
            lines[after] = joined + (lines[after] ?? [])
            lines[k] = nil
        } else if let before {
            // Appended to the line that ends where this one starts.
            rightIndex[leftKey] = nil
            rightIndex[rightKey] = before
            var joined = lines[before] ?? []
            joined.removeLast()
            lines[before] = joined + item.line
            lines[k] = nil
        } else {
            leftIndex[leftKey] = k
            rightIndex[rightKey] = k
        }
    }
    return lines
}
