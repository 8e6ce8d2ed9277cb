import Foundation
import LinuxUIKit
import MapGeometry
import WaymarkTime

/// A map view type (spec §1.1). The imagery types draw a raster source the app sets
/// (``GMSMapView/setRasterSource(_:for:tileSize:)``, Waymark's own), `.terrain` the map shaded by an elevation source
/// the app sets (``GMSMapView/terrainElevationSource``, Waymark's own), else `.normal`.
public enum GMSMapViewType: UInt, Sendable {
    /// Streets and labels (the default).
    case normal = 1
    /// Satellite imagery: the app's raster source for it (else drawn as `.normal`).
    case satellite = 2
    /// Terrain: the map's style with hillshading from the app's ``GMSMapView/terrainElevationSource``, else the
    /// app's raster source for it, else drawn as `.normal`.
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
@preconcurrency @MainActor open class GMSMapView: UIView, UITouchResponder {
    // MARK: State

    let animator: CameraAnimator
    private var cameraTransaction: TransactionMembership?
    /// What the map takes from outside: its clock and its basemap and location-provider factories (the options',
    /// else ``MapViewDependencies/standard``).
    let dependencies: MapViewDependencies
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
    lazy var controls = MapControls(provider: dependencies.makeLocationProvider(dependencies.clock))
    /// The observers of `myLocation`, `camera` and `selectedMarker` (GMSMapView+Observation.swift).
    let keyValueObservers = KeyValueObservers<GMSMapView>()
    /// The data-driven styling layers handed out, by feature type or dataset (GMSFeatureLayer.swift).
    var featureLayers: [String: AnyObject] = [:]

    /// Receives events; weak. Defaults to nil.
    open weak var delegate: (any GMSMapViewDelegate)?

    /// The map type. Defaults to `.normal`. `.none` draws no basemap (overlays only); `.satellite`, `.terrain` and
    /// `.hybrid` draw the raster source set with ``setRasterSource(_:for:tileSize:)`` (Waymark's own), `.hybrid`
    /// under the vector labels, and fall back to `.normal` with one logged warning without one. `.terrain` with an
    /// elevation source (``terrainElevationSource``, Waymark's own) draws the map's style with hillshading instead.
    /// A POI that is not drawn is not tappable. Main thread.
    open var mapType: GMSMapViewType {
        get { drawnState.mapType }
        set { drawnState.mapType = newValue }
    }
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
    open var isMyLocationEnabled: Bool {
        get { drawnState.isMyLocationEnabled }
        set { drawnState.isMyLocationEnabled = newValue }
    }
    /// Whether 3D buildings are drawn where available (Google's `isBuildingsEnabled`). Defaults to true.
    ///
    /// When false, the style's `fill-extrusion` layers are hidden (the bundled style's `building-3d`, the city
    /// data's buildings raised from Google's zoom 17: walls and roofs when the camera is tilted, roofs when it is
    /// not); the flat building footprints stay, as Google's map keeps them. A style without extrusion layers draws
    /// the same either way. The change shows on the next frame, redrawn from the tiles already loaded (Google:
    /// "changing this value will cause all tiles to be briefly invalidated"). Main thread.
    open var isBuildingsEnabled: Bool {
        get { drawnState.isBuildingsEnabled }
        set { drawnState.isBuildingsEnabled = newValue }
    }
    /// Whether indoor buildings are focused, drawn and offered in the floor picker. Defaults to true; turning it
    /// off unfocuses the building at once.
    open var isIndoorEnabled: Bool {
        get { drawnState.isIndoorEnabled }
        set { drawnState.isIndoorEnabled = newValue }
    }

    /// The smallest zoom the camera may take; change with ``setMinZoom(_:maxZoom:)``. Defaults to 2.
    open private(set) var minZoom: Float = kGMSMinZoomLevel
    /// The largest zoom the camera may take. Defaults to 21.
    open private(set) var maxZoom: Float = kGMSMaxZoomLevel

    /// Insets of the area where the camera target is centred and controls sit, points (§4.5). Non-finite or negative
    /// values count as 0. Defaults to `.zero`. Changing it keeps the camera target at the new optical centre and
    /// sends no camera events.
    /// Set inside a `UIView.animate` block, the change animates with the block's duration and curve.
    open var padding: UIEdgeInsets {
        get { drawnState.padding }
        set { drawnState.padding = newValue }
    }

    /// What the map's own drawn properties hold (``mapType``, ``isMyLocationEnabled``, ``isIndoorEnabled``,
    /// ``padding``, ``isBuildingsEnabled``, ``terrainElevationSource``). Their setters write only this value, so every
    /// change goes through ``drawnStateDidChange(from:)``.
    struct DrawnState: Equatable {
        var mapType: GMSMapViewType = .normal
        var isMyLocationEnabled = false
        var isIndoorEnabled = true
        var padding: UIEdgeInsets = .zero
        var isBuildingsEnabled = true
        var terrainElevationSource: TerrainElevationSource?
    }

    /// The one value behind the map's drawn properties; see ``DrawnState``.
    var drawnState = DrawnState() {
        didSet { drawnStateDidChange(from: oldValue) }
    }

    /// A drawn property changed: the map needs display (the window draws it on its next frame even when nothing
    /// else moves), then each part that follows a property hears of it.
    private func drawnStateDidChange(from old: DrawnState) {
        guard drawnState != old else { return }
        setNeedsDisplay()
        if drawnState.isMyLocationEnabled != old.isMyLocationEnabled {
            controls.location.isEnabled = drawnState.isMyLocationEnabled
        }
        if drawnState.isIndoorEnabled != old.isIndoorEnabled { controls.indoorEnabledDidChange(isIndoorEnabled) }
        if drawnState.padding != old.padding { paddingDidChange(from: old.padding) }
        // What the basemap's style holds (extrusions, the terrain's hillshade): a basemap already made is remade
        // over the same tiles (a map not drawn yet makes its first one with the new values).
        if styleState.built != nil { restyleBasemap() }
    }
    /// ``preferredFrameRate`` and ``paddingAdjustmentBehavior`` (GMSMapView+Preferences.swift).
    var preferences = MapViewPreferences()

    // MARK: Construction

    /// Creates a map with `options` (copied): its frame, camera (nil → D2's default camera) and background colour.
    public required init(options: GMSMapViewOptions) {
        let camera = options.camera ?? GMSMapView.defaultCamera(minZoom: kGMSMinZoomLevel)
        dependencies = options.dependencies ?? .standard
        animator = CameraAnimator(
            camera: camera.cameraState(size: options.frame.size, padding: .zero), clock: dependencies.clock)
        mapLibreStyleStorage = options.mapLibreStyle
        super.init(frame: options.frame)
        // Hidden from accessibility by default, as Google's map view (UIView's default is false).
        accessibilityElementsHidden = true
        backgroundColor = options.backgroundColor ?? PlainBasemapRenderer.landColor
        clipsToBounds = true
        animator.onEvent = { [unowned self] event in self.deliver(event) }
        // The parts that hold what the map shows report their changes here: the map needs display (UIKit's
        // `setNeedsDisplay`, which the window loop draws on its next frame).
        settings.onChange = { [unowned self] in self.setNeedsDisplay() }
        overlayStage.onChange = { [unowned self] in self.setNeedsDisplay() }
        layer.mapView = self
        applyMapID(options.mapID)
    }

    /// The view's layers are ``GMSMapLayer``s.
    open override class var layerClass: CALayer.Type { GMSMapLayer.self }

    /// The map's layer, with the camera properties (§1.12), typed as in Google's SDK (a covariant override of
    /// `UIView.layer`).
    open override var layer: GMSMapLayer {
        guard let mapLayer = super.layer as? GMSMapLayer else {
            preconditionFailure("GMSMapView's layer is a GMSMapLayer")
        }
        return mapLayer
    }

    /// Waymark's own, kept for code written before ``layer`` was typed: the same object as ``layer``.
    public var mapLayer: GMSMapLayer { layer }

    /// The map's controls and gesture switches (spec §1.5). Changes take effect at once, even mid-gesture.
    public let settings: GMSUISettings = GMSUISettings()

    /// What the last touch-down hit and where (`GMSMapView+Gestures.swift`): the tap it ends in uses it.
    var touchDownTarget: (point: CGPoint, target: MapTapTarget)?

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
        animator.updateViewport(size: ScreenSize(bounds.size), padding: EdgeInsets(layoutPadding).sanitized)
    }

    // MARK: Camera

    /// The camera. Reading returns the current (clamped) camera — during an animation, the last frame computed.
    /// Setting is an explicit set (no animation; stops a running one): `willMove(false)`, `didChange`, `idleAt` follow
    /// on the next ticks (D5). The value is copied and clamped (D1, D3, D4).
    open var camera: GMSCameraPosition {
        get { GMSCameraPosition(animator.camera) }
        set {
            setCameraState(newValue.cameraState(size: bounds.size, padding: layoutPadding))
            checkObservedProperties()
        }
    }

    /// The projection of the camera as last computed (a snapshot, not live; right after a set, the new camera).
    open var projection: GMSProjection { GMSProjection(camera: animator.camera) }

    /// The engine camera (size and padding included).
    var cameraState: CameraState { animator.camera }

    /// The zoom limits as the camera engine's constraints (not UIKit's layout `constraints`).
    var cameraConstraints: CameraConstraints {
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
        animator.constraints = cameraConstraints
        let current = animator.camera
        let clamped = cameraConstraints.clamped(current)
        if clamped.zoom != current.zoom { setCameraState(clamped) }
    }

    /// Applies `update` at once (an explicit set, D5).
    open func moveCamera(_ update: GMSCameraUpdate) {
        setCameraState(update.apply(to: animator.camera, constraints: cameraConstraints))
    }

    /// Animates to `cameraPosition` (D6: 0.25–2 s by distance, ease-in-out, or the enclosing `CATransaction`'s
    /// duration; running animations are replaced).
    open func animate(to cameraPosition: GMSCameraPosition) {
        animateCamera(to: cameraPosition.cameraState(size: bounds.size, padding: layoutPadding), keys: .all)
    }

    /// Animates the target to `location`. Only the target animates: a zoom, bearing or viewing-angle animation
    /// already running goes on (as Google's SDK, each `animate(to…:)` call animates its own key).
    open func animate(toLocation location: CLLocationCoordinate2D) {
        var s = animator.presentationCamera
        s.center = LatLng(GMSCameraPosition.clampTarget(location))
        animateCamera(to: s, keys: .target)
    }

    /// Animates the zoom to `zoom` (clamped to the map's limits); other running animations go on.
    open func animate(toZoom zoom: Float) {
        var s = animator.presentationCamera
        s.zoom = Double(GMSCameraPosition.clampZoom(zoom))
        animateCamera(to: s, keys: .zoom)
    }

    /// Animates the bearing to `bearing` degrees (0 = north; wrapped; the shorter way round); other running
    /// animations go on.
    open func animate(toBearing bearing: CLLocationDirection) {
        var s = animator.presentationCamera
        s.bearing = bearing.isFinite ? CameraConstraints.wrapBearing(bearing) : s.bearing
        animateCamera(to: s, keys: .bearing)
    }

    /// Animates the viewing angle to `viewingAngle` degrees (clamped by zoom, D4); other running animations go on.
    open func animate(toViewingAngle viewingAngle: Double) {
        var s = animator.presentationCamera
        s.pitch = viewingAngle.isFinite ? viewingAngle : s.pitch
        animateCamera(to: s, keys: .pitch)
    }

    /// Applies `cameraUpdate` to the current camera and animates to the result: the keys the update changes
    /// (running animations of the other keys go on; an update that changes nothing replaces them all).
    open func animate(with cameraUpdate: GMSCameraUpdate) {
        let from = animator.presentationCamera
        let to = cameraUpdate.apply(to: from, constraints: cameraConstraints)
        var keys: CameraKeys = []
        if to.center != from.center { keys.insert(.target) }
        if to.zoom != from.zoom { keys.insert(.zoom) }
        if to.bearing != from.bearing { keys.insert(.bearing) }
        if to.pitch != from.pitch { keys.insert(.pitch) }
        animateCamera(to: to, keys: keys.isEmpty ? .all : keys)
    }

    private func animateCamera(to state: CameraState, keys: CameraKeys) {
        endCameraTransaction(finished: false)
        // Inside a CATransaction its duration wins (D6), and the transaction's completion waits for the camera.
        if let membership = CATransaction.joinOpenTransactions() {
            cameraTransaction = membership
            animator.animate(to: state, duration: CATransaction.animationDuration(), keys: keys)
            if !animator.isAnimating { endCameraTransaction(finished: true) }
        } else {
            animator.animate(to: state, keys: keys)
        }
    }

    private func endCameraTransaction(finished: Bool) {
        cameraTransaction?.end(finished: finished)
        cameraTransaction = nil
    }

    /// The camera showing `bounds` inset by `insets` (plus ``padding``) with bearing and tilt 0, or nil for invalid
    /// bounds.
    open func camera(for bounds: GMSCoordinateBounds, insets: UIEdgeInsets) -> GMSCameraPosition? {
        guard let box = bounds.box else { return nil }
        return GMSCameraPosition(
            animator.camera.fitting(box, insets: EdgeInsets(insets).sanitized, constraints: cameraConstraints))
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
            notifyIdleObservers()
        }
    }

    /// Observers told after each `idleAt` (after the delegate), for companions that watch the camera the way iOS code
    /// does with key-value observing of ``camera`` (GoogleMapsUtils' cluster manager). Each entry lives while its
    /// owner does.
    private var idleObservers: [(owner: Weak, body: @MainActor (GMSMapView) -> Void)] = []

    /// A weak reference to an observer's owner.
    private struct Weak { weak var object: AnyObject? }

    /// Calls `body` after every `idleAt` of this map until `owner` is released (package API: the camera
    /// key-value observation of iOS has no Linux counterpart).
    package func addCameraIdleObserver(_ owner: AnyObject, _ body: @escaping @MainActor (GMSMapView) -> Void) {
        idleObservers.removeAll { $0.owner.object == nil }
        idleObservers.append((Weak(object: owner), body))
    }

    private func notifyIdleObservers() {
        idleObservers.removeAll { $0.owner.object == nil }
        for entry in idleObservers { entry.body(self) }
    }

    // MARK: Frame tick (internal API for hosts, tests and the gesture layer)

    /// Advances one frame at the shared animator clock: delivers `UIView`/`CALayer` animation completions
    /// (`UIAnimator.shared.tick()`), then the gestures (merged touch results, fling, delayed taps), then camera events (`willMove`, `didChange`, `idle`, in that order, D5), then
    /// finishes marker appear animations and a camera animation's `CATransaction` membership. Call once per
    /// frame while ``needsTick`` is true (a window host may call it every frame). Main thread.
    package func tick() {
        layer.applyCameraAnimations(at: UIAnimator.shared.now)
        UIAnimator.shared.tick()
        tickPadding()
        gestures.tick()
        animator.tick()
        controls.tick(map: self)
        if cameraTransaction != nil && !animator.isAnimating { endCameraTransaction(finished: true) }
        store.finishAppearAnimations(now: UIAnimator.shared.now)
        deliverRenderEvents()
        checkObservedProperties()
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
    /// animations, marker appear animations, changed icon views or info windows that track changes, made tiles waiting to
    /// be drawn, or a `mapViewDidFinishTileRendering` due. (Tiles still being made do not count: the host may sleep
    /// until ``tileArrivalHandler`` wakes it.)
    package var needsTick: Bool {
        animator.needsTick || gestures.needsTick || UIAnimator.shared.hasRunningAnimations || store.hasAppearAnimations
            || store.hasChangedTrackingViews || (infoWindow?.trackedViewChanged ?? false) || basemap.needsFrames
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
        // The first frame shown: once nothing moves, `idleAt` reports the first camera (Google's SDK does when a
        // map first appears and has settled).
        if renderEvents.drawnVersion < 0 { animator.reportIdleWhenSettled() }
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

    /// The title or snippet of `marker` changed. While it is selected its window follows them (Google's): the
    /// default window re-renders, and appears once they stop being blank (D12) or goes once both are blank; a
    /// custom window re-renders when the marker ``GMSMarker/tracksInfoWindowChanges``.
    func infoWindowContentDidChange(for marker: GMSMarker) {
        guard selected === marker, let window = infoWindow, window.marker === marker else { return }
        switch window.source {
        case .none, .standard:
            let blank = InfoWindowBuilder.isBlank(marker.title) && InfoWindowBuilder.isBlank(marker.snippet)
            var state = InfoWindowState(marker: marker, source: blank ? .none : .standard)
            state.render(scale: renderScale, dark: controls.isDark)
            infoWindow = state
            setNeedsDisplay()
        case .window, .contents:
            guard marker.tracksInfoWindowChanges else { return }
            infoWindow?.needsRefresh = true
            setNeedsDisplay()
        }
    }

    func infoWindowNeedsRefresh(for marker: GMSMarker) {
        setNeedsDisplay()
        if infoWindow?.marker === marker { infoWindow?.needsRefresh = true }
    }

    // MARK: Appearance

    /// The view's traits changed (`overrideUserInterfaceStyle` on it or an ancestor, the app's appearance): the
    /// basemap turns dark or light (unless the app set ``mapStyle``, which wins) and the controls follow. A subclass
    /// that overrides this calls `super`, as UIKit asks.
    open override func traitCollectionDidChange(_ previousTraitCollection: UITraitCollection?) {
        super.traitCollectionDidChange(previousTraitCollection)
        appearanceDidChange()
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
            checkObservedProperties()
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
