import Foundation
import MapDrawing
import MapGeometry

/// A custom marker icon the host has fetched and registered with its backend.
public struct StaticMapIcon: Sendable {
    /// The image, registered with the backend that draws the frame.
    public var image: ImageHandle
    /// The image's width in pixels.
    public var pixelWidth: Double
    /// The image's height in pixels.
    public var pixelHeight: Double

    /// Creates an icon.
    public init(image: ImageHandle, pixelWidth: Double, pixelHeight: Double) {
        self.image = image
        self.pixelWidth = pixelWidth
        self.pixelHeight = pixelHeight
    }
}

/// A Static Maps request ready to draw: its camera (given or fitted, as Google fits) and its markers and paths with
/// every place resolved. Waymark's own; made by ``init(request:resolve:)``, drawn by the host as a basemap frame for
/// ``camera`` with ``overlay(icon:)`` over it.
public struct StaticMapScene: Sendable {
    /// The camera: the request's `center` and `zoom`, or fitted to the markers, paths and `visible`.
    public var camera: CameraState
    /// Device pixels per point (`scale`).
    public var scale: Double
    /// The markers with their resolved positions, in request order.
    public var markers: [(style: StaticMarkers, positions: [LatLng])]
    /// The paths with their resolved points, in request order.
    public var paths: [(style: StaticPath, points: [LatLng])]

    /// The largest zoom a fit picks for a single point (Waymark's choice: Google's fit of one marker is a street view).
    public static let singlePointZoom = 15
    /// The largest zoom a fit picks.
    public static let maxFitZoom = 18

    /// Resolves the request's places with `resolve` and computes the camera.
    /// - Parameters:
    ///   - request: the parsed request; its `center` and `zoom` set the camera when both are given, otherwise the
    ///     camera is fitted to the visible places, paths and markers.
    ///   - resolve: a place name → its position, or `nil` when unknown.
    /// - Throws: ``StaticMapError`` (400) naming the parameter whose place `resolve` did not know.
    public init(request: StaticMapRequest, resolve: (String) -> LatLng?) throws(StaticMapError) {
        func position(_ l: StaticMapLocation, _ parameter: String) throws(StaticMapError) -> LatLng {
            switch l {
            case .coordinate(let c): return c
            case .place(let name):
                guard let c = resolve(name) else {
                    throw .bad(parameter, "the place '\(name)' was not found by the server's geocoder")
                }
                return c
            }
        }
        var markers: [(StaticMarkers, [LatLng])] = []
        for m in request.markers {
            var list: [LatLng] = []
            for l in m.locations { list.append(try position(l, "markers")) }
            markers.append((m, list))
        }
        var paths: [(StaticPath, [LatLng])] = []
        for p in request.paths {
            var list: [LatLng] = []
            for l in p.points { list.append(try position(l, "path")) }
            paths.append((p, list))
        }
        var visible: [LatLng] = []
        for l in request.visible { visible.append(try position(l, "visible")) }
        let center = try request.center.map { l throws(StaticMapError) in try position(l, "center") }
        self.markers = markers
        self.paths = paths
        self.scale = Double(request.scale)
        let size = ScreenSize(width: Double(request.width), height: Double(request.height))
        if let center, let zoom = request.zoom {
            camera = CameraState(center: center, zoom: Double(zoom), size: size)
            return
        }
        // Fit: every point in view; markers keep their pin inside the frame. Longitudes take the shortest span that
        // holds every marker, `visible` place and path (each path unwrapped so it takes the short way), as Google's
        // fit does: points on both sides of the antimeridian fit across it.
        var points = visible
        var spans = visible.map { (west: $0.longitude, east: $0.longitude) }
        for (_, p) in paths where !p.isEmpty {
            let u = Self.unwrapped(p)
            points += u
            spans.append((u.map(\.longitude).min()!, u.map(\.longitude).max()!))
        }
        var pinWidth = 0.0
        var pinHeight = 0.0
        for (m, list) in markers where !list.isEmpty {
            points += list
            spans += list.map { ($0.longitude, $0.longitude) }
            let (w, h) = Self.pinSize(m.size)
            pinWidth = max(pinWidth, m.icon == nil ? w : 32)
            pinHeight = max(pinHeight, m.icon == nil ? h : 32)
        }
        let worlds = points.map { WebMercator.worldPoint($0) }
        var span = Self.shortestLongitudeSpan(spans) ?? (west: 0, east: 0)
        if let center {
            // The copy of the span nearest the given centre.
            let middle = (span.west + span.east) / 2
            let shift = 360 * ((center.longitude - middle) / 360).rounded()
            span = (span.west + shift, span.east + shift)
        }
        var minX = (span.west + 180) / 360
        var maxX = (span.east + 180) / 360
        let minY = worlds.map(\.y).min() ?? 0.5
        let maxY = worlds.map(\.y).max() ?? 0.5
        if let center {
            // Symmetric around the given centre.
            let c = WebMercator.worldPoint(center)
            let dx = max(abs(maxX - c.x), abs(minX - c.x))
            minX = c.x - dx
            maxX = c.x + dx
        }
        let fitCenter =
            center
            ?? WebMercator.latLng(WorldPoint(x: (minX + maxX) / 2, y: (minY + maxY) / 2))
        let c = WebMercator.worldPoint(fitCenter)
        let dy = max(abs(maxY - c.y), abs(minY - c.y))
        var zoom = request.zoom ?? 0
        if request.zoom == nil {
            let single = (maxX - minX) < 1e-12 && (maxY - minY) < 1e-12
            zoom = single ? Self.singlePointZoom : 0
            if !single {
                let availableW = max(1, size.width - pinWidth)
                let availableH = max(1, (size.height - pinHeight) / 2)
                for z in stride(from: Self.maxFitZoom, through: 0, by: -1) {
                    let world = WebMercator.worldSize(zoom: Double(z))
                    if (maxX - minX) * world <= availableW && dy * world <= availableH {
                        zoom = z
                        break
                    }
                }
            }
        }
        var finalCenter = fitCenter
        if center == nil && pinHeight > 0 {
            // Pins rise above their points: centre the points in the frame below the top pin's height.
            let world = WebMercator.worldSize(zoom: Double(zoom))
            finalCenter = WebMercator.latLng(WorldPoint(x: c.x, y: c.y - pinHeight / 2 / world))
        }
        camera = CameraState(
            center: LatLng(latitude: finalCenter.latitude, longitude: wrap(finalCenter.longitude)), zoom: Double(zoom),
            size: size)
    }

    /// The pin of a marker size, width × height in points (the tip at the bottom centre).
    public static func pinSize(_ size: StaticMarkers.Size) -> (Double, Double) {
        switch size {
        case .normal: return (22, 36)
        case .mid: return (16, 26)
        case .small: return (12, 19)
        case .tiny: return (8, 13)
        }
    }

    /// The shortest span of longitudes, in degrees, that holds every one of `spans` (each `west...east`, a point when
    /// equal, a path's unwrapped extent otherwise; any copy 360° apart counts): 360° minus the widest gap between
    /// them on the circle. The result's `west` is one of the spans' (as given, not wrapped) and `east - west` is at
    /// most 360 (360 when the spans leave no gap). `nil` when `spans` is empty.
    static func shortestLongitudeSpan(_ spans: [(west: Double, east: Double)]) -> (west: Double, east: Double)? {
        guard !spans.isEmpty else { return nil }
        if let whole = spans.first(where: { $0.east - $0.west >= 360 }) { return (whole.west, whole.west + 360) }
        // Each span moved so its west edge is in [-180, 180), sorted by it.
        let sorted = spans.map { s -> (west: Double, east: Double, shift: Double) in
            let shift = 360 * ((s.west + 180) / 360).rounded(.down)
            return (s.west - shift, s.east - shift, shift)
        }.sorted { $0.west < $1.west }
        // Sweep once around the circle: coverage starts where the spans reaching past +180 end, one turn back.
        var covered = sorted.map(\.east).max()! - 360
        var gap = -Double.infinity
        var start = sorted[0]
        for s in sorted {
            if s.west - covered > gap {
                gap = s.west - covered
                start = s
            }
            covered = max(covered, s.east)
        }
        let width = 360 - max(0, gap)
        return (start.west + start.shift, start.west + start.shift + width)
    }

    /// Longitudes made continuous along the path (each within 180° of the previous), so a path over the
    /// antimeridian takes the short way.
    static func unwrapped(_ points: [LatLng]) -> [LatLng] {
        var out: [LatLng] = []
        out.reserveCapacity(points.count)
        for p in points {
            guard let last = out.last else {
                out.append(p)
                continue
            }
            var lng = p.longitude
            while lng - last.longitude > 180 { lng -= 360 }
            while lng - last.longitude < -180 { lng += 360 }
            out.append(LatLng(latitude: p.latitude, longitude: lng))
        }
        return out
    }

    /// The paths' and markers' drawing commands in points, paths under markers (Google's order), pins from north to
    /// south so southern pins overlap northern ones.
    /// - Parameter icon: the registered image of a custom icon URL, or `nil` (the marker then draws the default pin).
    /// - Returns: fills and strokes for the paths, then images or default pins for the markers, in screen points for
    ///   ``camera``; empty when the request has no paths or markers.
    public func overlay(icon: (String) -> StaticMapIcon? = { _ in nil }) -> [DrawCommand] {
        var commands: [DrawCommand] = []
        let transform = camera.transform
        let centerLng = camera.center.longitude
        func screen(_ p: LatLng) -> ScreenPoint {
            // The copy of the point nearest the camera's centre.
            var lng = p.longitude
            while lng - centerLng > 180 { lng -= 360 }
            while lng - centerLng < -180 { lng += 360 }
            let s = transform.screenPoint(for: WebMercator.worldPoint(LatLng(latitude: p.latitude, longitude: lng)))
            return ScreenPoint(x: s.x, y: s.y)
        }
        for (style, points) in paths where !points.isEmpty {
            var dense = Self.unwrapped(points)
            if style.geodesic { dense = Self.geodesic(dense) }
            let first = screen(dense[0])
            let shift = first.x - transform.screenPoint(for: WebMercator.worldPoint(dense[0])).x
            var path = RenderPath(reservingPoints: dense.count)
            for (i, p) in dense.enumerated() {
                let s = transform.screenPoint(for: WebMercator.worldPoint(p))
                let point = ScreenPoint(x: s.x + shift, y: s.y)
                if i == 0 { path.move(to: point) } else { path.line(to: point) }
            }
            if let fill = style.fillColor {
                var closed = path
                closed.close()
                commands.append(.fill(FillCommand(path: closed, color: fill)))
                if style.weight > 0 {
                    commands.append(
                        .stroke(StrokeCommand(path: closed, color: style.color, width: style.weight, join: .round)))
                }
            } else if style.weight > 0 {
                commands.append(
                    .stroke(
                        StrokeCommand(path: path, color: style.color, width: style.weight, cap: .round, join: .round)))
            }
        }
        var pins: [(point: ScreenPoint, style: StaticMarkers, order: Int)] = []
        for (style, positions) in markers {
            for p in positions { pins.append((screen(p), style, pins.count)) }
        }
        pins.sort { $0.point.y != $1.point.y ? $0.point.y < $1.point.y : $0.order < $1.order }
        for pin in pins {
            if let url = pin.style.icon, let image = icon(url) {
                let s = Double(pin.style.scale)
                let w = image.pixelWidth / s
                let h = image.pixelHeight / s
                let (ax, ay): (Double, Double)
                switch pin.style.anchor {
                case .fraction(let fx, let fy): (ax, ay) = (fx * w, fy * h)
                case .point(let px, let py): (ax, ay) = (px / s, py / s)
                }
                commands.append(
                    .image(
                        ImageCommand(
                            image: image.image,
                            rect: RenderRect(x: pin.point.x - ax, y: pin.point.y - ay, width: w, height: h))))
            } else {
                commands += Self.pin(at: pin.point, style: pin.style)
            }
        }
        return commands
    }

    /// Great-circle points between each pair, about one per degree of arc.
    static func geodesic(_ points: [LatLng]) -> [LatLng] {
        guard points.count > 1 else { return points }
        var out = [points[0]]
        for i in 1..<points.count {
            let a = out.last!
            let b = points[i]
            let steps = min(360, max(1, Int((Spherical.angleBetween(a, b) * 180 / .pi).rounded(.up))))
            for k in 1...steps {
                let p = Spherical.interpolate(from: a, to: b, fraction: Double(k) / Double(steps))
                var lng = p.longitude
                let prev = out.last!.longitude
                while lng - prev > 180 { lng -= 360 }
                while lng - prev < -180 { lng += 360 }
                out.append(LatLng(latitude: p.latitude, longitude: lng))
            }
        }
        return out
    }

    /// The colour of a pin's label on a pin of `color`: white on dark pins (black, brown, purple, blue, a dark
    /// `0xRRGGBB`), black on light ones, as Google's labels are. Dark is a WCAG relative luminance (the sRGB channels
    /// linearised, weighted 0.2126, 0.7152, 0.0722) below 0.179, where white and black contrast equally. Waymark's own.
    public static func labelColor(on color: RGBAColor) -> RGBAColor {
        func linear(_ c: Double) -> Double { c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4) }
        let luminance = 0.2126 * linear(color.red) + 0.7152 * linear(color.green) + 0.0722 * linear(color.blue)
        return luminance < 0.179 ? .white : .black
    }

    /// The default pin: a teardrop with its tip on `tip`, a darker border, and the label (normal and mid pins) or a
    /// dark dot in the head.
    static func pin(at tip: ScreenPoint, style: StaticMarkers) -> [DrawCommand] {
        let (w, h) = pinSize(style.size)
        let r = w / 2
        let center = ScreenPoint(x: tip.x, y: tip.y - h + r)
        let d = h - r
        let beta = acos(min(1, r / d))
        var path = RenderPath(reservingPoints: 40)
        let start = Double.pi / 2 + beta
        let end = Double.pi / 2 - beta + 2 * .pi
        let steps = 32
        for k in 0...steps {
            let a = start + (end - start) * Double(k) / Double(steps)
            let p = ScreenPoint(x: center.x + r * cos(a), y: center.y + r * sin(a))
            if k == 0 { path.move(to: p) } else { path.line(to: p) }
        }
        path.line(to: tip)
        path.close()
        let c = style.color
        let border = RGBAColor(red: c.red * 0.7, green: c.green * 0.7, blue: c.blue * 0.7)
        var commands: [DrawCommand] = [
            .fill(FillCommand(path: path, color: c)),
            .stroke(StrokeCommand(path: path, color: border, width: 1, join: .round)),
        ]
        if let label = style.label, style.size == .normal || style.size == .mid {
            let text = TextStyle(
                fontFamilies: ["DejaVu Sans", "sans-serif"], size: style.size == .normal ? 13 : 10, weight: .bold,
                color: labelColor(on: c))
            commands.append(.text(TextCommand(text: String(label), style: text, position: center)))
        } else {
            let dot = RGBAColor(red: c.red * 0.45, green: c.green * 0.45, blue: c.blue * 0.45)
            commands.append(.circle(CircleCommand(center: center, radius: r * 0.36, fillColor: dot)))
        }
        return commands
    }
}

private func wrap(_ lng: Double) -> Double {
    var l = lng
    while l >= 180 { l -= 360 }
    while l < -180 { l += 360 }
    return l
}
