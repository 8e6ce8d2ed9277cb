import Foundation

/// Where a picker view's rows come from, as UIKit's `UIPickerViewDataSource`.
@preconcurrency @MainActor public protocol UIPickerViewDataSource: AnyObject {
    /// The number of columns (components).
    func numberOfComponents(in pickerView: UIPickerView) -> Int
    /// The number of rows in `component`.
    func pickerView(_ pickerView: UIPickerView, numberOfRowsInComponent component: Int) -> Int
}

/// What a picker view asks and tells its delegate, as UIKit's `UIPickerViewDelegate`. Every method has a default:
/// no title, 32-point rows, equal widths, nothing on selection.
@preconcurrency @MainActor public protocol UIPickerViewDelegate: AnyObject {
    /// The title of a row, or nil.
    func pickerView(_ pickerView: UIPickerView, titleForRow row: Int, forComponent component: Int) -> String?
    /// The user selected `row` in `component` (by dragging or tapping).
    func pickerView(_ pickerView: UIPickerView, didSelectRow row: Int, inComponent component: Int)
    /// The row height of `component`, points.
    func pickerView(_ pickerView: UIPickerView, rowHeightForComponent component: Int) -> CGFloat
    /// The width of `component`, points.
    func pickerView(_ pickerView: UIPickerView, widthForComponent component: Int) -> CGFloat
}

extension UIPickerViewDelegate {
    /// Returns nil.
    public func pickerView(_ pickerView: UIPickerView, titleForRow row: Int, forComponent component: Int) -> String? {
        nil
    }
    /// Does nothing.
    public func pickerView(_ pickerView: UIPickerView, didSelectRow row: Int, inComponent component: Int) {}
    /// Returns 32.
    public func pickerView(_ pickerView: UIPickerView, rowHeightForComponent component: Int) -> CGFloat { 32 }
    /// Returns the picker's width shared equally among the components.
    public func pickerView(_ pickerView: UIPickerView, widthForComponent component: Int) -> CGFloat {
        pickerView.bounds.width / CGFloat(max(1, pickerView.numberOfComponents))
    }
}

/// Spinning wheels of rows, one per component, as UIKit's `UIPickerView`: each wheel shows its selected row in a
/// grey band across the middle, with the neighbouring rows above and below.
///
/// Dragging a wheel vertically turns it; when the finger lifts, it settles on the row nearest the band. A tap on a
/// row above or below the band turns the wheel to it. Either way, a changed row calls the delegate's
/// `pickerView(_:didSelectRow:inComponent:)`. ``selectRow(_:inComponent:animated:)`` in code tells no one.
/// - Thread rules: main actor only.
@preconcurrency @MainActor open class UIPickerView: UIView, UITouchResponder {
    /// The data source, held weakly. Defaults to nil.
    open weak var dataSource: (any UIPickerViewDataSource)? {
        didSet { reloadAllComponents() }
    }
    /// The delegate, held weakly. Defaults to nil.
    open weak var delegate: (any UIPickerViewDelegate)? {
        didSet { setNeedsDisplay() }
    }

    private var selections: [Int] = []
    private var dragComponent: Int?
    private var dragShift: CGFloat = 0
    private var touch: UITouch?
    private var touchStart: CGPoint = .zero
    private var moved = false

    /// Creates a picker (216 points high is the natural height).
    public override init(frame: CGRect) {
        super.init(frame: frame)
        isOpaque = false
    }

    /// Creates a picker (archives are not supported on Linux).
    public required init?(coder: NSCoder) {
        super.init(coder: coder)
        isOpaque = false
    }

    /// The number of components (from the data source).
    open var numberOfComponents: Int { max(0, dataSource?.numberOfComponents(in: self) ?? 0) }

    /// The number of rows in `component` (0 for a component that does not exist).
    open func numberOfRows(inComponent component: Int) -> Int {
        guard (0..<numberOfComponents).contains(component) else { return 0 }
        return max(0, dataSource?.pickerView(self, numberOfRowsInComponent: component) ?? 0)
    }

    /// Asks the data source again; selections are clamped to the new row counts.
    open func reloadAllComponents() {
        let count = numberOfComponents
        selections = (0..<count).map { c in
            min(c < selections.count ? selections[c] : 0, max(0, numberOfRows(inComponent: c) - 1))
        }
        setNeedsDisplay()
    }

    /// Asks the data source again for one component.
    open func reloadComponent(_ component: Int) { reloadAllComponents() }

    /// Selects `row` in `component` (clamped to the rows; ignored for a component that does not exist); no
    /// delegate call. `animated` is accepted.
    open func selectRow(_ row: Int, inComponent component: Int, animated: Bool) {
        if selections.count != numberOfComponents { reloadAllComponents() }
        guard selections.indices.contains(component) else { return }
        selections[component] = min(max(0, row), max(0, numberOfRows(inComponent: component) - 1))
        setNeedsDisplay()
    }

    /// The selected row of `component`, or -1 when it has no rows or does not exist.
    open func selectedRow(inComponent component: Int) -> Int {
        if selections.count != numberOfComponents { reloadAllComponents() }
        guard selections.indices.contains(component), numberOfRows(inComponent: component) > 0 else { return -1 }
        return selections[component]
    }

    /// The row height of `component`, points.
    open func rowSize(forComponent component: Int) -> CGSize {
        CGSize(width: width(of: component), height: rowHeight(of: component))
    }

    private func rowHeight(of component: Int) -> CGFloat {
        let h = delegate?.pickerView(self, rowHeightForComponent: component) ?? 32
        return h.isFinite && h > 0 ? h : 32
    }

    private func width(of component: Int) -> CGFloat {
        let w =
            delegate?.pickerView(self, widthForComponent: component)
            ?? bounds.width / CGFloat(max(1, numberOfComponents))
        return w.isFinite && w > 0 ? w : 0
    }

    /// The components' left edges, centred as a group.
    private var componentFrames: [CGRect] {
        let widths = (0..<numberOfComponents).map(width(of:))
        var x = bounds.midX - widths.reduce(0, +) / 2
        return widths.map { w in
            defer { x += w }
            return CGRect(x: x, y: 0, width: w, height: bounds.height)
        }
    }

    /// No natural width; 216 points high.
    open override var intrinsicContentSize: CGSize { CGSize(width: UIView.noIntrinsicMetric, height: 216) }

    // MARK: Touches

    /// Starts following a finger on a wheel.
    open func touchesBegan(_ touches: Set<UITouch>, with event: UIEvent?) {
        guard touch == nil, let first = touches.first else { return }
        if selections.count != numberOfComponents { reloadAllComponents() }
        let p = first.location(in: self)
        guard let c = componentFrames.firstIndex(where: { $0.minX <= p.x && p.x < $0.maxX }) else { return }
        touch = first
        touchStart = p
        dragComponent = c
        dragShift = 0
        moved = false
    }

    /// Turns the wheel with the finger.
    open func touchesMoved(_ touches: Set<UITouch>, with event: UIEvent?) {
        guard let touch, touches.contains(touch), dragComponent != nil else { return }
        let p = touch.location(in: self)
        if abs(p.y - touchStart.y) > 4 { moved = true }
        dragShift = p.y - touchStart.y
        setNeedsDisplay()
    }

    /// Settles the wheel on the nearest row (a drag) or the tapped row (a tap).
    open func touchesEnded(_ touches: Set<UITouch>, with event: UIEvent?) {
        guard let touch, touches.contains(touch), let c = dragComponent else { return }
        let h = rowHeight(of: c)
        let steps: Int
        if moved {
            steps = -Int((dragShift / h).rounded())
        } else {
            steps = Int(((touch.location(in: self).y - bounds.midY) / h).rounded())
        }
        finishTouch()
        let rows = numberOfRows(inComponent: c)
        guard rows > 0 else { return }
        let target = min(max(0, selections[c] + steps), rows - 1)
        guard target != selections[c] else { return }
        selections[c] = target
        delegate?.pickerView(self, didSelectRow: target, inComponent: c)
    }

    /// Puts the wheel back without selecting.
    open func touchesCancelled(_ touches: Set<UITouch>, with event: UIEvent?) {
        guard let touch, touches.contains(touch) else { return }
        finishTouch()
    }

    private func finishTouch() {
        touch = nil
        dragComponent = nil
        dragShift = 0
        setNeedsDisplay()
    }

    // MARK: Drawing

    /// Draws the selection band and each wheel's rows.
    open override func draw(_ rect: CGRect) {
        guard let context = UIGraphicsGetCurrentContext() else { return }
        if selections.count != numberOfComponents { reloadAllComponents() }
        let frames = componentFrames
        let bandHeight = frames.indices.map(rowHeight(of:)).max() ?? 32
        UIColor.control(light: .lightTertiaryFill, dark: .darkTertiaryFill).setFill()
        UIBezierPath(
            roundedRect: CGRect(
                x: 8, y: bounds.midY - bandHeight / 2, width: max(0, bounds.width - 16), height: bandHeight),
            cornerRadius: 8
        ).fill()
        let font = UIFont.systemFont(ofSize: 21)
        for (c, frame) in frames.enumerated() {
            let h = rowHeight(of: c)
            let shift = dragComponent == c ? dragShift : 0
            let rows = numberOfRows(inComponent: c)
            context.saveGState()
            context.clip(to: frame)
            for row in 0..<rows {
                let y = bounds.midY + CGFloat(row - selections[c]) * h + shift
                guard y > -h, y < bounds.height + h else { continue }
                let title = delegate?.pickerView(self, titleForRow: row, forComponent: c) ?? "?"
                let distance = min(1, abs(y - bounds.midY) / (bounds.height / 2))
                let attrs: [NSAttributedString.Key: Any] = [
                    .font: font, .foregroundColor: UIColor(white: 0, alpha: 1 - 0.7 * distance),
                ]
                let size = title.size(withAttributes: attrs)
                title.draw(at: CGPoint(x: frame.midX - size.width / 2, y: y - size.height / 2), withAttributes: attrs)
            }
            context.restoreGState()
        }
    }
}
