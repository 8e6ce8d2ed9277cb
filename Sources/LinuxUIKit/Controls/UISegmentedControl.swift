import Foundation

/// A horizontal row of segments, one of which is selected, as UIKit's `UISegmentedControl`: segments of equal
/// width, titled or with an image, the selected one drawn as a white raised pill on a `tertiarySystemFill` track.
///
/// A tap that lifts inside a segment other than the selected one selects it and sends `.valueChanged` (a momentary
/// control sends it for every tap and keeps no selection). Setting ``selectedSegmentIndex`` in code sends nothing.
/// ``noSegment`` (-1) means nothing is selected. A title too long for its segment (a control given less than its
/// intrinsic width) is shortened with an ellipsis.
/// - Thread rules: main actor only.
@preconcurrency @MainActor open class UISegmentedControl: UIControl {
    /// The ``selectedSegmentIndex`` of a control with nothing selected: -1.
    public static let noSegment = -1

    private struct Segment {
        var title: String?
        var image: UIImage?
        var isEnabled = true
        var action: UIAction?
    }

    private var segments: [Segment] = []

    /// The index of the selected segment, or ``noSegment``. Defaults to ``noSegment``. Values out of range select
    /// nothing. Setting it sends no event.
    open var selectedSegmentIndex: Int = UISegmentedControl.noSegment {
        didSet {
            if !segments.indices.contains(selectedSegmentIndex) { selectedSegmentIndex = Self.noSegment }
            setNeedsDisplay()
        }
    }
    /// Whether segments act as buttons (no lasting selection). Defaults to false.
    open var isMomentary = false
    /// The selected segment's fill; nil uses white. Defaults to nil.
    open var selectedSegmentTintColor: UIColor? {
        didSet { setNeedsDisplay() }
    }
    /// Whether segment widths follow their content (stored; Waymark draws equal widths). Defaults to false.
    open var apportionsSegmentWidthsByContent = false

    /// The number of segments.
    open var numberOfSegments: Int { segments.count }

    /// Creates a control with a segment for each item (`String` titles or `UIImage`s; other values give empty
    /// segments), nothing selected.
    public convenience init(items: [Any]?) {
        self.init(frame: .zero)
        for item in items ?? [] {
            segments.append(Segment(title: item as? String, image: item as? UIImage))
        }
        frame.size = intrinsicContentSize
    }

    /// Creates a control with a segment for each action (titled and imaged by it); selecting a segment runs its
    /// action.
    public convenience init(frame: CGRect, actions: [UIAction]) {
        self.init(frame: frame)
        for action in actions {
            segments.append(Segment(title: action.title, image: action.image, action: action))
        }
    }

    /// Creates an empty control.
    public override init(frame: CGRect) {
        super.init(frame: frame)
        isOpaque = false
    }

    /// Creates an empty control (archives are not supported on Linux).
    public required init?(coder: NSCoder) {
        super.init(coder: coder)
        isOpaque = false
    }

    private func insert(_ segment: Segment, at index: Int) {
        let i = min(max(index, 0), segments.count)
        segments.insert(segment, at: i)
        if selectedSegmentIndex >= i && selectedSegmentIndex != Self.noSegment { selectedSegmentIndex += 1 }
        setNeedsDisplay()
    }

    /// Inserts a titled segment at `segment` (clamped to `0...numberOfSegments`); `animated` is accepted.
    open func insertSegment(withTitle title: String?, at segment: Int, animated: Bool) {
        insert(Segment(title: title), at: segment)
    }

    /// Inserts a segment showing `image` at `segment` (clamped); `animated` is accepted.
    open func insertSegment(with image: UIImage?, at segment: Int, animated: Bool) {
        insert(Segment(image: image), at: segment)
    }

    /// Inserts a segment for `action` at `segment` (clamped); selecting it runs the action.
    open func insertSegment(action: UIAction, at segment: Int, animated: Bool) {
        insert(Segment(title: action.title, image: action.image, action: action), at: segment)
    }

    /// Removes the segment at `segment` (ignored when out of range); a removed selection selects nothing.
    open func removeSegment(at segment: Int, animated: Bool) {
        guard segments.indices.contains(segment) else { return }
        segments.remove(at: segment)
        if selectedSegmentIndex == segment {
            selectedSegmentIndex = Self.noSegment
        } else if selectedSegmentIndex > segment {
            selectedSegmentIndex -= 1
        }
        setNeedsDisplay()
    }

    /// Removes every segment.
    open func removeAllSegments() {
        segments = []
        selectedSegmentIndex = Self.noSegment
    }

    /// Sets the title of the segment at `segment` (ignored when out of range).
    open func setTitle(_ title: String?, forSegmentAt segment: Int) {
        guard segments.indices.contains(segment) else { return }
        segments[segment].title = title
        segments[segment].image = nil
        setNeedsDisplay()
    }

    /// The title of the segment at `segment`, or nil.
    open func titleForSegment(at segment: Int) -> String? {
        segments.indices.contains(segment) ? segments[segment].title : nil
    }

    /// Sets the image of the segment at `segment` (ignored when out of range).
    open func setImage(_ image: UIImage?, forSegmentAt segment: Int) {
        guard segments.indices.contains(segment) else { return }
        segments[segment].image = image
        segments[segment].title = nil
        setNeedsDisplay()
    }

    /// The image of the segment at `segment`, or nil.
    open func imageForSegment(at segment: Int) -> UIImage? {
        segments.indices.contains(segment) ? segments[segment].image : nil
    }

    /// Enables or disables one segment (ignored when out of range); disabled segments take no taps.
    open func setEnabled(_ enabled: Bool, forSegmentAt segment: Int) {
        guard segments.indices.contains(segment) else { return }
        segments[segment].isEnabled = enabled
        setNeedsDisplay()
    }

    /// Whether the segment at `segment` is enabled (false when out of range).
    open func isEnabledForSegment(at segment: Int) -> Bool {
        segments.indices.contains(segment) && segments[segment].isEnabled
    }

    private static let font = UIFont.systemFont(ofSize: 13)

    /// The widest segment's content plus 14 points of padding, times the segment count; 32 points high.
    open override var intrinsicContentSize: CGSize {
        let widest =
            segments.map { segment -> CGFloat in
                if let title = segment.title { return title.size(withAttributes: [.font: Self.font]).width }
                return segment.image?.size.width ?? 0
            }.max() ?? 0
        return CGSize(width: (CGFloat(segments.count) * (widest + 28)).rounded(.up), height: 32)
    }

    /// The ``intrinsicContentSize`` whatever `size` is given.
    open override func sizeThatFits(_ size: CGSize) -> CGSize { intrinsicContentSize }

    /// The segment under `point` (bounds coordinates), or nil.
    private func segment(at point: CGPoint) -> Int? {
        guard !segments.isEmpty, bounds.contains(point) else { return nil }
        let width = bounds.width / CGFloat(segments.count)
        return min(segments.count - 1, max(0, Int(point.x / width)))
    }

    override func touchUpInsideDidFire(_ touch: UITouch) {
        guard let i = segment(at: touch.location(in: self)), segments[i].isEnabled else { return }
        if isMomentary {
            segments[i].action.map(sendAction)
            sendActions(for: .valueChanged)
            return
        }
        guard i != selectedSegmentIndex else { return }
        selectedSegmentIndex = i
        segments[i].action.map(sendAction)
        sendActions(for: .valueChanged)
    }

    /// Draws the track, the selected pill, the separators and the titles or images.
    open override func draw(_ rect: CGRect) {
        let b = bounds
        UIColor.tertiarySystemFill.setFill()
        UIBezierPath(roundedRect: b, cornerRadius: 8).fill()
        guard !segments.isEmpty else { return }
        let w = b.width / CGFloat(segments.count)
        if segments.indices.contains(selectedSegmentIndex) && !isMomentary {
            let pill = CGRect(x: w * CGFloat(selectedSegmentIndex) + 2, y: 2, width: w - 4, height: b.height - 4)
            UIColor(white: 0, alpha: 0.08).setFill()
            UIBezierPath(roundedRect: pill.offsetBy(dx: 0, dy: 1), cornerRadius: 7).fill()
            (selectedSegmentTintColor ?? .control(light: .white, dark: UIColor(white: 0.39, alpha: 1))).setFill()
            UIBezierPath(roundedRect: pill, cornerRadius: 7).fill()
        }
        for (i, segment) in segments.enumerated() {
            let cell = CGRect(x: w * CGFloat(i), y: 0, width: w, height: b.height)
            let selected = i == selectedSegmentIndex && !isMomentary
            if i > 0 && !selected && i - 1 != selectedSegmentIndex {
                UIColor.control(light: .lightOpaqueSeparator, dark: UIColor(white: 0.28, alpha: 1)).setFill()
                UIRectFill(CGRect(x: cell.minX - 0.5, y: 8, width: 1, height: b.height - 16))
            }
            let enabled = isEnabled && segment.isEnabled
            let color: UIColor =
                enabled ? .label : .control(light: .lightTertiaryLabel, dark: UIColor(white: 0.4, alpha: 1))
            if let title = segment.title {
                let font = selected ? UIFont.systemFont(ofSize: 13, weight: .semibold) : Self.font
                // Too long for its segment: shortened with an ellipsis, as UIKit's, not cut mid-letter.
                let style = NSMutableParagraphStyle()
                style.alignment = .center
                style.lineBreakMode = .byTruncatingTail
                let attrs: [NSAttributedString.Key: Any] = [
                    .font: font, .foregroundColor: color, .paragraphStyle: style,
                ]
                let size = title.size(withAttributes: attrs)
                let box = CGRect(
                    x: cell.minX + 4, y: cell.midY - size.height / 2, width: max(0, cell.width - 8),
                    height: size.height)
                title.draw(in: box, withAttributes: attrs)
            } else if let image = segment.image {
                let s = image.size
                image.draw(
                    in: CGRect(
                        x: cell.midX - s.width / 2, y: cell.midY - s.height / 2, width: s.width,
                        height: s.height))
            }
        }
    }
}
