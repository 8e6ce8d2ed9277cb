import Foundation
import LinuxUIKit
import MapGeometry

/// Where and how one marker's icon lands on screen for one camera: the affine transform from icon space (points,
/// origin at the top-left of the full image, y down) to view points, and the icon's tappable rectangle (the image
/// minus its `alignmentRectInsets`).
struct MarkerPlacement {
    /// Icon space → view points.
    var transform: CGAffineTransform
    /// The full image size, points.
    var imageSize: CGSize
    /// The alignment rect (tappable, anchor space) in icon space.
    var contentRect: CGRect
    /// Whether the icon is drawn without rotation, skew or scaling (it can be snapped to whole device pixels).
    var isAxisAligned: Bool

    /// Builds the placement.
    /// - Parameters:
    ///   - screenPoint: the ground anchor's view point.
    ///   - imageSize: icon size, points.
    ///   - insets: the image's `alignmentRectInsets`.
    ///   - groundAnchor: in the alignment rect's unit square (extrapolates outside [0, 1], D13).
    ///   - rotation: degrees clockwise (non-finite → 0).
    ///   - flat: flat markers turn by −bearing and are squashed by cos(pitch) along the screen's vertical.
    ///   - bearing: the camera's bearing, degrees clockwise from north; used only when `flat`.
    ///   - pitch: the camera's pitch, degrees from straight down; used only when `flat`.
    ///   - appearScale: the pop animation's scale about the ground anchor (1 when none).
    init(
        screenPoint: CGPoint, imageSize: CGSize, insets: UIEdgeInsets, groundAnchor: CGPoint, rotation: Double,
        flat: Bool, bearing: Double, pitch: Double, appearScale: CGFloat = 1
    ) {
        self.imageSize = imageSize
        contentRect = Self.contentRect(imageSize: imageSize, insets: insets)
        let anchor = Self.anchor(in: contentRect, groundAnchor: groundAnchor)
        var degrees = rotation.isFinite ? rotation : 0
        var squash: CGFloat = 1
        if flat {
            degrees -= bearing
            squash = CGFloat(cos(pitch * .pi / 180))
        }
        degrees = degrees.truncatingRemainder(dividingBy: 360)
        let angle = CGFloat(degrees * .pi / 180)
        // Row-vector convention: p · T(−anchor) · S(pop) · R(angle) · S(1, squash) · T(screen).
        var t = CGAffineTransform(translationX: -anchor.x, y: -anchor.y)
        if appearScale != 1 { t = t.concatenating(CGAffineTransform(scaleX: appearScale, y: appearScale)) }
        if angle != 0 { t = t.concatenating(CGAffineTransform(rotationAngle: angle)) }
        if squash != 1 { t = t.concatenating(CGAffineTransform(scaleX: 1, y: squash)) }
        t = t.concatenating(CGAffineTransform(translationX: screenPoint.x, y: screenPoint.y))
        transform = t
        isAxisAligned = angle == 0 && squash == 1 && appearScale == 1
    }

    /// The alignment rect of an icon of `imageSize` points with `insets`, in icon space.
    static func contentRect(imageSize: CGSize, insets: UIEdgeInsets) -> CGRect {
        CGRect(
            x: insets.left, y: insets.top, width: imageSize.width - insets.left - insets.right,
            height: imageSize.height - insets.top - insets.bottom)
    }

    /// The icon-space point `groundAnchor` (unit square of `content`) names.
    static func anchor(in content: CGRect, groundAnchor: CGPoint) -> CGPoint {
        CGPoint(x: content.minX + groundAnchor.x * content.width, y: content.minY + groundAnchor.y * content.height)
    }

    /// Where the icon-space point `p` lands in view points.
    func viewPoint(_ p: CGPoint) -> CGPoint { p.applying(transform) }

    /// Whether the view point `p` falls in the tappable rectangle (edges included).
    func contains(viewPoint p: CGPoint) -> Bool {
        let det = transform.a * transform.d - transform.b * transform.c
        guard det != 0, det.isFinite else { return false }
        let local = p.applying(transform.inverted())
        return local.x >= contentRect.minX && local.x <= contentRect.maxX && local.y >= contentRect.minY
            && local.y <= contentRect.maxY
    }

    /// The farthest distance from the ground anchor to any corner of the image, points (at rotation 0, scale 1):
    /// the radius every placement of this icon fits in.
    static func reach(imageSize: CGSize, insets: UIEdgeInsets, groundAnchor: CGPoint) -> CGFloat {
        let a = anchor(in: contentRect(imageSize: imageSize, insets: insets), groundAnchor: groundAnchor)
        let ax = a.x
        let ay = a.y
        var best: CGFloat = 0
        for (x, y) in [(0, 0), (imageSize.width, 0), (0, imageSize.height), (imageSize.width, imageSize.height)] {
            best = max(best, hypot(x - ax, y - ay))
        }
        return best.isFinite ? best : 0
    }
}
