import Foundation
import LinuxUIKit

/// A view showing Street View imagery (Google's `GMSPanoramaView`).
///
/// Waymark has no Street View imagery, so the view behaves as Google's does where there is no coverage: it shows its
/// ``backgroundColor`` (black unless set; Google shows it "while no panorama is visible"), with the short grey text
/// "No Street View imagery here" centred on it; ``panorama`` stays nil; a request reports its error to the delegate
/// (see ``GMSPanoramaViewDelegate`` for exactly which callbacks fire). The camera works as Google's: it can be set
/// and animated, and the delegate hears of every change.
/// - Thread rules: main thread (main actor), like every UIKit view and as Google documents; delegate methods are
///   called on the main thread.
@preconcurrency @MainActor open class GMSPanoramaView: UIView, UITouchResponder {
    /// The text drawn over the background while no panorama is shown.
    static let noImageryText = "No Street View imagery here"

    /// Receives the view's events; weak.
    open weak var delegate: (any GMSPanoramaViewDelegate)?

    /// The panorama shown, or nil (always nil in Waymark: no request finds one). Setting it (nil included) calls the
    /// delegate's ``GMSPanoramaViewDelegate/panoramaView(_:didMoveTo:)`` when it changes.
    open var panorama: GMSPanorama? {
        didSet {
            guard panorama !== oldValue else { return }
            setNeedsDisplay()
            delegate?.panoramaView(self, didMoveTo: panorama)
        }
    }

    /// The camera. Setting it stops a running camera animation, takes effect at once and calls the delegate's
    /// ``GMSPanoramaViewDelegate/panoramaView(_:didMove:)``.
    open var camera: GMSPanoramaCamera {
        get { storedCamera }
        set {
            stopCameraAnimation()
            moveCamera(to: newValue)
        }
    }
    private var storedCamera = GMSPanoramaCamera(heading: 0, pitch: 0, zoom: 1)

    /// Whether the user can turn the camera by dragging. Defaults to true.
    open var orientationGestures = true
    /// Whether the user can zoom by pinching. Defaults to true.
    open var zoomGestures = true
    /// Whether the user can move between panoramas by tapping or double tapping. Defaults to true.
    open var navigationGestures = true
    /// Whether the arrows to neighbouring panoramas are hidden. Defaults to false.
    open var navigationLinksHidden = false
    /// Whether street names are hidden. Defaults to false.
    open var streetNamesHidden = false

    /// The view's layer, with the camera as properties (Google's `layer`, typed ``GMSPanoramaLayer``: a covariant
    /// override of `UIView.layer`).
    open override var layer: GMSPanoramaLayer {
        guard let layer = super.layer as? GMSPanoramaLayer else {
            preconditionFailure("GMSPanoramaView's layer is a GMSPanoramaLayer")
        }
        return layer
    }

    /// The layer class: ``GMSPanoramaLayer``.
    open override class var layerClass: CALayer.Type { GMSPanoramaLayer.self }

    /// A view with `frame`, no panorama, a black background and the default camera (heading 0, pitch 0, zoom 1,
    /// field of view 90°). Google: construct with `init(frame:)`, configure afterwards.
    public required override init(frame: CGRect) {
        super.init(frame: frame)
        backgroundColor = .black
        layer.panoramaView = self
    }

    /// Archives do not exist on Linux: a view with a zero frame.
    public required convenience init?(coder: NSCoder) {
        self.init(frame: .zero)
    }

    /// A view with `frame` that requests a panorama near `coordinate` (see ``moveNearCoordinate(_:)``).
    open class func panorama(withFrame frame: CGRect, nearCoordinate coordinate: CLLocationCoordinate2D) -> Self {
        let view = self.init(frame: frame)
        view.moveNearCoordinate(coordinate)
        return view
    }

    /// A view with `frame` that requests a panorama within `radius` metres of `coordinate`.
    open class func panorama(
        withFrame frame: CGRect, nearCoordinate coordinate: CLLocationCoordinate2D, radius: UInt
    ) -> Self {
        let view = self.init(frame: frame)
        view.moveNearCoordinate(coordinate, radius: radius)
        return view
    }

    /// A view with `frame` that requests a panorama of `source` near `coordinate`.
    open class func panorama(
        withFrame frame: CGRect, nearCoordinate coordinate: CLLocationCoordinate2D, source: GMSPanoramaSource
    ) -> Self {
        let view = self.init(frame: frame)
        view.moveNearCoordinate(coordinate, source: source)
        return view
    }

    /// A view with `frame` that requests a panorama of `source` within `radius` metres of `coordinate`.
    open class func panorama(
        withFrame frame: CGRect, nearCoordinate coordinate: CLLocationCoordinate2D, radius: UInt,
        source: GMSPanoramaSource
    ) -> Self {
        let view = self.init(frame: frame)
        view.moveNearCoordinate(coordinate, radius: radius, source: source)
        return view
    }

    /// Turns every gesture on (the default) or off; programmatic camera changes are not limited.
    open func setAllGesturesEnabled(_ enabled: Bool) {
        orientationGestures = enabled
        zoomGestures = enabled
        navigationGestures = enabled
    }

    /// Requests a panorama near `coordinate` (50 m). Later, on the main queue, the delegate hears
    /// ``GMSPanoramaViewDelegate/panoramaView(_:error:onMoveNearCoordinate:)`` (Waymark has no imagery); the panorama
    /// and the camera stay as they are.
    open func moveNearCoordinate(_ coordinate: CLLocationCoordinate2D) {
        moveNearCoordinate(coordinate, radius: 50, source: .default)
    }

    /// As ``moveNearCoordinate(_:)`` within `radius` metres.
    open func moveNearCoordinate(_ coordinate: CLLocationCoordinate2D, radius: UInt) {
        moveNearCoordinate(coordinate, radius: radius, source: .default)
    }

    /// As ``moveNearCoordinate(_:)`` for panoramas of `source`.
    open func moveNearCoordinate(_ coordinate: CLLocationCoordinate2D, source: GMSPanoramaSource) {
        moveNearCoordinate(coordinate, radius: 50, source: source)
    }

    /// As ``moveNearCoordinate(_:)`` within `radius` metres, for panoramas of `source`.
    open func moveNearCoordinate(_ coordinate: CLLocationCoordinate2D, radius: UInt, source: GMSPanoramaSource) {
        let error = StreetViewCoverage.lookUp(near: coordinate, radius: radius)
        StreetViewCoverage.deliver { [weak self] in
            guard let self else { return }
            self.delegate?.panoramaView(self, error: error, onMoveNearCoordinate: coordinate)
        }
    }

    /// Requests the panorama `panoramaID`: the delegate hears ``GMSPanoramaViewDelegate/panoramaView(_:willMoveToPanoramaID:)``
    /// at once, then later, on the main queue, ``GMSPanoramaViewDelegate/panoramaView(_:error:onMoveToPanoramaID:)``
    /// (Waymark has no imagery).
    open func move(toPanoramaID panoramaID: String) {
        delegate?.panoramaView(self, willMoveToPanoramaID: panoramaID)
        let error = StreetViewCoverage.noPanorama(id: panoramaID)
        StreetViewCoverage.deliver { [weak self] in
            guard let self else { return }
            self.delegate?.panoramaView(self, error: error, onMoveToPanoramaID: panoramaID)
        }
    }

    // MARK: Camera animation

    private struct CameraAnimation {
        let from: GMSPanoramaCamera
        let to: GMSPanoramaCamera
        let start: TimeInterval
        let duration: TimeInterval
    }
    private var cameraAnimation: CameraAnimation?
    private var displayLink: CADisplayLink?

    /// Animates the camera to `camera` over `duration` seconds on the host clock (ease in and out; heading the short
    /// way round). The delegate hears ``GMSPanoramaViewDelegate/panoramaView(_:didMove:)`` on every frame and for
    /// the final camera. A duration ≤ 0 or NaN sets the camera at once.
    open func animate(to camera: GMSPanoramaCamera, animationDuration duration: TimeInterval) {
        stopCameraAnimation()
        guard duration > 0, duration.isFinite else {
            moveCamera(to: camera)
            return
        }
        cameraAnimation = CameraAnimation(
            from: storedCamera, to: camera, start: UIAnimator.shared.now, duration: duration)
        let link = CADisplayLink { [weak self] _ in self?.stepCameraAnimation() }
        link.add(to: .main, forMode: .common)
        displayLink = link
    }

    /// Applies `cameraUpdate` to the current camera, animated over `duration` seconds (see
    /// ``animate(to:animationDuration:)``).
    open func updateCamera(_ cameraUpdate: GMSPanoramaCameraUpdate, animationDuration duration: TimeInterval) {
        animate(to: cameraUpdate.applied(to: storedCamera), animationDuration: duration)
    }

    /// The point in the view where `orientation` appears (a pinhole projection of the camera's field of view and
    /// zoom); points behind the camera lie outside the view.
    open func point(for orientation: GMSOrientation) -> CGPoint {
        let f = focalLength
        let c = storedCamera.orientation
        var dh = (orientation.heading - c.heading).truncatingRemainder(dividingBy: 360)
        if dh > 180 { dh -= 360 } else if dh < -180 { dh += 360 }
        let x = bounds.midX + CGFloat(f * tan(dh * .pi / 180))
        let y = bounds.midY - CGFloat(f * tan((orientation.pitch - c.pitch) * .pi / 180))
        return CGPoint(x: x, y: y)
    }

    /// The orientation shown at `point` in the view (the inverse of ``point(for:)``).
    open func orientation(for point: CGPoint) -> GMSOrientation {
        let f = focalLength
        let c = storedCamera.orientation
        let dh = atan(Double(point.x - bounds.midX) / f) * 180 / .pi
        let dp = atan(Double(bounds.midY - point.y) / f) * 180 / .pi
        var heading = (c.heading + dh).truncatingRemainder(dividingBy: 360)
        if heading < 0 { heading += 360 }
        return GMSOrientation(heading: heading, pitch: min(max(c.pitch + dp, -90), 90))
    }

    /// Points from the view's centre to its edge over half the field of view (zoom z narrows the field by 2^(z−1)).
    private var focalLength: Double {
        let fov = storedCamera.fov / pow(2, Double(storedCamera.zoom) - 1)
        return max(Double(bounds.width), 1) / 2 / tan(fov / 2 * .pi / 180)
    }

    private func moveCamera(to camera: GMSPanoramaCamera) {
        storedCamera = camera
        delegate?.panoramaView(self, didMove: camera)
    }

    private func stopCameraAnimation() {
        displayLink?.invalidate()
        displayLink = nil
        cameraAnimation = nil
    }

    private func stepCameraAnimation() {
        guard let a = cameraAnimation else { return }
        let t = min(max((UIAnimator.shared.now - a.start) / a.duration, 0), 1)
        let e = t * t * (3 - 2 * t)
        var dh = (a.to.orientation.heading - a.from.orientation.heading).truncatingRemainder(dividingBy: 360)
        if dh > 180 { dh -= 360 } else if dh < -180 { dh += 360 }
        let camera = GMSPanoramaCamera(
            heading: a.from.orientation.heading + dh * e,
            pitch: a.from.orientation.pitch + (a.to.orientation.pitch - a.from.orientation.pitch) * e,
            zoom: a.from.zoom + (a.to.zoom - a.from.zoom) * Float(e), fov: a.from.fov + (a.to.fov - a.from.fov) * e)
        if t >= 1 {
            stopCameraAnimation()
            moveCamera(to: a.to)
        } else {
            moveCamera(to: camera)
        }
    }

    // MARK: Drawing and touches

    /// Where the touch that may become a tap went down, or nil (several fingers, or moved too far).
    private var tapStart: CGPoint?

    /// One finger down: a possible tap; a running camera animation stops.
    open func touchesBegan(_ touches: Set<UITouch>, with event: UIEvent?) {
        tapStart = touches.count == 1 ? touches.first?.location(in: self) : nil
    }

    /// A finger moving more than 10 pt is no tap; with ``orientationGestures`` it turns the camera, the point under
    /// the finger staying under it (heading by the horizontal move, pitch by the vertical).
    open func touchesMoved(_ touches: Set<UITouch>, with event: UIEvent?) {
        guard let touch = touches.first else { return }
        let point = touch.location(in: self)
        if let start = tapStart, hypot(point.x - start.x, point.y - start.y) > 10 { tapStart = nil }
        guard tapStart == nil, orientationGestures, touches.count == 1 else { return }
        let previous = touch.previousLocation(in: self)
        let from = orientation(for: previous)
        let to = orientation(for: point)
        let c = storedCamera
        camera = GMSPanoramaCamera(
            heading: c.orientation.heading - (to.heading - from.heading),
            pitch: c.orientation.pitch - (to.pitch - from.pitch), zoom: c.zoom, fov: c.fov)
    }

    /// A finger lifted within 10 pt of where it went down: the delegate's
    /// ``GMSPanoramaViewDelegate/panoramaView(_:didTap:)-(_,CGPoint)`` (nothing in a view without imagery consumes
    /// taps).
    open func touchesEnded(_ touches: Set<UITouch>, with event: UIEvent?) {
        defer { tapStart = nil }
        guard let start = tapStart, let point = touches.first?.location(in: self),
            hypot(point.x - start.x, point.y - start.y) <= 10
        else { return }
        delegate?.panoramaView(self, didTap: point)
    }

    /// The touch is no tap.
    open func touchesCancelled(_ touches: Set<UITouch>, with event: UIEvent?) {
        tapStart = nil
    }

    /// Draws the "no imagery" text centred over the background (the background itself is the layer's).
    open override func draw(_ rect: CGRect) {
        guard panorama == nil else { return }
        let style = NSMutableParagraphStyle()
        style.alignment = .center
        let text = NSAttributedString(
            string: Self.noImageryText,
            attributes: [
                .font: UIFont.systemFont(ofSize: 14),
                .foregroundColor: UIColor(red: 0.62, green: 0.62, blue: 0.62, alpha: 1), .paragraphStyle: style,
            ])
        let height = text.size().height
        text.draw(in: CGRect(x: bounds.minX + 8, y: bounds.midY - height / 2, width: bounds.width - 16, height: height))
    }
}
