import Foundation
import LinuxUIKit

/// The open info window of a map's selected marker.
@MainActor struct InfoWindowState {
    enum Source {
        /// `markerInfoWindow`'s view: the whole window.
        case window(UIView)
        /// `markerInfoContents`'s view inside the default bubble.
        case contents(UIView)
        /// Title and snippet in the default bubble.
        case standard
        /// Selected, but nothing to show (blank default content, D12).
        case none
    }

    let marker: GMSMarker
    let source: Source
    /// The rendered window, or nil when there is none.
    var image: UIImage?
    /// The arrow tip (the point placed on the marker's info window anchor), in the image's points.
    var tip: CGPoint = .zero
    /// Set when the next frame must re-render the window.
    var needsRefresh = false
    /// The appearance the window was last rendered in (the default bubble is dark in a dark appearance).
    var renderedDark = false

    /// Renders (or re-renders) the window at `scale`, the default bubble in the dark palette when `dark`.
    mutating func render(scale: CGFloat, dark: Bool) {
        renderedDark = dark
        switch source {
        case .none:
            image = nil
        case .window(let view):
            let snapshot = InfoWindowBuilder.snapshot(view, scale: scale)
            image = snapshot
            tip = CGPoint(x: snapshot.size.width / 2, y: snapshot.size.height)
        case .contents(let view):
            (image, tip) = DefaultInfoWindow.render(
                title: nil, snippet: nil, contents: InfoWindowBuilder.snapshot(view, scale: scale), scale: scale,
                dark: dark)
        case .standard:
            (image, tip) = DefaultInfoWindow.render(
                title: marker.title, snippet: marker.snippet, contents: nil, scale: scale, dark: dark)
        }
        needsRefresh = false
    }
}

@MainActor enum InfoWindowBuilder {
    /// The largest custom view drawn, points (D15: larger views are clipped with a warning).
    static let maximumSize: CGFloat = 500

    /// Asks the delegate for a custom window, then custom contents, else the default (§2.4); renders it at once (the
    /// window shows the view as it is now).
    static func build(for marker: GMSMarker, map: GMSMapView) -> InfoWindowState {
        let source: InfoWindowState.Source
        if let view = map.delegate?.infoWindow(for: marker, in: map) {
            source = .window(view)
        } else if let view = map.delegate?.infoContents(for: marker, in: map) {
            source = .contents(view)
        } else if isBlank(marker.title) && isBlank(marker.snippet) {
            source = .none
        } else {
            source = .standard
        }
        var state = InfoWindowState(marker: marker, source: source)
        state.render(scale: map.renderScale, dark: map.controls.isDark)
        return state
    }

    /// D12: nil, empty or only whitespace.
    static func isBlank(_ text: String?) -> Bool {
        (text ?? "").allSatisfy { $0.isWhitespace || $0.isNewline }
    }

    /// A snapshot of `view` clipped to its bounds and to 500 × 500 pt.
    static func snapshot(_ view: UIView, scale: CGFloat) -> UIImage {
        let size = view.bounds.size
        guard size.width > maximumSize || size.height > maximumSize else { return view.renderImage(scale: scale) }
        GMSLog.warning(
            "info window view \(size.width) × \(size.height) pt is larger than 500 × 500 pt; clipped (D15)")
        let clipped = CGSize(width: min(size.width, maximumSize), height: min(size.height, maximumSize))
        let format = UIGraphicsImageRendererFormat()
        format.scale = scale
        return UIGraphicsImageRenderer(size: clipped, format: format).image { context in
            view.layer.render(in: context.cgContext)
        }
    }
}

/// The default info window of D15: a white bubble with corner radius 8 pt, a soft shadow and a 16 × 8 pt arrow
/// whose tip is the anchor; 12 pt padding; bold 15 pt near-black title (≤ 2 lines) over a regular 13 pt dark-grey
/// snippet (≤ 8 lines); text wraps at 240 pt and ends with an ellipsis when cut. In a dark appearance the bubble is
/// Google's dark surface (#202124) with light text (#E8EAED title, #9AA0A6 snippet), as the controls follow the trait.
@MainActor enum DefaultInfoWindow {
    static let cornerRadius: CGFloat = 8
    static let arrowWidth: CGFloat = 16
    static let arrowHeight: CGFloat = 8
    static let padding: CGFloat = 12
    static let maximumTextWidth: CGFloat = 240
    /// Room for the shadow around the bubble, points.
    static let shadowMargin: CGFloat = 6
    static let titleFont = UIFont.boldSystemFont(ofSize: 15)
    static let snippetFont = UIFont.systemFont(ofSize: 13)
    static let titleColor = UIColor(white: 0.13, alpha: 1)
    static let snippetColor = UIColor(white: 0.36, alpha: 1)
    static let darkFill = UIColor(red: 32 / 255, green: 33 / 255, blue: 36 / 255, alpha: 1)
    static let darkTitleColor = UIColor(red: 232 / 255, green: 234 / 255, blue: 237 / 255, alpha: 1)
    static let darkSnippetColor = UIColor(red: 154 / 255, green: 160 / 255, blue: 166 / 255, alpha: 1)
    /// Space between title and snippet, points.
    static let lineGap: CGFloat = 2

    /// Renders the bubble around `title`/`snippet` or around `contents`, in the dark palette when `dark`; returns the
    /// image and its arrow tip.
    static func render(
        title: String?, snippet: String?, contents: UIImage?, scale: CGFloat, dark: Bool = false
    ) -> (UIImage, CGPoint) {
        var labels: [(UILabel, CGSize)] = []
        var contentSize = CGSize.zero
        if let contents {
            contentSize = contents.size
        } else {
            if !InfoWindowBuilder.isBlank(title) {
                labels.append(
                    label(title ?? "", font: titleFont, color: dark ? darkTitleColor : titleColor, lines: 2))
            }
            if !InfoWindowBuilder.isBlank(snippet) {
                labels.append(
                    label(snippet ?? "", font: snippetFont, color: dark ? darkSnippetColor : snippetColor, lines: 8))
            }
            for (i, (_, size)) in labels.enumerated() {
                contentSize.width = max(contentSize.width, size.width)
                contentSize.height += size.height + (i > 0 ? lineGap : 0)
            }
        }
        let m = shadowMargin
        let body = CGRect(x: m, y: m, width: contentSize.width + 2 * padding, height: contentSize.height + 2 * padding)
        let size = CGSize(width: body.width + 2 * m, height: body.maxY + arrowHeight + m)
        let tip = CGPoint(x: body.midX, y: body.maxY + arrowHeight)
        let format = UIGraphicsImageRendererFormat()
        format.scale = scale
        let image = UIGraphicsImageRenderer(size: size, format: format).image { context in
            let cg = context.cgContext
            // Soft shadow: the outline widened in steps at low alpha, one point down.
            cg.saveGState()
            cg.translateBy(x: 0, y: 1)
            for (width, alpha) in [(8.0, 0.025), (5.0, 0.035), (3.0, 0.05), (1.5, 0.08)] {
                addBubblePath(cg, body: body)
                cg.setStrokeColor(UIColor(white: 0, alpha: alpha).cgColor)
                cg.setLineWidth(width)
                cg.strokePath()
            }
            cg.restoreGState()
            addBubblePath(cg, body: body)
            cg.setFillColor((dark ? darkFill : UIColor.white).cgColor)
            cg.fillPath()
            if let contents {
                contents.draw(
                    in: CGRect(origin: CGPoint(x: body.minX + padding, y: body.minY + padding), size: contentSize))
            } else {
                var y = body.minY + padding
                for (label, labelSize) in labels {
                    label.frame = CGRect(x: 0, y: 0, width: contentSize.width, height: labelSize.height)
                    cg.saveGState()
                    cg.translateBy(x: body.minX + padding, y: y)
                    label.layer.render(in: cg)
                    cg.restoreGState()
                    y += labelSize.height + lineGap
                }
            }
        }
        return (image, tip)
    }

    private static func label(_ text: String, font: UIFont, color: UIColor, lines: Int) -> (UILabel, CGSize) {
        let label = UILabel(frame: .zero)
        label.text = text
        label.font = font
        label.textColor = color
        label.numberOfLines = lines
        label.lineBreakMode = .byTruncatingTail
        var size = label.sizeThatFits(CGSize(width: maximumTextWidth, height: 0))
        size.width = min(size.width, maximumTextWidth)
        return (label, size)
    }

    /// The bubble outline: a rounded rectangle with the arrow at the bottom centre.
    static func addBubblePath(_ cg: CGContext, body: CGRect) {
        let r = min(cornerRadius, body.width / 2, body.height / 2)
        let half = arrowWidth / 2
        cg.beginPath()
        cg.move(to: CGPoint(x: body.minX + r, y: body.minY))
        cg.addLine(to: CGPoint(x: body.maxX - r, y: body.minY))
        cg.addArc(
            center: CGPoint(x: body.maxX - r, y: body.minY + r), radius: r, startAngle: -.pi / 2, endAngle: 0,
            clockwise: false)
        cg.addLine(to: CGPoint(x: body.maxX, y: body.maxY - r))
        cg.addArc(
            center: CGPoint(x: body.maxX - r, y: body.maxY - r), radius: r, startAngle: 0, endAngle: .pi / 2,
            clockwise: false)
        cg.addLine(to: CGPoint(x: body.midX + half, y: body.maxY))
        cg.addLine(to: CGPoint(x: body.midX, y: body.maxY + arrowHeight))
        cg.addLine(to: CGPoint(x: body.midX - half, y: body.maxY))
        cg.addLine(to: CGPoint(x: body.minX + r, y: body.maxY))
        cg.addArc(
            center: CGPoint(x: body.minX + r, y: body.maxY - r), radius: r, startAngle: .pi / 2, endAngle: .pi,
            clockwise: false)
        cg.addLine(to: CGPoint(x: body.minX, y: body.minY + r))
        cg.addArc(
            center: CGPoint(x: body.minX + r, y: body.minY + r), radius: r, startAngle: .pi, endAngle: 1.5 * .pi,
            clockwise: false)
        cg.closePath()
    }
}
