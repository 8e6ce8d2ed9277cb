/// A short mirror for a renderer: a handful of counters, not its caches, engine and style (reflecting those in
/// full, as a failed test expectation on a renderer operand does, ran for minutes and took gigabytes).
extension MapRenderer: CustomReflectable {
    /// The renderer's frame counters: pending, in-flight and failed tiles (asynchronous mode; 0 otherwise) and the
    /// style sources with a tile source. Same thread as the frames.
    public var customMirror: Mirror {
        Mirror(
            self,
            children: [
                "pendingTileCount": pendingTileCount, "tileFetchesInFlight": tileFetchesInFlight,
                "failedTileCount": failedTileCount, "resolvedSourceIDs": resolvedSourceIDs,
            ], displayStyle: .class)
    }
}
