import CCairo
import Foundation
import WaymarkTime

/// A rectangle of content with geometry, a background, border, shadow and keyed animations, as Core Animation's
/// `CALayer`.
///
/// Every `UIView` has one (its ``UIView/layer``) and keeps its geometry in it. Geometry is in points: ``bounds``
/// gives the layer's own coordinate space, ``position`` places its ``anchorPoint`` (unit coordinates, default
/// `(0.5, 0.5)`) in the superlayer's space, and the affine transform applies about the anchor point.
///
/// Animations: ``add(_:forKey:)`` stores a ``CABasicAnimation`` under a key; model properties keep their values and
/// ``presentation()`` / ``presentationValue(forKey:)`` give what is on screen at ``UIAnimator/clock``'s time.
/// Subclasses may animate their own keys by overriding ``value(forKey:)`` and ``setValue(_:forKey:)`` for them
/// (values must be ``CAInterpolatable``).
/// - Thread rules: main actor only.
@preconcurrency @MainActor open class CALayer {
    /// The layer's own rectangle, points. Defaults to `.zero`.
    public var bounds: CGRect = .zero
    /// Where the anchor point sits in the superlayer's coordinates, points. Defaults to `.zero`.
    public var position: CGPoint = .zero
    /// The point of the bounds, in unit coordinates (`0...1` each), that ``position`` places and the transform turns
    /// about. Defaults to `(0.5, 0.5)`, the centre.
    public var anchorPoint = CGPoint(x: 0.5, y: 0.5)
    /// Opacity, `0...1` (values outside are clamped when drawing). Defaults to 1.
    public var opacity: Float = 1
    /// When true, the layer and its sublayers are not drawn. Defaults to `false`.
    public var isHidden = false
    /// The fill behind the content, or nil for none. Defaults to nil.
    public var backgroundColor: CGColor?
    /// Radius of the rounded corners of the background and border, points (≥ 0; clamped to half the shorter side).
    /// Defaults to 0.
    public var cornerRadius: CGFloat = 0
    /// Which corners ``cornerRadius`` rounds, as Core Animation's property. Defaults to all four.
    public var maskedCorners: CACornerMask = [
        .layerMinXMinYCorner, .layerMaxXMinYCorner, .layerMinXMaxYCorner, .layerMaxXMaxYCorner,
    ]
    /// Width of the border drawn inside the bounds, over content and sublayers, points. Defaults to 0 (no border).
    public var borderWidth: CGFloat = 0
    /// The border colour. Defaults to opaque black.
    public var borderColor: CGColor? = UIColor.black.cgColor
    /// The shadow colour. Defaults to opaque black.
    public var shadowColor: CGColor? = UIColor.black.cgColor
    /// Shadow opacity, `0...1`. Defaults to 0 (no shadow).
    public var shadowOpacity: Float = 0
    /// Shadow offset, points (y down). Defaults to `(0, -3)`, as Core Animation.
    public var shadowOffset = CGSize(width: 0, height: -3)
    /// Shadow blur radius, points (≈ 2 × the Gaussian standard deviation). Defaults to 3.
    public var shadowRadius: CGFloat = 3
    /// The shape of the shadow, in the layer's bounds space (points), or nil to use the layer's composited
    /// silhouette (its background, content, sublayers and border). Defaults to nil. As in Core Animation, setting it
    /// is much cheaper: the shadow is the blurred filled path (non-zero winding) and the layer's content is not drawn
    /// off screen for it. Typical use: `layer.shadowPath = UIBezierPath(roundedRect: bounds, cornerRadius: r).cgPath`
    /// (set it again when the bounds change). Not animatable here.
    public var shadowPath: CGPath?
    /// When true, content and sublayers are clipped to the (rounded) bounds and no shadow is drawn. Defaults to
    /// `false`.
    public var masksToBounds = false
    /// When true, the layer (its shadow, background, content, sublayers and border) is drawn into a bitmap at
    /// ``rasterizationScale`` pixels per point and that bitmap is drawn in its place while nothing in it changed, as
    /// Core Animation's `shouldRasterize`. "Changed" is the shadow cache's test: a ``setNeedsDisplay()`` or a layer
    /// property of the subtree, this layer's bounds or shadow; this layer's position, transform and opacity apply
    /// to the bitmap. While something in the subtree animates the layer is drawn directly. Defaults to false.
    public var shouldRasterize = false
    /// Pixels per point of the bitmap ``shouldRasterize`` keeps (> 0; other values draw directly). Defaults to 1, as
    /// Core Animation: set it to `UIScreen.main.scale` for content as sharp as the screen.
    public var rasterizationScale: CGFloat = 1
    /// A name for debugging. Defaults to nil.
    public var name: String?
    /// Pixels per point for content; informational (rendering follows the destination's scale). Defaults to 1.
    public var contentsScale: CGFloat = 1

    private var transformStorage = CGAffineTransform.identity
    /// The sublayers, back to front; nil when there are none.
    public private(set) var sublayers: [CALayer]?
    /// The layer this one is a sublayer of.
    public private(set) weak var superlayer: CALayer?
    /// The view whose layer this is (UIKit's layer delegate).
    weak var owningView: UIView?

    /// Creates a layer with the defaults.
    public required init() {}

    /// Creates a copy of `layer`'s model properties (not its sublayers or animations), as Core Animation's
    /// `init(layer:)`; used for ``presentation()``. Subclasses copy their own properties and call super.
    public required init(layer: Any) {
        guard let other = layer as? CALayer else { return }
        bounds = other.bounds
        position = other.position
        anchorPoint = other.anchorPoint
        opacity = other.opacity
        isHidden = other.isHidden
        backgroundColor = other.backgroundColor
        cornerRadius = other.cornerRadius
        maskedCorners = other.maskedCorners
        borderWidth = other.borderWidth
        borderColor = other.borderColor
        shadowColor = other.shadowColor
        shadowOpacity = other.shadowOpacity
        shadowOffset = other.shadowOffset
        shadowRadius = other.shadowRadius
        shadowPath = other.shadowPath
        shouldRasterize = other.shouldRasterize
        rasterizationScale = other.rasterizationScale
        masksToBounds = other.masksToBounds
        name = other.name
        transformStorage = other.transformStorage
    }

    /// The 2-D transform applied about the anchor point (Core Animation's `affineTransform()`).
    public func affineTransform() -> CGAffineTransform { transformStorage }

    /// Sets the 2-D transform (Core Animation's `setAffineTransform(_:)`).
    public func setAffineTransform(_ m: CGAffineTransform) { transformStorage = m }

    /// The rectangle the layer covers in its superlayer, points: the bounding box of the transformed bounds.
    /// Setting it (meaningful with an identity transform) sets ``position`` and the size of ``bounds``.
    public var frame: CGRect {
        get {
            let size = bounds.size
            let local = CGRect(
                x: -anchorPoint.x * size.width, y: -anchorPoint.y * size.height, width: size.width,
                height: size.height)
            let box = transformStorage.isIdentity ? local : local.applying(transformStorage)
            return box.offsetBy(dx: position.x, dy: position.y)
        }
        set {
            bounds.size = newValue.size
            position = CGPoint(
                x: newValue.minX + anchorPoint.x * newValue.width, y: newValue.minY + anchorPoint.y * newValue.height)
        }
    }

    // MARK: Sublayers

    /// Appends `layer` on top of the sublayers (removing it from its previous superlayer first).
    public func addSublayer(_ layer: CALayer) {
        insertSublayer(layer, at: UInt32(sublayers?.count ?? 0))
    }

    /// Inserts `layer` at `index` (clamped to the count) among the sublayers.
    public func insertSublayer(_ layer: CALayer, at index: UInt32) {
        precondition(layer !== self, "a layer cannot be its own sublayer")
        layer.removeFromSuperlayer()
        var list = sublayers ?? []
        list.insert(layer, at: min(Int(index), list.count))
        sublayers = list
        layer.superlayer = self
    }

    /// Detaches the layer from its superlayer; nothing happens when it has none.
    public func removeFromSuperlayer() {
        guard let parent = superlayer else { return }
        parent.sublayers?.removeAll { $0 === self }
        if parent.sublayers?.isEmpty == true { parent.sublayers = nil }
        superlayer = nil
    }

    /// Marks the content for redrawing, as Core Animation's method: the owning view's content (its `draw(_:)`) is
    /// kept between frames and drawn again only after this (or when its bounds, traits or the destination's scale
    /// change; see `CALayer+Render.swift`). It also records the request (see ``needsDisplay()``) and makes the cached
    /// shadows and rasterized bitmaps of this layer and the layers above it stale (a shadow drawn from the layer's
    /// silhouette is kept between frames while nothing in its subtree asked for display and no layer property it
    /// depends on changed).
    public func setNeedsDisplay() {
        displayRequested = true
        displayVersion &+= 1
    }

    /// True after ``setNeedsDisplay()`` until the layer is next rendered.
    public func needsDisplay() -> Bool { displayRequested }

    var displayRequested = false
    /// Counts ``setNeedsDisplay()`` calls: what a cached shadow compares to know this layer's drawn content changed.
    var displayVersion = 0
    /// The blurred shadow mask kept between frames (CALayer+Render.swift); nil until a shadow is drawn.
    var shadowCache: ShadowCache?
    /// How many times this layer's shadow mask was drawn and blurred (not taken from ``shadowCache``); for tests.
    var shadowMaskBuilds = 0
    /// The bitmap ``shouldRasterize`` keeps (CALayer+Render.swift); nil until the layer is drawn rasterized.
    var rasterCache: RasterCache?
    /// The owning view's drawn content kept between frames (CALayer+Render.swift); nil until drawn, and while it
    /// cannot be kept.
    var contentCache: ContentCache?
    /// How many times the content was drawn into ``contentCache`` (not composited from it); for tests.
    var contentBuilds = 0
    /// Whether the owning view's content may ever be kept: 0 not known yet, 1 yes, 2 never (a frame-driven view).
    var contentCachePolicy: UInt8 = 0
    /// Above 0 while a layer draws its subtree off screen for its own cache (a rasterized bitmap or a shadow
    /// mask); content caches are not used then.
    static var offscreenDepth = 0
    /// How many times the rasterized bitmap was drawn; for tests.
    var rasterBuilds = 0

    // MARK: Key-value access

    /// The model value of an animatable key, as Core Animation's key-value coding: `"opacity"` (`Float`),
    /// `"bounds"` (`CGRect`), `"bounds.size"` (`CGSize`), `"position"` (`CGPoint`), `"transform"`
    /// (`CGAffineTransform`), `"transform.scale"` (uniform scale, `CGFloat`), `"transform.rotation"` and
    /// `"transform.rotation.z"` (radians, `CGFloat`), `"cornerRadius"`, `"borderWidth"`, `"shadowRadius"` (`CGFloat`), `"shadowOpacity"`
    /// (`Float`), `"shadowOffset"` (`CGSize`), `"backgroundColor"`, `"borderColor"`, `"shadowColor"` (`CGColor`,
    /// clear when nil); view keys such as `"tintColor"` come from the owning view; nil for unknown keys. Subclasses
    /// override to add keys.
    open func value(forKey key: String) -> Any? {
        switch key {
        case "opacity": return opacity
        case "bounds": return bounds
        case "bounds.size": return bounds.size
        case "position": return position
        case "transform": return transformStorage
        case "transform.scale": return transformStorage.uniformScale
        case "transform.rotation", "transform.rotation.z": return transformStorage.rotationAngle
        case "cornerRadius": return cornerRadius
        case "borderWidth": return borderWidth
        case "shadowRadius": return shadowRadius
        case "shadowOpacity": return shadowOpacity
        case "shadowOffset": return shadowOffset
        case "backgroundColor": return backgroundColor ?? UIColor.clear.cgColor
        case "borderColor": return borderColor ?? UIColor.clear.cgColor
        case "shadowColor": return shadowColor ?? UIColor.clear.cgColor
        default: return owningView?.animatableValue(forKey: key)
        }
    }

    /// Sets a key handled by ``value(forKey:)``; values of the wrong type are ignored. Subclasses override to add
    /// keys.
    open func setValue(_ value: Any?, forKey key: String) {
        switch key {
        case "opacity": if let v = numeric(value) { opacity = Float(v) }
        case "bounds": if let v = value as? CGRect { bounds = v }
        case "bounds.size": if let v = value as? CGSize { bounds.size = v }
        case "position": if let v = value as? CGPoint { position = v }
        case "transform": if let v = value as? CGAffineTransform { transformStorage = v }
        case "transform.scale": if let v = numeric(value) { transformStorage = transformStorage.withScale(CGFloat(v)) }
        case "transform.rotation", "transform.rotation.z":
            if let v = numeric(value) { transformStorage = transformStorage.withRotation(CGFloat(v)) }
        case "cornerRadius": if let v = numeric(value) { cornerRadius = CGFloat(v) }
        case "borderWidth": if let v = numeric(value) { borderWidth = CGFloat(v) }
        case "shadowRadius": if let v = numeric(value) { shadowRadius = CGFloat(v) }
        case "shadowOpacity": if let v = numeric(value) { shadowOpacity = Float(v) }
        case "shadowOffset": if let v = value as? CGSize { shadowOffset = v }
        case "backgroundColor": backgroundColor = colorValue(value)
        case "borderColor": borderColor = colorValue(value)
        case "shadowColor": shadowColor = colorValue(value)
        default: owningView?.setAnimatableValue(value, forKey: key)
        }
    }

    // MARK: Animations

    final class Entry {
        let key: String
        let keyPath: String
        let animation: CAAnimation
        let start: TimeInterval
        let duration: TimeInterval
        /// Runs played (``CAAnimation/repeatCount``, at least 1; may be fractional or infinite).
        let runs: Double
        /// Each run plays forwards then backwards (``CAAnimation/autoreverses``).
        let autoreverses: Bool
        let timing: CAMediaTimingFunction?
        let from: Any?
        let to: Any?
        let groups: [AnimationGroup]
        var stopReported = false

        init(
            key: String, keyPath: String, animation: CAAnimation, start: TimeInterval, duration: TimeInterval,
            runs: Double = 1, autoreverses: Bool = false, timing: CAMediaTimingFunction?, from: Any?, to: Any?,
            groups: [AnimationGroup]
        ) {
            self.key = key
            self.keyPath = keyPath
            self.animation = animation
            self.start = start
            self.duration = duration
            self.runs = runs.isNaN || runs <= 0 ? 1 : runs
            self.autoreverses = autoreverses
            self.timing = timing
            self.from = from
            self.to = to
            self.groups = groups
        }

        /// One run: the duration, twice when it autoreverses.
        var runLength: TimeInterval { autoreverses ? 2 * duration : duration }
        /// When the last run ends (never, for an infinite repeat count).
        var end: TimeInterval { runs.isInfinite ? .infinity : start + runLength * runs }

        /// The animated value at `time`, over `below` (the value of the animations before it) and `model`.
        @MainActor func value(at time: TimeInterval, below: Any?, model: Any?) -> Any? {
            if let keyframes = animation as? CAKeyframeAnimation,
                let value = keyframes.value(atProgress: progress(at: time), like: model)
            {
                return value
            }
            return interpolateAny(from ?? below, to ?? model, fraction: progress(at: time))
        }

        /// Eased progress at `time`: 0 before the start (the start value shows during a delay); within a run the
        /// fraction of ``duration`` played (back down to 0 in an autoreversing run's second half); after the end the
        /// last run's final value (1, or 0 when autoreversing; a fractional repeat count stops part-way).
        func progress(at time: TimeInterval) -> Double {
            guard duration > 0 else { return time >= start ? (autoreverses ? 0 : 1) : 0 }
            let elapsed = min(max(time - start, 0), end - start)
            var local = elapsed.truncatingRemainder(dividingBy: runLength)
            // The end of a whole number of runs is the end of the last run, not the start of the next.
            if local == 0 && elapsed > 0 { local = runLength }
            var x = local / duration
            if x > 1 { x = 2 - x }
            x = min(max(x, 0), 1)
            return timing?.timingProgress(at: x) ?? x
        }
    }

    private var entries: [Entry] = []
    private var generatedKeys = 0

    var hasAnimations: Bool { !entries.isEmpty }

    /// The keys whose animation changes only how the layer is composited, not what its view draws.
    private static let compositingKeys: Set<String> = [
        "opacity", "position", "bounds", "bounds.size", "transform", "transform.scale", "transform.rotation",
        "transform.rotation.z", "cornerRadius", "borderWidth", "shadowRadius", "shadowOpacity", "shadowOffset",
        "backgroundColor", "borderColor", "shadowColor",
    ]

    /// True while an animation runs on a key other than ``compositingKeys`` (a view key such as `"tintColor"`, or a
    /// subclass's own key), which may change what the view draws.
    var animatesContentKeys: Bool {
        !entries.isEmpty && entries.contains { !CALayer.compositingKeys.contains($0.keyPath) }
    }

    /// True while an animation runs on `keyPath` (no allocation, unlike ``animationEntries(forKeyPath:)``).
    func hasAnimation(forKeyPath keyPath: String) -> Bool {
        !entries.isEmpty && entries.contains { $0.keyPath == keyPath }
    }

    /// Adds `anim` under `key` (replacing — and reporting as unfinished — any animation under the same key).
    ///
    /// Resolved at once: a zero `duration` becomes ``CATransaction/animationDuration()``, a missing timing function
    /// the transaction's (else linear), a zero `beginTime` the current time, a nil `fromValue` the presented value.
    /// The animation joins the completion of every open ``CATransaction``. Animations without a key path are
    /// ignored.
    /// - Parameters:
    ///   - anim: a ``CABasicAnimation`` (other ``CAPropertyAnimation`` kinds animate from the presented to the model
    ///     value).
    ///   - key: a name for ``animation(forKey:)`` and ``removeAnimation(forKey:)``; nil makes a unique one.
    public func add(_ anim: CAAnimation, forKey key: String?) {
        add(anim, forKey: key, extraGroups: [])
    }

    func add(_ anim: CAAnimation, forKey key: String?, extraGroups: [AnimationGroup]) {
        guard let property = anim as? CAPropertyAnimation, let keyPath = property.keyPath else {
            UIKitLog.warning("CALayer.add(_:forKey:): animation without a key path ignored")
            return
        }
        let animator = UIAnimator.shared
        let now = animator.now
        let resolvedKey: String
        if let key {
            resolvedKey = key
        } else {
            generatedKeys += 1
            resolvedKey = "_anim\(generatedKeys)"
        }
        let basic = anim as? CABasicAnimation
        let model = value(forKey: keyPath)
        let from = normalize(basic?.fromValue, like: model) ?? presentationValue(forKey: keyPath)
        let to = normalize(basic?.toValue, like: model)
        let groups = CATransaction.openGroups + extraGroups
        for group in groups { group.add() }
        let entry = Entry(
            key: resolvedKey, keyPath: keyPath, animation: anim, start: anim.beginTime > 0 ? anim.beginTime : now,
            duration: anim.duration > 0 ? anim.duration : CATransaction.animationDuration(),
            runs: Double(anim.repeatCount), autoreverses: anim.autoreverses,
            timing: anim.timingFunction ?? CATransaction.animationTimingFunction(), from: from, to: to,
            groups: groups)
        if let index = entries.firstIndex(where: { $0.key == resolvedKey }) {
            stop(entries.remove(at: index), finished: false)
        }
        entries.append(entry)
        animator.register(self)
        if let delegate = anim.delegate {
            animator.enqueue { delegate.animationDidStart(anim) }
        }
    }

    /// The animation stored under `key`, or nil.
    public func animation(forKey key: String) -> CAAnimation? {
        entries.first { $0.key == key }?.animation
    }

    /// The keys of the running animations, in the order they were added; nil when there are none.
    public func animationKeys() -> [String]? {
        entries.isEmpty ? nil : entries.map(\.key)
    }

    /// Removes the animation under `key`; its handlers get `finished == false` on the next tick.
    public func removeAnimation(forKey key: String) {
        guard let index = entries.firstIndex(where: { $0.key == key }) else { return }
        stop(entries.remove(at: index), finished: false)
    }

    /// Removes every animation; handlers get `finished == false` on the next tick.
    public func removeAllAnimations() {
        let removed = entries
        entries.removeAll()
        for entry in removed { stop(entry, finished: false) }
    }

    /// The key paths currently animated (internal: used by views to decide what to interrupt).
    func animationEntries(forKeyPath keyPath: String) -> [Entry] {
        entries.filter { $0.keyPath == keyPath }
    }

    func removeEntries(forKeyPath keyPath: String) {
        let removed = entries.filter { $0.keyPath == keyPath }
        entries.removeAll { $0.keyPath == keyPath }
        for entry in removed { stop(entry, finished: false) }
    }

    private func stop(_ entry: Entry, finished: Bool) {
        guard !entry.stopReported else { return }
        entry.stopReported = true
        for group in entry.groups { group.end(finished: finished) }
        if let delegate = entry.animation.delegate {
            let anim = entry.animation
            UIAnimator.shared.enqueue { delegate.animationDidStop(anim, finished: finished) }
        }
    }

    func removeFinishedAnimations(at time: TimeInterval) {
        var kept: [Entry] = []
        for entry in entries {
            if time >= entry.end {
                stop(entry, finished: true)
                if !entry.animation.isRemovedOnCompletion { kept.append(entry) }
            } else {
                kept.append(entry)
            }
        }
        entries = kept
    }

    func dropAllAnimationsSilently() {
        for entry in entries { entry.stopReported = true }
        entries.removeAll()
    }

    /// The value of `key` as presented at the animator clock's current time: the model value blended by every
    /// animation on that key path (later animations win). A Waymark accessor (Core Animation reads it through
    /// `presentation()`).
    public func presentationValue(forKey key: String) -> Any? {
        presentationValue(forKey: key, at: UIAnimator.shared.now)
    }

    func presentationValue(forKey key: String, at time: TimeInterval) -> Any? {
        let model = value(forKey: key)
        var result = model
        for entry in entries where entry.keyPath == key {
            if time >= entry.end && entry.animation.isRemovedOnCompletion { continue }
            result = entry.value(at: time, below: result, model: model)
        }
        return result
    }

    /// Waymark's own (package): the value the animations on `key` give at `time`, a finished animation still at its
    /// end value (it is removed on the animator's next tick); nil when no animation is on `key`. For layers whose
    /// model is driven by their animations, such as the map's camera keys.
    package func animatedValue(forKey key: String, at time: TimeInterval) -> Any? {
        guard entries.contains(where: { $0.keyPath == key }) else { return nil }
        let model = value(forKey: key)
        var result = model
        for entry in entries where entry.keyPath == key {
            result = entry.value(at: time, below: result, model: model)
        }
        return result
    }

    /// A typed presented value, falling back to `model` (fast when nothing animates `key`).
    func presented<T>(_ key: String, _ model: T) -> T {
        guard entries.contains(where: { $0.keyPath == key }) else { return model }
        return presentationValue(forKey: key) as? T ?? model
    }

    /// A copy of this layer showing the presented values at the clock's current time, as Core Animation's
    /// `presentation()`. Never nil here (Core Animation returns nil before a layer's first commit, which Waymark
    /// does not model). The copy has no sublayers and no animations.
    public func presentation() -> Self? {
        let copy = type(of: self).init(layer: self)
        // Sorted so "transform" is applied before its "transform.*" sub-keys.
        for keyPath in Set(entries.map(\.keyPath)).sorted() {
            copy.setValue(presentationValue(forKey: keyPath), forKey: keyPath)
        }
        return copy
    }

    /// The presented affine transform: the `"transform"` value with animated `"transform.scale"` and
    /// `"transform.rotation(.z)"` sub-keys applied.
    func presentedTransform() -> CGAffineTransform {
        var t = presented("transform", transformStorage)
        for key in ["transform.scale", "transform.rotation", "transform.rotation.z"]
        where entries.contains(where: { $0.keyPath == key }) {
            guard let v = numeric(presentationValue(forKey: key)).map({ CGFloat($0) }) else { continue }
            t = key == "transform.scale" ? t.withScale(v) : t.withRotation(v)
        }
        return t
    }

    /// The model layer of a presentation copy, or `self` (Core Animation's `model()`).
    public func model() -> Self { self }
}

/// A number of any of Swift's floating-point or integer types as a `Double`, else nil.
func numeric(_ value: Any?) -> Double? {
    switch value {
    case let v as Double: return v
    case let v as Float: return Double(v)
    case let v as CGFloat: return Double(v)
    case let v as Int: return Double(v)
    case let v as NSNumber: return v.doubleValue
    default: return nil
    }
}

private func colorValue(_ value: Any?) -> CGColor? {
    if let c = value as? CGColor { return c }
    if let c = value as? UIColor { return c.cgColor }
    return nil
}

/// Converts `value` to the type of `model` where both are numbers or both are colours; otherwise returns it as is.
func normalize(_ value: Any?, like model: Any?) -> Any? {
    guard let value else { return nil }
    switch model {
    case is Float: return numeric(value).map { Float($0) } ?? value
    case is Double: return numeric(value) ?? value
    case is CGFloat: return numeric(value).map { CGFloat($0) } ?? value
    case is CGColor: return (value as? UIColor)?.cgColor ?? value
    case is UIColor: return (value as? CGColor).map { UIColor(cgColor: $0) } ?? value
    default: return value
    }
}

/// The corners a layer's ``CALayer/cornerRadius`` rounds, as Core Animation's `CACornerMask` (y grows downwards, so
/// `MinY` corners are the top ones).
public struct CACornerMask: OptionSet, Sendable, Hashable {
    /// The mask's bits.
    public let rawValue: UInt
    /// Creates a mask from its bits.
    public init(rawValue: UInt) { self.rawValue = rawValue }
    /// The top-left corner.
    public static let layerMinXMinYCorner = CACornerMask(rawValue: 1)
    /// The top-right corner.
    public static let layerMaxXMinYCorner = CACornerMask(rawValue: 2)
    /// The bottom-left corner.
    public static let layerMinXMaxYCorner = CACornerMask(rawValue: 4)
    /// The bottom-right corner.
    public static let layerMaxXMaxYCorner = CACornerMask(rawValue: 8)
}
