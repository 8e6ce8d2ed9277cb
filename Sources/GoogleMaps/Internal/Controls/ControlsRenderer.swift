import Foundation
import LinuxUIKit
import MapGeometry

/// Draws the map's controls (vector art, no image assets) into the frame's context, in view points.
///
/// Two passes: ``drawUnderMarkers(map:context:)`` after the basemap (the active indoor level's features, the
/// my-location accuracy circle and dot), ``drawOverlays(map:context:)`` last (attribution, floor picker, my-location
/// button, compass), so Google's legal text and the buttons stay above markers and info windows.
@MainActor enum ControlsRenderer {
    static let blue = UIColor(red: 66 / 255, green: 133 / 255, blue: 244 / 255, alpha: 1)

    // MARK: Under the markers

    static func drawUnderMarkers(map: GMSMapView, context: CGContext) {
        drawIndoor(map: map, context: context)
        guard map.isMyLocationEnabled, let dot = map.controls.dot(map: map) else { return }
        context.saveGState()
        if dot.accuracyRadius > MapControls.dotRadius {
            let r = dot.accuracyRadius
            let rect = CGRect(x: dot.center.x - r, y: dot.center.y - r, width: 2 * r, height: 2 * r)
            context.setFillColor(blue.withAlphaComponent(0.15).cgColor)
            context.fillEllipse(in: rect)
            context.setStrokeColor(blue.withAlphaComponent(0.35).cgColor)
            context.setLineWidth(1)
            context.strokeEllipse(in: rect)
        }
        // Soft shadow, white ring, blue fill.
        let c = dot.center
        softShadow(context: context, center: CGPoint(x: c.x, y: c.y + 1), radius: MapControls.dotRadius + 2)
        context.setFillColor(UIColor.white.cgColor)
        context.fillEllipse(in: circle(c, MapControls.dotRadius + 2))
        context.setFillColor(blue.cgColor)
        context.fillEllipse(in: circle(c, MapControls.dotRadius - 0.5))
        context.restoreGState()
    }

    /// Indoor features of the active level: rooms and shops as light fills with outlines, corridors as lines,
    /// points as small dots; drawn when a building is focused and indoor is enabled.
    static func drawIndoor(map: GMSMapView, context: CGContext) {
        guard map.isIndoorEnabled, map.controls.indoorIsLoaded,
            let building = map.controls.indoor.display.activeBuilding
        else { return }
        let features = map.controls.indoor.visibleFeatures()
        let t = map.cameraState.transform
        func point(_ c: CLLocationCoordinate2D) -> CGPoint? {
            let w = t.nearestWorldCopy(of: WebMercator.worldPoint(LatLng(c)))
            guard t.depth(of: w) > t.distance * 1e-3 else { return nil }
            let s = t.screenPoint(forUnwrapped: w)
            return CGPoint(x: s.x, y: s.y)
        }
        context.saveGState()
        context.setLineWidth(1)
        // The focused building's outline: a pale floor with a darker wall line.
        let outline = building.outline.compactMap(point)
        if outline.count == building.outline.count, outline.count >= 3 {
            context.setFillColor(UIColor(red: 0.93, green: 0.92, blue: 0.96, alpha: 0.9).cgColor)
            path(outline, context: context, close: true)
            context.fillPath()
            context.setLineWidth(1.5)
            context.setStrokeColor(UIColor(red: 0.5, green: 0.47, blue: 0.6, alpha: 1).cgColor)
            path(outline, context: context, close: true)
            context.strokePath()
            context.setLineWidth(1)
        }
        for feature in features {
            switch feature.geometry {
            case .polygon(let ring):
                let points = ring.compactMap(point)
                guard points.count == ring.count, points.count >= 3 else { continue }
                let corridor = feature.category == "corridor" || feature.category == "area"
                context.setFillColor(
                    (corridor
                        ? UIColor(red: 0.97, green: 0.97, blue: 0.99, alpha: 0.95)
                        : UIColor(red: 0.86, green: 0.84, blue: 0.93, alpha: 0.95)).cgColor)
                context.setStrokeColor(UIColor(red: 0.55, green: 0.52, blue: 0.66, alpha: 1).cgColor)
                path(points, context: context, close: true)
                context.fillPath()
                path(points, context: context, close: true)
                context.strokePath()
            case .lineString(let line):
                let points = line.compactMap(point)
                guard points.count == line.count, points.count >= 2 else { continue }
                context.setStrokeColor(UIColor(red: 0.7, green: 0.7, blue: 0.75, alpha: 1).cgColor)
                path(points, context: context, close: false)
                context.strokePath()
            case .point(let c):
                guard let p = point(c) else { continue }
                context.setFillColor(UIColor(red: 0.45, green: 0.35, blue: 0.7, alpha: 1).cgColor)
                context.fillEllipse(in: circle(p, 3))
            }
        }
        context.restoreGState()
    }

    // MARK: Over everything

    static func drawOverlays(map: GMSMapView, context: CGContext) {
        UIGraphicsPushContext(context)
        defer { UIGraphicsPopContext() }
        let controls = map.controls
        drawAttribution(map: map, context: context)
        let rows = controls.floorPickerRows(map: map)
        let palette = controls.palette
        if !rows.isEmpty {
            drawFloorPicker(rows, active: map.indoorDisplay.activeLevel, palette: palette, context: context)
        }
        if let f = controls.myLocationButtonFrame(map: map) {
            drawMyLocationButton(f, palette: palette, context: context)
        }
        if let f = controls.compassFrame(map: map) {
            drawCompass(
                f, bearing: map.cameraState.bearing, opacity: CGFloat(controls.compassOpacity), palette: palette,
                context: context)
        }
    }

    /// The basemap's attribution line at the bottom-left of the padded area (D16, §4.5–4.6), above the markers. The
    /// line is laid out once while its text is unchanged (``MapControls/attributionLine(_:)``) and that one layout
    /// both sizes the backing box and draws.
    static func drawAttribution(map: GMSMapView, context: CGContext) {
        guard let text = map.activeBasemap?.attribution, !text.isEmpty else { return }
        let a = MapControls.controlArea(map: map)
        let line = map.controls.attributionLine(text)
        let size = line.size
        // The text sits 6 pt from the left and 5 pt above the bottom of the padded view (as the pipeline's).
        let x = a.minX - MapControls.margin + 6
        let y = a.maxY + MapControls.margin - 5 - size.height
        context.saveGState()
        context.setFillColor(map.controls.palette.attributionBox.cgColor)
        context.fill(CGRect(x: x - 3, y: y - 1, width: size.width + 6, height: size.height + 2))
        context.restoreGState()
        line.draw(at: CGPoint(x: x, y: y))
    }

    static func drawCompass(
        _ frame: CGRect, bearing: Double, opacity: CGFloat, palette: ControlPalette = .light, context: CGContext
    ) {
        context.saveGState()
        context.setAlpha(opacity)
        let c = CGPoint(x: frame.midX, y: frame.midY)
        softShadow(context: context, center: CGPoint(x: c.x, y: c.y + 1.5), radius: 17.5)
        context.setFillColor(palette.surface.withAlphaComponent(0.95).cgColor)
        context.fillEllipse(in: circle(c, 16.5))
        context.setStrokeColor(palette.rim.cgColor)
        context.setLineWidth(0.5)
        context.strokeEllipse(in: circle(c, 16.5))
        // Needle: screen north is up; the map's north is turned by −bearing (clockwise bearing turns the map
        // anticlockwise), so the needle is rotated by −bearing.
        context.translateBy(x: c.x, y: c.y)
        context.rotate(by: CGFloat(-bearing * .pi / 180))
        let len: CGFloat = 12
        let half: CGFloat = 4
        context.setFillColor(UIColor(red: 0.86, green: 0.2, blue: 0.17, alpha: 1).cgColor)
        path([CGPoint(x: 0, y: -len), CGPoint(x: half, y: 0), CGPoint(x: -half, y: 0)], context: context, close: true)
        context.fillPath()
        context.setFillColor(palette.needleSouth.cgColor)
        path([CGPoint(x: 0, y: len), CGPoint(x: half, y: 0), CGPoint(x: -half, y: 0)], context: context, close: true)
        context.fillPath()
        context.restoreGState()
    }

    static func drawMyLocationButton(_ frame: CGRect, palette: ControlPalette = .light, context: CGContext) {
        context.saveGState()
        let body = frame.insetBy(dx: 3, dy: 3)
        for i in 0..<3 {
            let d = CGFloat(3 - i)
            context.setFillColor(UIColor(white: 0, alpha: 0.05).cgColor)
            roundedRect(body.insetBy(dx: -d, dy: -d).offsetBy(dx: 0, dy: 1), radius: 4 + d, context: context)
            context.fillPath()
        }
        context.setFillColor(palette.surface.cgColor)
        roundedRect(body, radius: 4, context: context)
        context.fillPath()
        // Navigation-arrow glyph pointing up-right.
        let c = CGPoint(x: body.midX, y: body.midY)
        context.setFillColor(palette.glyph.cgColor)
        path(
            [
                CGPoint(x: c.x + 9, y: c.y - 9), CGPoint(x: c.x + 1, y: c.y + 10), CGPoint(x: c.x - 1, y: c.y + 1),
                CGPoint(x: c.x - 10, y: c.y - 1),
            ], context: context, close: true)
        context.fillPath()
        context.restoreGState()
    }

    static func drawFloorPicker(
        _ rows: [(GMSIndoorLevel, CGRect)], active: GMSIndoorLevel?, palette: ControlPalette = .light,
        context: CGContext
    ) {
        guard let first = rows.first?.1, let last = rows.last?.1 else { return }
        let all = first.union(last)
        context.saveGState()
        for i in 0..<3 {
            let d = CGFloat(3 - i)
            context.setFillColor(UIColor(white: 0, alpha: 0.05).cgColor)
            roundedRect(all.insetBy(dx: -d, dy: -d).offsetBy(dx: 0, dy: 1), radius: 4 + d, context: context)
            context.fillPath()
        }
        context.setFillColor(palette.surface.cgColor)
        roundedRect(all, radius: 4, context: context)
        context.fillPath()
        for (level, rect) in rows {
            let isActive = level === active
            if isActive {
                context.setFillColor(palette.selection.cgColor)
                context.fill(rect.insetBy(dx: 2, dy: 1))
            }
            let text = level.shortName ?? level.name ?? "\(level.ordinal)"
            let attrs: [NSAttributedString.Key: Any] = [
                .font: isActive ? UIFont.boldSystemFont(ofSize: 13) : UIFont.systemFont(ofSize: 13),
                .foregroundColor: isActive ? palette.activeText : palette.inactiveText,
            ]
            let size = text.size(withAttributes: attrs)
            text.draw(
                at: CGPoint(x: rect.midX - size.width / 2, y: rect.midY - size.height / 2), withAttributes: attrs)
        }
        context.restoreGState()
    }

    // MARK: Helpers

    static func circle(_ c: CGPoint, _ r: CGFloat) -> CGRect {
        CGRect(x: c.x - r, y: c.y - r, width: 2 * r, height: 2 * r)
    }

    /// A soft shadow: three translucent discs growing outwards.
    static func softShadow(context: CGContext, center: CGPoint, radius: CGFloat) {
        for i in 0..<3 {
            context.setFillColor(UIColor(white: 0, alpha: 0.06).cgColor)
            context.fillEllipse(in: circle(center, radius + CGFloat(3 - i)))
        }
    }

    static func path(_ points: [CGPoint], context: CGContext, close: Bool) {
        context.beginPath()
        guard let first = points.first else { return }
        context.move(to: first)
        for p in points.dropFirst() { context.addLine(to: p) }
        if close { context.closePath() }
    }

    static func roundedRect(_ r: CGRect, radius: CGFloat, context: CGContext) {
        let k = min(radius, r.width / 2, r.height / 2)
        context.beginPath()
        context.move(to: CGPoint(x: r.minX + k, y: r.minY))
        context.addLine(to: CGPoint(x: r.maxX - k, y: r.minY))
        context.addQuadCurve(to: CGPoint(x: r.maxX, y: r.minY + k), control: CGPoint(x: r.maxX, y: r.minY))
        context.addLine(to: CGPoint(x: r.maxX, y: r.maxY - k))
        context.addQuadCurve(to: CGPoint(x: r.maxX - k, y: r.maxY), control: CGPoint(x: r.maxX, y: r.maxY))
        context.addLine(to: CGPoint(x: r.minX + k, y: r.maxY))
        context.addQuadCurve(to: CGPoint(x: r.minX, y: r.maxY - k), control: CGPoint(x: r.minX, y: r.maxY))
        context.addLine(to: CGPoint(x: r.minX, y: r.minY + k))
        context.addQuadCurve(to: CGPoint(x: r.minX + k, y: r.minY), control: CGPoint(x: r.minX, y: r.minY))
        context.closePath()
    }
}

/// The colours of the map's controls in one appearance (the dark one follows Google's dark controls: a dark grey
/// surface, light glyphs).
struct ControlPalette {
    /// The button and compass face (the compass draws it at 95 % opacity).
    let surface: UIColor
    /// The compass rim.
    let rim: UIColor
    /// The compass needle's south half.
    let needleSouth: UIColor
    /// Glyphs and inactive floor names.
    let glyph: UIColor
    /// The active floor's name.
    let activeText: UIColor
    /// The other floors' names.
    let inactiveText: UIColor
    /// The active floor's row.
    let selection: UIColor
    /// The box behind the attribution line.
    let attributionBox: UIColor
    /// The attribution text.
    let attributionText: UIColor

    /// The light appearance (the default).
    static let light = ControlPalette(
        surface: UIColor(white: 1, alpha: 0.97), rim: UIColor(white: 0, alpha: 0.12),
        needleSouth: UIColor(white: 0.62, alpha: 1),
        glyph: UIColor(white: 0.38, alpha: 1), activeText: UIColor(white: 0.1, alpha: 1),
        inactiveText: UIColor(white: 0.4, alpha: 1), selection: UIColor(white: 0.86, alpha: 1),
        attributionBox: UIColor(white: 1, alpha: 0.7),
        attributionText: UIColor(red: 0x5f / 255, green: 0x63 / 255, blue: 0x68 / 255, alpha: 1))
    /// The dark appearance.
    static let dark = ControlPalette(
        surface: UIColor(red: 0x30 / 255, green: 0x31 / 255, blue: 0x34 / 255, alpha: 0.97),
        rim: UIColor(white: 1, alpha: 0.16), needleSouth: UIColor(white: 0.55, alpha: 1),
        glyph: UIColor(white: 0.85, alpha: 1), activeText: UIColor(white: 0.97, alpha: 1),
        inactiveText: UIColor(white: 0.75, alpha: 1), selection: UIColor(white: 0.32, alpha: 1),
        attributionBox: UIColor(red: 0x20 / 255, green: 0x21 / 255, blue: 0x24 / 255, alpha: 0.7),
        attributionText: UIColor(red: 0xbd / 255, green: 0xc1 / 255, blue: 0xc6 / 255, alpha: 1))
}
