import MapGeometry

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One-finger pan (scroll gestures, spec §3). Starts once the finger moved more than ``GestureTuning/slop`` from where
/// it touched down, and then moves the ground point grabbed at touch-down with the finger: the first result pivots on
/// the touch-down point and carries the whole movement, later ones pivot on the previous finger position. On release
/// it asks for a fling with the finger's velocity over the last ``GestureTuning/velocityWindow`` seconds (none when
/// the finger stopped before lifting). A second finger ends the pan without a fling; when fingers lift back to one,
/// that finger is tracked afresh.
struct PanRecognizer {
    private struct Track {
        var id: Int
        var start: ScreenPoint
        var last: ScreenPoint
        var active: Bool
    }

    private var track: Track?
    private var samples: [(time: Double, point: ScreenPoint)] = []

    /// Whether the finger is panning.
    var isActive: Bool { track?.active ?? false }

    mutating func reset() {
        track = nil
        samples = []
    }

    mutating func handle(_ input: TouchInput, flags: GestureFlags) -> GestureResult {
        var r = GestureResult()
        switch input.phase {
        case .began:
            if input.touches.count == 1, let t = input.changed.first {
                begin(t, time: input.time)
            } else {
                reset()
            }
        case .moved:
            guard input.touches.count == 1, var tr = track, let t = input.changed.first(where: { $0.id == tr.id })
            else { break }
            record(input.time, t.point)
            if !tr.active {
                if t.point.distance(to: tr.start) > GestureTuning.slop && flags.scroll {
                    tr.active = true
                    r.around = tr.start
                    r.scrollDelta = t.point - tr.start
                    tr.last = t.point
                }
            } else {
                r.around = tr.last
                r.scrollDelta = t.point - tr.last
                tr.last = t.point
            }
            track = tr
        case .ended, .cancelled:
            if let tr = track, let t = input.changed.first(where: { $0.id == tr.id }), input.touches.isEmpty {
                if tr.active && input.phase == .ended {
                    if t.point != tr.last {
                        r.around = tr.last
                        r.scrollDelta = t.point - tr.last
                    }
                    record(input.time, t.point)
                    let v = velocity(at: input.time)
                    if flags.scroll && v.length >= GestureTuning.flingMinimumSpeed {
                        r.fling =
                            v.length > GestureTuning.flingMaximumSpeed
                            ? v * (GestureTuning.flingMaximumSpeed / v.length) : v
                    }
                }
                reset()
            } else if input.touches.count == 1, let remaining = input.touches.first {
                begin(remaining, time: input.time)
            } else if input.touches.isEmpty {
                reset()
            }
        }
        return r
    }

    private mutating func begin(_ t: TouchPoint, time: Double) {
        track = Track(id: t.id, start: t.point, last: t.point, active: false)
        samples = [(time, t.point)]
    }

    private mutating func record(_ time: Double, _ point: ScreenPoint) {
        samples.append((time, point))
        let horizon = time - GestureTuning.velocityWindow - GestureTuning.restBeforeRelease - 0.05
        if let firstKept = samples.firstIndex(where: { $0.time >= horizon }), firstKept > 0 {
            samples.removeFirst(firstKept)
        }
    }

    /// The release velocity, points per second: the average over the movement samples of the last
    /// ``GestureTuning/velocityWindow`` seconds before the finger's last movement; zero when the finger rested longer
    /// than ``GestureTuning/restBeforeRelease`` before `time`.
    private func velocity(at time: Double) -> ScreenVector {
        var lastMove: Int?
        for i in samples.indices.dropFirst().reversed() where samples[i].point != samples[i - 1].point {
            lastMove = i
            break
        }
        guard let end = lastMove, time - samples[end].time <= GestureTuning.restBeforeRelease else { return .zero }
        let endTime = samples[end].time
        guard let first = samples.firstIndex(where: { $0.time >= endTime - GestureTuning.velocityWindow - 1e-9 }),
            endTime - samples[first].time > 1e-3
        else { return .zero }
        let v = (samples[end].point - samples[first].point) * (1 / (endTime - samples[first].time))
        return v.dx.isFinite && v.dy.isFinite ? v : .zero
    }
}

/// The two fingers of a two-finger gesture: where they touched down (or where they were when the pair formed), where
/// they were at the previous event and where they are now. The pair is the first two fingers in touch-down order.
struct TwoFingerFrame {
    var start: (ScreenPoint, ScreenPoint)
    var previous: (ScreenPoint, ScreenPoint)
    var current: (ScreenPoint, ScreenPoint)

    static func distance(_ p: (ScreenPoint, ScreenPoint)) -> Double { p.0.distance(to: p.1) }
    /// The direction of the line from the first finger to the second, degrees, clockwise on screen (y down).
    static func angle(_ p: (ScreenPoint, ScreenPoint)) -> Double {
        atan2(p.1.y - p.0.y, p.1.x - p.0.x) * 180 / .pi
    }
    static func midpoint(_ p: (ScreenPoint, ScreenPoint)) -> ScreenPoint { ScreenPoint.midpoint(p.0, p.1) }
}

/// Pinch: continuous zoom by the base-2 logarithm of the finger distance ratio (spreading the fingers to twice the
/// distance zooms in by one level). Starts when the distance changed by ``GestureTuning/pinchThreshold`` points since
/// the pair formed, with zoom gestures on; the first step carries the whole change since then.
struct PinchRecognizer {
    private(set) var isActive = false

    mutating func reset() { isActive = false }

    /// The zoom delta of this step, levels.
    mutating func step(_ f: TwoFingerFrame, flags: GestureFlags) -> Double {
        let d0 = TwoFingerFrame.distance(f.start)
        let dp = TwoFingerFrame.distance(f.previous)
        let dc = TwoFingerFrame.distance(f.current)
        guard flags.zoom, d0 > 1, dp > 1, dc > 1 else { return 0 }
        if !isActive {
            guard abs(dc - d0) > GestureTuning.pinchThreshold else { return 0 }
            isActive = true
            return log2(dc / d0)
        }
        return log2(dc / dp)
    }
}

/// Two-finger rotation: the bearing turns against the finger line so the map turns with the fingers (turning the
/// fingers 30° clockwise on screen lowers the bearing by 30°). Starts when the line turned by
/// ``GestureTuning/rotateThreshold`` degrees since the pair formed, with rotate gestures on; the first step carries
/// the whole turn since then.
struct RotateRecognizer {
    private(set) var isActive = false

    mutating func reset() { isActive = false }

    /// The bearing delta of this step, degrees.
    mutating func step(_ f: TwoFingerFrame, flags: GestureFlags) -> Double {
        guard flags.rotate, TwoFingerFrame.distance(f.current) > 1, TwoFingerFrame.distance(f.start) > 1 else {
            return 0
        }
        func turn(from a: (ScreenPoint, ScreenPoint), to b: (ScreenPoint, ScreenPoint)) -> Double {
            wrap(TwoFingerFrame.angle(b) - TwoFingerFrame.angle(a), minimum: -180, maximum: 180)
        }
        if !isActive {
            let total = turn(from: f.start, to: f.current)
            guard abs(total) > GestureTuning.rotateThreshold else { return 0 }
            isActive = true
            return -total
        }
        return -turn(from: f.previous, to: f.current)
    }
}

/// Two-finger tilt: both fingers moving down together raise the viewing angle, up lower it, at
/// ``GestureTuning/tiltDegreesPerPoint`` degrees per point of their mean vertical movement. Starts when, since the pair
/// formed, both moved at least ``GestureTuning/tiltThreshold`` points vertically in the same direction, each more
/// vertically than sideways, with the fingers side by side (their line within 45° of horizontal) and tilt gestures
/// on; the first step carries the whole movement since then.
struct TiltRecognizer {
    private(set) var isActive = false

    mutating func reset() { isActive = false }

    /// The pitch delta of this step, degrees.
    mutating func step(_ f: TwoFingerFrame, flags: GestureFlags) -> Double {
        guard flags.tilt else { return 0 }
        if !isActive {
            let a = f.current.0 - f.start.0
            let b = f.current.1 - f.start.1
            let line = f.start.1 - f.start.0
            let vertical =
                a.dy * b.dy > 0 && abs(a.dy) >= GestureTuning.tiltThreshold && abs(b.dy) >= GestureTuning.tiltThreshold
                && abs(a.dy) > abs(a.dx) && abs(b.dy) > abs(b.dx) && abs(line.dy) <= abs(line.dx)
            guard vertical else { return 0 }
            isActive = true
            return GestureTuning.tiltDegreesPerPoint * (a.dy + b.dy) / 2
        }
        let a = f.current.0 - f.previous.0
        let b = f.current.1 - f.previous.1
        return GestureTuning.tiltDegreesPerPoint * (a.dy + b.dy) / 2
    }
}

/// Pinch, rotate and tilt over the same pair of fingers, which may run together (D17). While pinch or rotate runs
/// (and tilt does not) the map also follows the midpoint of the fingers, pivoting on it, when scroll gestures and
/// `allowScrollGesturesDuringRotateOrZoom` are on; otherwise they pivot on the camera target and finger translation
/// is ignored. Tilt pivots on the camera target.
struct TwoFingerRecognizer {
    private var ids: (Int, Int)?
    private var start: (ScreenPoint, ScreenPoint) = (ScreenPoint(x: 0, y: 0), ScreenPoint(x: 0, y: 0))
    private var previous: (ScreenPoint, ScreenPoint) = (ScreenPoint(x: 0, y: 0), ScreenPoint(x: 0, y: 0))
    private(set) var pinch = PinchRecognizer()
    private(set) var rotate = RotateRecognizer()
    private(set) var tilt = TiltRecognizer()

    /// Whether any of the three runs.
    var isActive: Bool { pinch.isActive || rotate.isActive || tilt.isActive }

    mutating func reset() {
        ids = nil
        pinch.reset()
        rotate.reset()
        tilt.reset()
    }

    mutating func handle(_ input: TouchInput, flags: GestureFlags) -> GestureResult {
        var r = GestureResult()
        guard input.touches.count >= 2 else {
            reset()
            return r
        }
        let a = input.touches[0]
        let b = input.touches[1]
        guard let pair = ids, pair == (a.id, b.id) else {
            reset()
            ids = (a.id, b.id)
            start = (a.point, b.point)
            previous = start
            return r
        }
        let current = (a.point, b.point)
        let frame = TwoFingerFrame(start: start, previous: previous, current: current)
        let wasTurning = pinch.isActive || rotate.isActive
        r.zoomDelta = pinch.step(frame, flags: flags)
        r.bearingDelta = rotate.step(frame, flags: flags)
        r.pitchDelta = tilt.step(frame, flags: flags)
        if (pinch.isActive || rotate.isActive) && !tilt.isActive {
            let from = wasTurning ? TwoFingerFrame.midpoint(previous) : TwoFingerFrame.midpoint(start)
            if flags.focalPan {
                r.around = from
                r.focalDelta = TwoFingerFrame.midpoint(current) - from
            }
        }
        previous = current
        return r
    }
}
