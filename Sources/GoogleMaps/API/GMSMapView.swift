import Foundation
import LinuxUIKit
import MapGeometry
import WaymarkTime

/// A map view type (spec §1.1). The imagery types draw a raster source the app sets
/// (``GMSMapView/setRasterSource(_:for:tileSize:)``, Waymark's own), else `.normal`.
public enum GMSMapViewType: UInt, Sendable {
    /// Streets and labels (the default).
    case normal = 1
    /// Satellite imagery: the app's raster source for it (else drawn as `.normal`).
    case satellite = 2
    /// Terrain: the app's raster source for it (else drawn as `.normal`).
    case terrain = 3
    /// Satellite with labels: the app's raster source under the vector style's labels (else drawn as `.normal`).
    case hybrid = 4
    /// No basemap: only the background colour and the overlays.
    case none = 5
}

/// The map (spec §1.1, §2): a `UIView` that draws a basemap, markers and info windows for a camera, and reports
/// camera and tap events to its ``delegate``.
///
/// In an app the window loop drives the map (frames, touches, ticks); without a display `UIHeadlessHost` does the
/// same on a virtual clock, and renders it to images (`snapshot()`, or `drawHierarchy(in:afterScreenUpdates:)` on
/// the map). Inside the package, hosts without a window (tests, the CLI) call ``tick()`` once per frame; camera
/// events, marker appear animations, `UIView`/`CALayer` animation completions and tracked snapshots all advance
/// there.
///
/// Camera: setting ``camera`` or calling ``moveCamera(_:)`` is an explicit set; `animate…` calls animate (D5, D6).
/// Events come from the frame tick: `willMove` and `didChange` on the first tick after a change, `idleAt` when nothing
/// moves; reading ``camera`` returns the new clamped value at once.
/// - Thread rules: main thread (main actor) only, as UIKit.
@MainActor open class GMSMapView: UIView, UITouchResponder {
    // MARK: State

    let animator: CameraAnimator
    private var cameraTransaction: TransactionMembership?
    lazy var basemap: any BasemapRenderer = makeStyledBasemap()
    /// ``mapStyle``, the map ID's style and what the basemap was made for (`GMSMapView+Style.swift`).
    let styleState = MapViewStyleState()
    /// The MapLibre style (``mapLibreStyle``).
    var mapLibreStyleStorage: MapLibreStyle = .bundled
    let store = MarkerStore()
    var infoWindow: InfoWindowState?
    private var selected: GMSMarker?
    /// Device pixels per point of the last rendered frame (custom windows are snapshotted at it).
    var renderScale: CGFloat = UIScreen.main.scale
    var renderEvents = RenderEvents()
    /// Overlays that are not markers, in draw order (kept alive while on the map; `Internal/Overlays`).
    let overlayStage = OverlayStage()
    /// Compass, my-location, floor picker and attribution (`GMSMapView+Controls.swift`).
    lazy var controls = MapControls(provider: MapControls.defaultProvider())

    /// Receives events; weak. Defaults to nil.
    open weak var delegate: (any GMSMapViewDelegate)?

    /// The map type. Defaults to `.normal`. `.none` draws no basemap (overlays only); `.satellite`, `.terrain` and
    /// `.hybrid` draw the raster source set with ``setRasterSource(_:for:tileSize:)`` (Waymark's own), `.hybrid`
    /// under the vector labels, and fall back to `.normal` with one logged warning without one. A POI that is not
    /// drawn is not tappable.
    open var mapType: GMSMapViewType = .normal
    /// The imagery map types' sources and renderers (GMSMapView+MapType.swift).
    let mapTypeState = MapTypeState()

    /// Whether traffic is drawn. Defaults to false. Waymark bundles no traffic data: a style that has traffic layers
    /// (an id starting with `traffic`, or source layer `traffic`) draws them only while this is true; the bundled
    /// styles have none, so it changes nothing there.
    open var isTrafficEnabled = false {
        didSet { restyleBasemap() }
    }
    /// Shows the my-location dot and accuracy circle from the map's location provider and makes ``myLocation``
    /// report its fixes (spec §1.1, §4.4). Defaults to false; turning it off clears ``myLocation``.
    open var isMyLocationEnabled = false {
        didSet { controls.location.isEnabled = isMyLocationEnabled }
    }
    /// Recorded only. Defaults to true.
    open var isBuildingsEnabled = true
    /// Whether indoor buildings are focused, drawn and offered in the floor picker. Defaults to true; turning it
    /// off unfocuses the building at once.
    open var isIndoorEnabled = true {
        didSet { controls.indoorEnabledDidChange(isIndoorEnabled) }
    }
    /// Hidden from accessibility by default (Google's default: true).
    open var accessibilityElementsHidden = true

    /// The smallest zoom the camera may take; change with ``setMinZoom(_:maxZoom:)``. Defaults to 2.
    open private(set) var minZoom: Float = kGMSMinZoomLevel
    /// The largest zoom the camera may take. Defaults to 21.
    open private(set) var maxZoom: Float = kGMSMaxZoomLevel

    /// Insets of the area where the camera target is centred and controls sit, points (§4.5). Non-finite or negative
    /// values count as 0. Defaults to `.zero`. Changing it keeps the camera target at the new optical centre and
    /// sends no camera events.
    /// Set inside a `UIView.animate` block, the change animates with the block's duration and curve.
    open var padding: UIEdgeInsets = .zero {
        didSet { paddingDidChange(from: oldValue) }
    }

    // MARK: Construction

    /// Creates a map with `options` (copied): its frame, camera (nil → D2's default camera) and background colour.
    public required init(options: GMSMapViewOptions) {
        let camera = options.camera ?? GMSMapView.defaultCamera(minZoom: kGMSMinZoomLevel)
        animator = CameraAnimator(
            camera: camera.cameraState(size: options.frame.size, padding: .zero), clock: AnimatorClock.shared)
        mapLibreStyleStorage = options.mapLibreStyle
        super.init(frame: options.frame)
        backgroundColor = options.backgroundColor ?? PlainBasemapRenderer.landColor
        clipsToBounds = true
        animator.onEvent = { [unowned self] event in self.deliver(event) }
        (layer as? GMSMapLayer)?.mapView = self
        applyMapID(options.mapID)
    }

    /// The view's layers are ``GMSMapLayer``s.
    open override class var layerClass: CALayer.Type { GMSMapLayer.self }

    /// The map's layer with the camera properties (§1.12); the same object as `layer`.
    public var mapLayer: GMSMapLayer {
        guard let mapLayer = layer as? GMSMapLayer else { preconditionFailure("GMSMapView's layer is a GMSMapLayer") }
        return mapLayer
    }

    /// The map's controls and gesture switches (spec §1.5). Changes take effect at once, even mid-gesture.
    public let settings: GMSUISettings = GMSUISettings()

    /// Turns the touches this view receives into camera changes, taps, long presses and marker drags (see
    /// `GMSMapView+Gestures.swift`). Created on first use, with this map's animator, settings and clock.
    lazy var gestures: GestureManager = makeGestureManager()

    /// When set, gestures cannot move the camera target outside these bounds; programmatic moves are not limited
    /// (spec §1.1). Defaults to nil (no limit). Invalid bounds count as nil.
    open var cameraTargetBounds: GMSCoordinateBounds? {
        didSet { gestures.cameraTargetBounds = cameraTargetBounds }
    }

    /// Creates a map with a zero frame and the default camera (D2).
    public convenience init() {
        self.init(options: GMSMapViewOptions())
    }

    /// Deprecated upstream: a map with `frame` and the default camera (D2).
    public convenience override init(frame: CGRect) {
        let options = GMSMapViewOptions()
        options.frame = frame
        self.init(options: options)
    }

    /// Deprecated upstream: a map with `frame` showing `camera`.
    public convenience init(frame: CGRect, camera: GMSCameraPosition) {
        let options = GMSMapViewOptions()
        options.frame = frame
        options.camera = camera
        self.init(options: options)
    }

    /// Deprecated upstream: as ``init(frame:camera:)`` with a map ID (see ``GMSMapViewOptions/mapID``).
    public convenience init(frame: CGRect, mapID: GMSMapID, camera: GMSCameraPosition) {
        let options = GMSMapViewOptions()
        options.frame = frame
        options.camera = camera
        options.mapID = mapID
        self.init(options: options)
    }

    /// Archives do not exist on Linux: a zero-frame map with the default camera.
    public required convenience init?(coder: NSCoder) {
        self.init(options: GMSMapViewOptions())
    }

    /// Deprecated upstream: a map with `frame` showing `camera` (the guides' `GMSMapView.map(withFrame:camera:)`).
    open class func map(withFrame frame: CGRect, camera: GMSCameraPosition) -> Self {
        let options = GMSMapViewOptions()
        options.frame = frame
        options.camera = camera
        return self.init(options: options)
    }

    /// D2: target (0, 0), zoom `minZoom`, bearing 0, viewing angle 0.
    static func defaultCamera(minZoom: Float) -> GMSCameraPosition {
        GMSCameraPosition(target: CLLocationCoordinate2D(latitude: 0, longitude: 0), zoom: minZoom)
    }

    /// The view's frame; a new size re-fits the camera (same target at the optical centre, no camera events).
    open override var frame: CGRect {
        didSet { viewportDidChange() }
    }

    /// The view's bounds; a new size re-fits the camera.
    open override var bounds: CGRect {
        didSet { viewportDidChange() }
    }

    private func viewportDidChange() {
        animator.updateViewport(size: ScreenSize(bounds.size), padding: EdgeInsets(padding).sanitized)
    }

    // MARK: Camera

    /// The camera. Reading returns the current (clamped) camera — during an animation, the last frame computed.
    /// Setting is an explicit set (no animation; stops a running one): `willMove(false)`, `didChange`, `idleAt` follow
    /// on the next ticks (D5). The value is copied and clamped (D1, D3, D4).
    open var camera: GMSCameraPosition {
        get { GMSCameraPosition(animator.camera) }
        set { setCameraState(newValue.cameraState(size: bounds.size, padding: padding)) }
    }

    /// The projection of the camera as last computed (a snapshot, not live; right after a set, the new camera).
    open var projection: GMSProjection { GMSProjection(camera: animator.camera) }

    /// The engine camera (size and padding included).
    var cameraState: CameraState { animator.camera }

    var constraints: CameraConstraints {
        CameraConstraints(minimumZoom: Double(minZoom), maximumZoom: Double(maxZoom))
    }

    private func setCameraState(_ state: CameraState) {
        endCameraTransaction(finished: false)
        animator.set(state)
    }

    /// Sets the zoom limits (D1): both are clamped into [kGMSMinZoomLevel, kGMSMaxZoomLevel]; a camera outside the new
    /// range moves to the nearest bound (an explicit set). NaN values keep the current limit.
    /// - Precondition: `minZoom <= maxZoom` (a programmer error otherwise, as Google's `NSRangeException`).
    open func setMinZoom(_ minZoom: Float, maxZoom: Float) {
        precondition(
            !(minZoom > maxZoom), "GMSMapView.setMinZoom(_:maxZoom:): minZoom \(minZoom) > maxZoom \(maxZoom)")
        let lo = minZoom.isNaN ? self.minZoom : min(max(minZoom, kGMSMinZoomLevel), kGMSMaxZoomLevel)
        let hi = maxZoom.isNaN ? self.maxZoom : min(max(maxZoom, kGMSMinZoomLevel), kGMSMaxZoomLevel)
        self.minZoom = min(lo, hi)
        self.maxZoom = max(lo, hi)
        animator.constraints = constraints
        let current = animator.camera
        let clamped = constraints.clamped(current)
        if clamped.zoom != current.zoom { setCameraState(clamped) }
    }

    /// Applies `update` at once (an explicit set, D5).
    open func moveCamera(_ update: GMSCameraUpdate) {
        setCameraState(update.apply(to: animator.camera, constraints: constraints))
    }

    /// Animates to `cameraPosition` (D6: 0.25–2 s by distance, ease-in-out, or the enclosing `CATransaction`'s
    /// duration; a running animation is replaced).
    open func animate(to cameraPosition: GMSCameraPosition) {
        animateCamera(to: cameraPosition.cameraState(size: bounds.size, padding: padding))
    }

    /// Animates the target to `location`, keeping zoom, bearing and viewing angle.
    open func animate(toLocation location: CLLocationCoordinate2D) {
        var s = animator.presentationCamera
        let target = GMSCameraPosition.clampTarget(location)
        s.center = LatLng(target)
        animateCamera(to: s)
    }

    /// Animates the zoom to `zoom` (clamped to the map's limits).
    open func animate(toZoom zoom: Float) {
        var s = animator.presentationCamera
        s.zoom = Double(GMSCameraPosition.clampZoom(zoom))
        animateCamera(to: s)
    }

    /// Animates the bearing to `bearing` degrees (0 = north; wrapped; the shorter way round).
    open func animate(toBearing bearing: CLLocationDirection) {
        var s = animator.presentationCamera
        s.bearing = bearing.isFinite ? CameraConstraints.wrapBearing(bearing) : s.bearing
        animateCamera(to: s)
    }

    /// Animates the viewing angle to `viewingAngle` degrees (clamped by zoom, D4).
    open func animate(toViewingAngle viewingAngle: Double) {
        var s = animator.presentationCamera
        s.pitch = viewingAngle.isFinite ? viewingAngle : s.pitch
        animateCamera(to: s)
    }

    /// Applies `cameraUpdate` to the current camera and animates to the result.
    open func animate(with cameraUpdate: GMSCameraUpdate) {
        animateCamera(to: cameraUpdate.apply(to: animator.presentationCamera, constraints: constraints))
    }

    private func animateCamera(to state: CameraState) {
        endCameraTransaction(finished: false)
        // Inside a CATransaction its duration wins (D6), and the transaction's completion waits for the camera.
        if let membership = CATransaction.joinOpenTransactions() {
            cameraTransaction = membership
            animator.animate(to: state, duration: CATransaction.animationDuration())
            if !animator.isAnimating { endCameraTransaction(finished: true) }
        } else {
            animator.animate(to: state)
        }
    }

    private func endCameraTransaction(finished: Bool) {
        cameraTransaction?.end(finished: finished)
        cameraTransaction = nil
    }

    /// The camera showing `bounds` inset by `insets` (plus ``padding``) with bearing and tilt 0, or nil for invalid
    /// bounds.
    open func camera(for bounds: GMSCoordinateBounds, insets: UIEdgeInsets) -> GMSCameraPosition? {
        guard bounds.isValid else { return nil }
        let state = GMSCameraUpdate.fit(
            bounds, insets: EdgeInsets(insets).sanitized, state: animator.camera, constraints: constraints)
        return GMSCameraPosition(state)
    }

    /// `true` when the two positions would draw identically: after clamping, the targets are less than 1/1000 point
    /// apart at the zoom drawn, and zoom, bearing (the shorter way round) and viewing angle differ by less than 1e-6.
    open func areEqual(forRenderingPosition position: GMSCameraPosition, position otherPosition: GMSCameraPosition)
        -> Bool
    {
        GMSCameraPosition.rendersSame(position, otherPosition)
    }

    /// Deprecated upstream, no-op.
    open func startRendering() {}
    /// Deprecated upstream, no-op.
    open func stopRendering() {}

    // MARK: Events

    private func deliver(_ event: CameraEvent) {
        if case .didChange = event { renderEvents.cameraVersion += 1 }
        switch event {
        case .willMove(let gesture):
            delegate?.mapView(self, willMove: gesture)
        case .didChange(let state):
            delegate?.mapView(self, didChange: GMSCameraPosition(state))
        case .idle(let state):
            delegate?.mapView(self, idleAt: GMSCameraPosition(state))
        }
    }

    // MARK: Frame tick (internal API for hosts, tests and the gesture layer)

    /// Advances one frame at the shared animator clock: delivers `UIView`/`CALayer` animation completions
    /// (`UIAnimator.shared.tick()`), then the gestures (merged touch results, fling, delayed taps), then camera events (`willMove`, `didChange`, `idle`, in that order, D5), then
    /// finishes marker appear animations and a camera animation's `CATransaction` membership. Call once per
    /// frame while ``needsTick`` is true (a window host may call it every frame). Main thread.
    package func tick() {
        UIAnimator.shared.tick()
        tickPadding()
        gestures.tick()
        animator.tick()
        controls.tick(map: self)
        if cameraTransaction != nil && !animator.isAnimating { endCameraTransaction(finished: true) }
        store.finishAppearAnimations(now: UIAnimator.shared.now)
        deliverRenderEvents()
    }

    /// Bookkeeping for the rendering callbacks of §2.10.
    struct RenderEvents {
        /// Bumped on every `didChange`.
        var cameraVersion = 0
        /// The camera version of the last frame drawn, or -1 before the first frame.
        var drawnVersion = -1
        /// The camera version whose tile rendering was reported started / finished (a round is open while they
        /// differ).
        var startedVersion = -1
        var finishedVersion = -1
        /// The camera version for which `mapViewSnapshotReady` was sent.
        var snapshotVersion = -1
    }

    /// §2.10 from the tick, after the camera events: once a frame for a new camera has been drawn,
    /// `mapViewDidStartTileRendering` then (when the basemap has nothing left to load) `mapViewDidFinishTileRendering`;
    /// then, once the camera is idle and nothing animates, `mapViewSnapshotReady`, once per camera.
    private func deliverRenderEvents() {
        var e = renderEvents
        defer { renderEvents = e }
        guard e.drawnVersion >= 0 else { return }
        // Start and finish pair up: a camera drawn while tiles are still loading joins the open round, which
        // finishes once a frame had every tile (asynchronous basemaps; a synchronous one finishes every round at
        // once).
        if e.startedVersion != e.drawnVersion && e.finishedVersion == e.startedVersion {
            e.startedVersion = e.drawnVersion
            delegate?.mapViewDidStartTileRendering(self)
        }
        if e.finishedVersion != e.startedVersion && !basemap.isLoading {
            e.startedVersion = e.drawnVersion
            e.finishedVersion = e.drawnVersion
            delegate?.mapViewDidFinishTileRendering(self)
        }
        renderEvents = e
        if e.finishedVersion == e.cameraVersion && e.snapshotVersion != e.cameraVersion && !needsTick {
            e.snapshotVersion = e.cameraVersion
            delegate?.mapViewSnapshotReady(self)
        }
    }

    /// `true` while something will change on a later tick: camera movement or events pending, view or layer
    /// animations, marker appear animations, icon views or info windows that track changes, made tiles waiting to
    /// be drawn, or a `mapViewDidFinishTileRendering` due. (Tiles still being made do not count: the host may sleep
    /// until ``tileArrivalHandler`` wakes it.)
    package var needsTick: Bool {
        animator.needsTick || gestures.needsTick || UIAnimator.shared.hasRunningAnimations || store.hasAppearAnimations
            || store.hasTrackingViews || (infoWindow?.marker.tracksInfoWindowChanges ?? false) || basemap.needsFrames
            || controls.needsTick || tileRenderingFinishDue || tileLayersNeedFrames
    }

    /// A round of tile rendering is open and the basemap has stopped loading, so the next tick owes
    /// `mapViewDidFinishTileRendering` (never true with a synchronous basemap: start and finish go out together).
    private var tileRenderingFinishDue: Bool {
        let e = renderEvents
        return e.finishedVersion != e.startedVersion && !basemap.isLoading
    }

    /// One frame: ``tick()`` then the rendered image at `scale` device pixels per point.
    package func renderFrame(scale: CGFloat) -> UIImage {
        tick()
        return renderImage(scale: scale)
    }

    /// Draws the map (basemap, markers, info window) for the current camera; subviews draw on top.
    open override func draw(_ rect: CGRect) {
        guard let context = UIGraphicsGetCurrentContext() else { return }
        let m = context.ctm
        let scale = max(1e-6, (m.a * m.d - m.b * m.c).magnitude.squareRoot())
        FrameRenderer.render(map: self, into: context, scale: scale)
        renderEvents.drawnVersion = renderEvents.cameraVersion
    }

    // MARK: Overlays

    /// Removes every overlay (markers included) from the map. The selected marker's window closes first with one
    /// `didCloseInfoWindowOf` (D11); no camera events. Safe inside delegate callbacks.
    open func clear() {
        setNeedsDisplay()  // a window host draws the change
        if let current = selected { closeSelection(of: current) }
        for marker in store.allMarkers() { detach(marker) }
        for overlay in overlayStage.removeAll() {
            (overlay as? GMSOverlay)?.mapStorage = nil
            (overlay as? GMSTileLayer)?.detachFromMap()
        }
    }

    func addOverlay(_ overlay: GMSOverlay) {
        setNeedsDisplay()
        guard let marker = overlay as? GMSMarker else {
            overlay.mapStorage = self
            overlayStage.add(overlay, renderable: overlay as? any OverlayRenderable)
            return
        }
        marker.mapStorage = self
        store.add(marker, now: UIAnimator.shared.now)
    }

    func removeOverlay(_ overlay: GMSOverlay) {
        guard overlay.mapStorage === self else { return }
        setNeedsDisplay()
        if let marker = overlay as? GMSMarker {
            if selected === marker { closeSelection(of: marker) }
            detach(marker)
        } else {
            overlay.mapStorage = nil
            overlayStage.remove(overlay)
        }
    }

    private func detach(_ marker: GMSMarker) {
        store.remove(marker)
        marker.mapStorage = nil
    }

    func markerDidChange(_ marker: GMSMarker, geometry: Bool) {
        setNeedsDisplay()
        if geometry { store.update(marker) } else { store.restyle(marker) }
    }

    func markerOrderDidChange(_ marker: GMSMarker) {
        setNeedsDisplay()
        store.orderDirty = true
    }

    func infoWindowContentDidChange(for marker: GMSMarker) {
        if infoWindow?.marker === marker && marker.tracksInfoWindowChanges { infoWindow?.needsRefresh = true }
    }

    func infoWindowNeedsRefresh(for marker: GMSMarker) {
        setNeedsDisplay()
        if infoWindow?.marker === marker { infoWindow?.needsRefresh = true }
    }

    // MARK: Selection

    /// The marker whose info window is open, or nil (§2.6, D11). Setting a marker on this map selects it and builds its
    /// window (`markerInfoWindow` → `markerInfoContents` → default; no window for blank title and snippet, D12)
    /// without moving the camera; setting the same marker is a no-op; a marker not on this map is ignored with a
    /// logged warning; nil closes the window with `didCloseInfoWindowOf`.
    open var selectedMarker: GMSMarker? {
        get { selected }
        set {
            guard newValue !== selected else { return }
            if let marker = newValue, marker.mapStorage !== self {
                GMSLog.warning("Marker set as selectedMarker while not belonging to this map. Ignoring.")
                return
            }
            if let current = selected { closeSelection(of: current) }
            if let marker = newValue { open(marker) }
        }
    }

    /// Selects `marker` and builds its window.
    func open(_ marker: GMSMarker) {
        setNeedsDisplay()
        selected = marker
        infoWindow = InfoWindowBuilder.build(for: marker, map: self)
    }

    /// Closes the window of the selected `marker` and reports it.
    func closeSelection(of marker: GMSMarker) {
        setNeedsDisplay()
        selected = nil
        infoWindow = nil
        delegate?.mapView(self, didCloseInfoWindowOf: marker)
    }
}

/// The shared animator clock as the camera animator's time source, so a test's `ManualClock` installed in
/// `UIAnimator.shared.clock` drives both.
final class AnimatorClock: TimeSource, @unchecked Sendable {
    static let shared = AnimatorClock()
    var now: Double { MainActor.assumeIsolated { UIAnimator.shared.clock.now } }
}
