import MapGeometry
import MapTestSupport
import Testing
import WaymarkTime

@testable import GoogleMaps

/// Stands in for a draggable marker in the fuzz test's hit test.
private final class FuzzMarker {}

/// Checks the camera event protocol as events arrive: `didChange` and `idle` only inside a movement opened by a
/// `willMove`, and exactly one `idle` per movement.
private struct EventProtocol {
    var open = false
    var violations: [String] = []

    mutating func see(_ e: CameraEvent) {
        switch e {
        case .willMove: open = true
        case .didChange(let s):
            if !open { violations.append("didChange outside a movement") }
            if !s.center.isFinite || !s.zoom.isFinite { violations.append("non-finite didChange \(s)") }
        case .idle:
            if !open { violations.append("idle without willMove (duplicate idle)") }
            open = false
        }
    }
}

/// Seeded random touch sequences and API calls against a gesture manager and animator, checking invariants after
/// every step (issue 7's fuzz requirement, scaled to what runs in a few seconds in a debug build).
@MainActor @Suite struct GestureFuzzTests {
    static let sequences = 100_000

    private func valid(_ c: CameraState, _ constraints: CameraConstraints) -> String? {
        let fields = [c.center.latitude, c.center.longitude, c.zoom, c.bearing, c.pitch]
        if fields.contains(where: { !$0.isFinite }) { return "non-finite camera \(c)" }
        if c.zoom < constraints.minimumZoom || c.zoom > constraints.maximumZoom {
            return "zoom out of limits \(c.zoom)"
        }
        if c.pitch < 0 || c.pitch > CameraConstraints.maximumPitch(zoom: c.zoom) + 1e-9 {
            return "pitch \(c.pitch) beyond the limit at zoom \(c.zoom)"
        }
        if c.bearing < 0 || c.bearing >= 360 { return "bearing \(c.bearing)" }
        if abs(c.center.latitude) > 85 { return "latitude \(c.center.latitude)" }
        if c.center.longitude < -180 || c.center.longitude >= 180 { return "longitude \(c.center.longitude)" }
        return nil
    }

    @Test func randomTouchSequencesKeepInvariants() {
        var rng = SeededRandom(seed: 0x5EED_0007)
        let marker = FuzzMarker()
        let h = GestureHarness(hitTest: { p in
            if p.x < 60 { return .element }
            if p.x > 300 && p.y > 250 { return .draggable(marker) }
            return .map
        })
        var proto = EventProtocol()
        var gestureMoves = 0
        h.animator.onEvent = { e in
            proto.see(e)
            if e == .willMove(gesture: true) { gestureMoves += 1 }
        }
        var kinds: [String: Int] = [:]
        var dragOpen = false
        var eventIssues: [String] = []
        h.manager.onEvent = { e in
            kinds[String(e.description.prefix { $0 != "(" }), default: 0] += 1
            switch e {
            case .tap(let p), .longPress(let p):
                if !(p.x.isFinite && p.y.isFinite) { eventIssues.append("non-finite \(e)") }
                if dragOpen { eventIssues.append("\(e) during a drag") }
            case .dragBegan:
                if dragOpen { eventIssues.append("drag began twice") }
                dragOpen = true
            case .dragMoved:
                if !dragOpen { eventIssues.append("dragMoved outside a drag") }
            case .dragEnded:
                if !dragOpen { eventIssues.append("dragEnded outside a drag") }
                dragOpen = false
            }
        }
        var down: [Int: ScreenPoint] = [:]
        var failures: [String] = []
        func randomPoint() -> ScreenPoint {
            ScreenPoint(x: Double.random(in: -50...450, using: &rng), y: Double.random(in: -50...450, using: &rng))
        }
        func randomCamera() -> CameraState {
            CameraState(
                center: LatLng(
                    latitude: Double.random(in: -89...89, using: &rng),
                    longitude: Double.random(in: -400...400, using: &rng)),
                zoom: Double.random(in: 0...25, using: &rng), bearing: Double.random(in: -720...720, using: &rng),
                pitch: Double.random(in: 0...90, using: &rng), size: ScreenSize(width: 400, height: 400))
        }
        func check(_ step: String) {
            if let problem = valid(h.animator.camera, h.animator.constraints) { failures.append("\(step): \(problem)") }
        }

        for sequence in 0..<Self.sequences {
            let steps = Int.random(in: 1...10, using: &rng)
            for _ in 0..<steps {
                let action = Int.random(in: 0..<100, using: &rng)
                switch action {
                case 0..<20:
                    let id = Int.random(in: 0..<3, using: &rng)
                    let p = action == 0 ? ScreenPoint(x: .nan, y: 10) : randomPoint()
                    h.manager.handle(.began, [TouchPoint(id: id, point: p)], time: h.clock.now)
                    if p.x.isFinite && down[id] == nil { down[id] = p }
                case 20..<45:
                    guard let (id, p) = down.randomElement(using: &rng) else { continue }
                    let r = Bool.random(using: &rng) ? 8.0 : 60.0  // within or beyond the slop
                    let q = ScreenPoint(
                        x: p.x + Double.random(in: -r...r, using: &rng), y: p.y + Double.random(in: -r...r, using: &rng)
                    )
                    h.manager.handle(.moved, [TouchPoint(id: id, point: q)], time: h.clock.now)
                    down[id] = q
                case 45..<55:
                    guard let (id, p) = down.randomElement(using: &rng) else { continue }
                    h.manager.handle(.ended, [TouchPoint(id: id, point: p)], time: h.clock.now)
                    down[id] = nil
                case 55..<57:
                    guard let (id, p) = down.randomElement(using: &rng) else { continue }
                    h.manager.handle(.cancelled, [TouchPoint(id: id, point: p)], time: h.clock.now)
                    down[id] = nil
                case 57..<85:
                    h.clock.advance(by: Double.random(in: 0...0.3, using: &rng))
                    h.manager.tick()
                    h.animator.tick()
                case 85..<89:
                    h.animator.animate(to: randomCamera(), duration: Double.random(in: -0.1...1, using: &rng))
                case 89..<91:
                    h.animator.set(randomCamera())
                case 91..<96:
                    switch Int.random(in: 0..<6, using: &rng) {
                    case 0: h.settings.scrollGestures.toggle()
                    case 1: h.settings.zoomGestures.toggle()
                    case 2: h.settings.rotateGestures.toggle()
                    case 3: h.settings.tiltGestures.toggle()
                    case 4: h.settings.allowScrollGesturesDuringRotateOrZoom.toggle()
                    default: h.settings.setAllGesturesEnabled(Bool.random(using: &rng))
                    }
                case 96..<98:
                    h.manager.cameraTargetBounds =
                        Bool.random(using: &rng)
                        ? nil
                        : GMSCoordinateBounds(
                            coordinate: CLLocationCoordinate2D(
                                latitude: Double.random(in: -80...0, using: &rng),
                                longitude: Double.random(in: -180...180, using: &rng)),
                            coordinate: CLLocationCoordinate2D(
                                latitude: Double.random(in: 0...80, using: &rng),
                                longitude: Double.random(in: -180...180, using: &rng)))
                default:
                    let lo = Double.random(in: 2...15, using: &rng)
                    h.animator.constraints = CameraConstraints(
                        minimumZoom: lo, maximumZoom: Double.random(in: lo...21, using: &rng))
                    // As `setMinZoom(_:maxZoom:)` will: the current camera is clamped by an explicit set.
                    h.animator.set(h.animator.camera)
                }
                check("sequence \(sequence)")
            }
            // Lift every finger and let everything settle: the movement must be closed by exactly one idle.
            for (id, p) in down.sorted(by: { $0.key < $1.key }) {
                h.manager.handle(.ended, [TouchPoint(id: id, point: p)], time: h.clock.now)
            }
            down = [:]
            var frames = 0
            while (h.manager.needsTick || h.animator.needsTick) && frames < 200 {
                h.clock.advance(by: 0.1)
                h.manager.tick()
                h.animator.tick()
                frames += 1
            }
            h.manager.tick()
            h.animator.tick()
            check("sequence \(sequence) settled")
            if proto.open { failures.append("sequence \(sequence): movement not closed by an idle") }
            if dragOpen { failures.append("sequence \(sequence): drag not ended") }
            if h.manager.needsTick || h.animator.needsTick { failures.append("sequence \(sequence): never settles") }
            if failures.count > 20 { break }
        }
        #expect(failures.isEmpty, "\(failures.prefix(20))")
        #expect(proto.violations.isEmpty, "\(proto.violations.prefix(20))")
        #expect(eventIssues.isEmpty, "\(eventIssues.prefix(20))")
        // The sequences really exercise the recognisers (not a vacuous pass).
        #expect(gestureMoves > Self.sequences / 20)
        for kind in ["tap", "longPress", "dragBegan", "dragMoved", "dragEnded"] {
            #expect(kinds[kind, default: 0] > 50, "\(kind): \(kinds)")
        }
    }
}
