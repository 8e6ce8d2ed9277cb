import MapPipeline

extension GMSServices {
    /// Waymark's own (issue 17): the most bytes the process's map caches keep, in bytes, `≥ 0` (negative values
    /// count as 0). Every `GMSMapView` (and `waymark snapshot`) draws through one engine per process
    /// (`MapPipeline.MapEngine.shared`): map views on the same style and data share its decoded and prepared tiles,
    /// label candidates and tile images, so four map views of the default map cost about what one does. When a new
    /// tile would exceed the limit the least recently used tiles of any map leave first. Lowering it evicts at once.
    /// Default 256 MiB (268,435,456). Label sprites are kept besides, by each thread's Cairo backend (32 MiB).
    /// Any thread, like the rest of `GMSServices`.
    public static var mapCacheByteLimit: Int {
        get { MapEngine.shared.byteBudget }
        set { MapEngine.shared.byteBudget = newValue }
    }
}
