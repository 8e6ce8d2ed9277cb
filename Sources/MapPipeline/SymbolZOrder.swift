import MapDrawing
import MapGeometry
import MapLayout
import MapStyle

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

extension LabelStage {
    /// `labels` with each layer's icons moved by its `icon-translate` (evaluated at the frame's style zoom): in
    /// screen points with `icon-translate-anchor: viewport`, turned with the bearing when anchored to the map (the
    /// default). Drawing only, as MapLibre: collision boxes stay where placement put them.
    func translatedIcons(_ labels: [Int: [DrawCommand]], camera: CameraTransform) -> [Int: [DrawCommand]] {
        var result = labels
        let ctx = EvaluationContext(zoom: styleZoom(for: camera.state))
        for (index, commands) in labels where layers.indices.contains(index) {
            let layer = layers[index]
            guard layer.isSet("icon-translate") else { continue }
            let v = layer.numbers("icon-translate", ctx)
            guard v.count == 2, v[0].isFinite, v[1].isFinite, v[0] != 0 || v[1] != 0 else { continue }
            var dx = v[0]
            var dy = v[1]
            if layer.string("icon-translate-anchor", ctx) != "viewport" && camera.state.bearing != 0 {
                let b = camera.state.bearing * .pi / 180
                dx = cos(b) * v[0] + sin(b) * v[1]
                dy = -sin(b) * v[0] + cos(b) * v[1]
            }
            result[index] = commands.map { command in
                guard case .image(var i) = command else { return command }
                i.rect = RenderRect(
                    x: i.rect.minX + dx, y: i.rect.minY + dy, width: i.rect.width, height: i.rect.height)
                return .image(i)
            }
        }
        return result
    }
}
