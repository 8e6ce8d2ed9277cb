import MapRender
import MapStyle

extension MapRenderer {
    /// The paint of one line feature for ``LineMeshCommand``: solid `line-color` today; `nil` when the feature
    /// needs the interim stroke path (a `line-dasharray`, `line-pattern` or `line-gradient`, moving to
    /// ``LinePaint`` cases) or has no colour.
    ///
    /// Owned by the line-paint work: this is the one place that turns line paint properties into a ``LinePaint``.
    func linePaint(_ layer: CompiledLayer, _ ctx: EvaluationContext) -> LinePaint? {
        guard let color = layer.color("line-color", ctx) else { return nil }
        if !layer.numbers("line-dasharray", ctx).isEmpty || layer.isSet("line-pattern") || layer.isSet("line-gradient")
        {
            return nil
        }
        return .solid(color)
    }
}
