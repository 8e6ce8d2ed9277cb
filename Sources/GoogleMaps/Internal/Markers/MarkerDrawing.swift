import Foundation
import LinuxUIKit
import MapGeometry

/// An icon and ground anchor shared by markers the frame draws straight from the ``MarkerStore`` (still, upright,
/// opaque, no icon view, no layer): the store interns one per distinct pair and keeps each marker's style as a number.
struct MarkerIconStyle {
    struct Key: Hashable {
        var icon: ObjectIdentifier?
        var anchorX: CGFloat
        var anchorY: CGFloat
    }
    /// The icon (kept, so its identity stays unique); nil for the default pin.
    let icon: UIImage?
    let groundAnchor: CGPoint
}

extension FrameRenderer {
    /// The image a marker's `icon` draws at `scale`: the icon, a `markerImage(with:)` pin redrawn at the scale, or
    /// the default pin for nil.
    static func iconImage(_ icon: UIImage?, scale: CGFloat) -> UIImage {
        if let icon {
            // `markerImage(with:)` pins are vector art: redraw them at the frame's scale (cached).
            if icon.scale != scale, let crisp = DefaultPin.rescaled(icon, scale: scale) { return crisp }
            return icon
        }
        return DefaultPin.image(color: DefaultPin.defaultColor, scale: scale)
    }

    /// One icon style resolved for a frame's scale: its image, atlas icon (nil when it cannot be blitted at this scale
    /// or the frame draws through Cairo) and the ground anchor in icon points.
    private struct ResolvedStyle {
        var image: UIImage
        var icon: SpriteAtlas.Icon?
        var anchor: CGPoint
    }

    /// A marker drawn through Cairo (see ``drawMarkers(map:camera:context:scale:)``).
    private struct CairoDraw {
        var image: UIImage
        var time: Double
        var transform: CGAffineTransform
        var snap: Bool
        var alpha: CGFloat
    }

    /// Draws the map's markers bottom to top (zIndex, then order of addition).
    ///
    /// The store hands over the markers whose indexed anchor is near the view, already in drawing order. Markers of
    /// an icon style (the common case) are placed from the candidate's world position and their style alone, no
    /// marker object read; the rest (icon views, rotation, flat, opacity, appear animations, layers) take the
    /// general path through the marker's presented values. When the context's pixels can be written directly, every
    /// still, upright, opaque icon at the device scale goes into the store's ``SpriteBatch`` from its atlas (hidden
    /// pixels skipped, the bytes Cairo's OVER writes), the other draws keep their place in the batch and are drawn
    /// through Cairo; otherwise everything is drawn through Cairo in order.
    static func drawMarkers(map: GMSMapView, camera: CameraState, context: CGContext, scale: CGFloat) {
        let store = map.store
        store.drawnIconViewMarkers.removeAll(keepingCapacity: true)
        guard store.count > 0 else { return }
        let t = camera.transform
        let viewW = CGFloat(camera.size.width)
        let viewH = CGFloat(camera.size.height)
        let candidates = store.drawCandidates(camera: t, width: Double(viewW), height: Double(viewH))
        guard !candidates.isEmpty else { return }
        let now = UIAnimator.shared.now
        let reach = store.maxReach
        let markerStyles = store.styles
        var resolved = [ResolvedStyle?](repeating: nil, count: markerStyles.count)
        let minDepth = t.distance * 1e-3
        let batch = store.batch
        let atlas = batch.atlas
        context.withPixelTarget(deviceScale: scale) { target in
            var cairoDraws: [CairoDraw] = []
            batch.append { batch in
                /// Draws `image` through Cairo now (no pixel target) or in its place in the batch.
                func drawThroughCairo(_ draw: CairoDraw) {
                    if target != nil {
                        batch.addExternal(cairoDraws.count)
                        cairoDraws.append(draw)
                    } else {
                        context.drawImage(
                            draw.image, time: draw.time, transform: draw.transform, snapToPixels: draw.snap,
                            deviceScale: scale, alpha: draw.alpha)
                    }
                }
                var lastImage: UIImage?
                var lastAtlasIcon: SpriteAtlas.Icon?
                var lastIcon: UIImage?
                var lastResolved: UIImage?
                // The style of the previous candidate (runs of one style read it once: no copy and retain a marker).
                var styleIndex = -1
                var styleImage: UIImage?
                var styleAtlasIcon: SpriteAtlas.Icon?
                var styleAnchor = CGPoint.zero
                for c in candidates {
                    if c.style != MarkerStore.generalStyle && c.style != MarkerStore.floatingStyle {
                        let index = Int(c.style) - 1
                        if index != styleIndex {
                            if resolved[index] == nil {
                                let interned = markerStyles[index]
                                let image = iconImage(interned.icon, scale: scale)
                                let content = MarkerPlacement.contentRect(
                                    imageSize: image.size, insets: image.alignmentRectInsets)
                                resolved[index] = ResolvedStyle(
                                    image: image,
                                    icon: target != nil && image.scale == scale ? atlas.icon(for: image) : nil,
                                    anchor: MarkerPlacement.anchor(in: content, groundAnchor: interned.groundAnchor))
                            }
                            let style = resolved[index]!
                            (styleImage, styleAtlasIcon, styleAnchor) = (style.image, style.icon, style.anchor)
                            styleIndex = index
                        }
                        let near = t.nearestWorldCopy(of: WorldPoint(x: c.x, y: c.y))
                        guard t.depth(of: near) > minDepth else { continue }
                        let s = t.screenPoint(forUnwrapped: near)
                        guard CGFloat(s.x) > -reach, CGFloat(s.x) < viewW + reach, CGFloat(s.y) > -reach,
                            CGFloat(s.y) < viewH + reach
                        else { continue }
                        // As `MarkerPlacement` places it: translated by the screen point minus the anchor.
                        let tx = CGFloat(s.x) - styleAnchor.x
                        let ty = CGFloat(s.y) - styleAnchor.y
                        if let icon = styleAtlasIcon {
                            let x = Double(tx * scale).rounded()
                            let y = Double(ty * scale).rounded()
                            if abs(x) < 1e9, abs(y) < 1e9 { batch.add(icon, x: Int(x), y: Int(y)) }
                            continue
                        }
                        guard let image = styleImage else { continue }
                        drawThroughCairo(
                            CairoDraw(
                                image: image, time: 0, transform: CGAffineTransform(translationX: tx, y: ty),
                                snap: true, alpha: 1))
                        continue
                    }
                    // The general path: the marker's presented values.
                    guard let marker = store.marker(inSlot: c.slot) else { continue }
                    let values = presented(marker)
                    guard isValidPosition(values.position) else { continue }
                    let w = WebMercator.worldPoint(LatLng(values.position))
                    let near = t.nearestWorldCopy(of: w)
                    guard t.depth(of: near) > minDepth else { continue }
                    let s = t.screenPoint(forUnwrapped: near)
                    guard CGFloat(s.x) > -reach, CGFloat(s.x) < viewW + reach, CGFloat(s.y) > -reach,
                        CGFloat(s.y) < viewH + reach
                    else { continue }
                    var opacity = Double(values.opacity)
                    var pop: CGFloat = 1
                    if let start = marker.appearStart {
                        let f = (now - start) / MarkerStore.appearDuration
                        if marker.appearAnimation == .pop { pop = popScale(f) } else { opacity *= min(max(f, 0), 1) }
                    }
                    guard opacity > 0, pop > 0 else { continue }
                    // Runs of one icon resolve once (no cache lookup a marker).
                    let image: UIImage
                    if marker.iconView != nil {
                        store.drawnIconViewMarkers.insert(ObjectIdentifier(marker))
                        image = Self.image(for: marker, scale: scale, now: now)
                    } else if let icon = marker.icon {
                        if icon !== lastIcon {
                            lastIcon = icon
                            lastResolved = Self.image(for: marker, scale: scale, now: now)
                        }
                        image = lastResolved ?? icon
                    } else {
                        image = iconImage(nil, scale: scale)
                    }
                    let insets = marker.iconView == nil ? image.alignmentRectInsets : .zero
                    let size = marker.iconView?.bounds.size ?? image.size
                    var placement = MarkerPlacement(
                        screenPoint: CGPoint(x: s.x, y: s.y), imageSize: size, insets: insets,
                        groundAnchor: values.groundAnchor, rotation: values.rotation, flat: marker.isFlat,
                        bearing: camera.bearing, pitch: camera.pitch, appearScale: pop)
                    if let view = marker.iconView {
                        // The icon view's own (presented) transform applies about its centre; the snapshot is its bounds.
                        let own =
                            (view.layer.presentationValue(forKey: "transform") as? CGAffineTransform) ?? view.transform
                        if !own.isIdentity {
                            let c = CGPoint(x: size.width / 2, y: size.height / 2)
                            placement.transform = CGAffineTransform(translationX: -c.x, y: -c.y).concatenating(own)
                                .concatenating(CGAffineTransform(translationX: c.x, y: c.y)).concatenating(
                                    placement.transform)
                            placement.isAxisAligned = false
                        }
                    }
                    if target != nil, placement.isAxisAligned, opacity >= 1, marker.iconView == nil,
                        image.scale == scale
                    {
                        if image !== lastImage {
                            lastImage = image
                            lastAtlasIcon = atlas.icon(for: image)
                        }
                        let x = Double(placement.transform.tx * scale).rounded()
                        let y = Double(placement.transform.ty * scale).rounded()
                        if let icon = lastAtlasIcon, abs(x) < 1e9, abs(y) < 1e9 {
                            batch.add(icon, x: Int(x), y: Int(y))
                            continue
                        }
                    }
                    drawThroughCairo(
                        CairoDraw(
                            image: image, time: now - marker.iconAnimationStart, transform: placement.transform,
                            snap: placement.isAxisAligned, alpha: CGFloat(opacity)))
                }
            }
            guard let target else { return }
            batch.composite(into: target) { i in
                let draw = cairoDraws[i]
                context.markPixelsDirty(target)
                context.drawImage(
                    draw.image, time: draw.time, transform: draw.transform, snapToPixels: draw.snap,
                    deviceScale: scale, alpha: draw.alpha)
            }
        }
    }
}
