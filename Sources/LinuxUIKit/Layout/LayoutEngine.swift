import Cassowary
import Foundation

/// The solver's linear expression (Foundation also has an `Expression`).
typealias Expression = Cassowary.Expression

/// The order in which a layout pass adds user constraints to the solver: required ones first, then by descending
/// priority, then in activation order (earlier constraints win conflicts).
private struct UserConstraintOrder: Comparable {
    let required: Bool
    let priority: Float
    let sequence: Int
    /// The constraint's index in the pass's list.
    let index: Int

    static func < (a: UserConstraintOrder, b: UserConstraintOrder) -> Bool {
        if a.required != b.required { return a.required }
        if a.priority != b.priority { return a.priority > b.priority }
        return a.sequence < b.sequence
    }
}

/// Solves the constraints of one view tree (Waymark's Auto Layout engine, after UIKit's): held by the tree's root
/// view (a window, or the top of a detached tree), built from every active constraint installed in the tree, the
/// frames of views that translate their autoresizing masks, content sizes, and the safe-area and margins guides.
///
/// Variables are each item's left, top, width and height in the root's bounds space. Adding or removing
/// constraints (or views) rebuilds the solver on the next layout pass; changing a constraint's constant, a
/// fixed frame, a content size or a guide's insets re-solves incrementally (`Solver.updateConstant`). After
/// solving, the frames of views with `translatesAutoresizingMaskIntoConstraints == false` are written (as
/// `bounds` size and `center`, so transforms survive and animation blocks animate them), rounded to the screen's
/// pixels.
/// - Thread rules: main actor only.
@MainActor final class LayoutEngine {
    /// A constraint the engine made itself, kept for updates and the conflict log.
    private struct Internal {
        enum Kind {
            case autoresizing
            case contentSize
            case guide
        }
        let kind: Kind
        let constraint: Constraint
        weak var item: AnyObject?
        let attribute: NSLayoutConstraint.Attribute
        var value: Double
        let note: String
    }

    private struct Installed {
        let constraint: NSLayoutConstraint
        let solverConstraint: Constraint
        /// The expression constant without the layout constraint's `constant`.
        let base: Double
    }

    private struct FixedFrame {
        weak var view: UIView?
        var rect: CGRect
        var constraints: [Int]
    }

    private struct ContentSize {
        weak var view: UIView?
        var size: CGSize
        var constraints: [Int]
    }

    private struct GuideInsets {
        let guide: UILayoutGuide
        var insets: UIEdgeInsets
        var constraints: [Int]
    }

    /// The root view whose tree this engine solves.
    private(set) weak var root: UIView?
    private var solver = Solver()
    private var internals: [Internal] = []
    private var installed: [ObjectIdentifier: Installed] = [:]
    private var fixedFrames: [FixedFrame] = []
    private var contentSizes: [ObjectIdentifier: ContentSize] = [:]
    private var guideInsets: [GuideInsets] = []
    /// Views whose frames the engine writes, parents first.
    private var managed: [UIView] = []
    private var items: Set<ObjectIdentifier> = []
    /// Required constraints left out because they conflicted.
    private(set) var broken: [NSLayoutConstraint] = []

    private var structureDirty = true
    private var pendingConstants: [NSLayoutConstraint] = []
    private var invalidContentSizes: [UIView] = []
    private var needsUpdateConstraintsPass = false
    /// For `systemLayoutSizeFitting`: the root's size is solved towards `size` at the priorities instead of fixed.
    private let fitting: (size: CGSize, horizontal: UILayoutPriority, vertical: UILayoutPriority)?

    private static var nextSequence = 0

    init(root: UIView, fitting: (size: CGSize, horizontal: UILayoutPriority, vertical: UILayoutPriority)? = nil) {
        self.root = root
        self.fitting = fitting
    }

    // MARK: Entry points

    /// The topmost ancestor of `view` (the view itself when it has no superview).
    static func treeRoot(of view: UIView) -> UIView {
        var v = view
        while let parent = v.superview { v = parent }
        return v
    }

    /// The engine solving `view`'s tree, if the tree has one.
    static func engine(of view: UIView) -> LayoutEngine? { treeRoot(of: view).autoLayoutStorage?.engine }

    /// The engine of `view`'s tree, made when missing.
    static func makeEngine(for view: UIView) -> LayoutEngine {
        let root = treeRoot(of: view)
        if let engine = root.autoLayoutStorage?.engine { return engine }
        let engine = LayoutEngine(root: root)
        root.autoLayout.engine = engine
        return engine
    }

    /// Marks the tree of `view` for a rebuild on the next layout pass.
    static func structureDidChange(at view: UIView) {
        let engine = makeEngine(for: view)
        engine.structureDirty = true
        engine.root?.setNeedsLayout()
    }

    /// Installs `constraint` on its items' nearest common ancestor.
    static func install(_ constraint: NSLayoutConstraint) {
        guard constraint.owner == nil else { return }
        guard let first = constraint.firstLayoutItem, let firstView = first.hostView else {
            AutoLayoutLog.write("Unable to activate constraint \(constraint): its first item is not a view in a tree.")
            return
        }
        var owner: UIView? = firstView
        if let secondItem = constraint.secondItem {
            guard let second = NSLayoutConstraint.layoutItem(secondItem), let secondView = second.hostView else {
                AutoLayoutLog.write(
                    "Unable to activate constraint \(constraint): its second item is not a view or layout guide in a tree."
                )
                return
            }
            owner = nearestCommonAncestor(firstView, secondView)
        }
        guard let owner else {
            AutoLayoutLog.write(
                "Unable to activate constraint with anchors \(NSLayoutConstraint.describe(constraint.firstItem, constraint.firstAttribute)) and "
                    + "\(NSLayoutConstraint.describe(constraint.secondItem, constraint.secondAttribute)) because they have no common "
                    + "ancestor. Does the constraint or its anchors reference items in different view hierarchies? "
                    + "That's illegal.")
            return
        }
        nextSequence += 1
        constraint.sequence = nextSequence
        constraint.owner = owner
        owner.autoLayout.appendConstraint(constraint)
        structureDidChange(at: owner)
    }

    /// Removes `constraint` from its owner (O(1): the constraint knows its slot in the owner's list).
    static func uninstall(_ constraint: NSLayoutConstraint) {
        guard let owner = constraint.owner else { return }
        owner.autoLayoutStorage?.removeConstraint(constraint)
        constraint.owner = nil
        constraint.engine = nil
        structureDidChange(at: owner)
    }

    /// The deepest view that is `a` or an ancestor of it and also `b` or an ancestor of it; nil for different
    /// trees. Walks up from the deeper of the two (no allocation: activation calls it for every constraint).
    static func nearestCommonAncestor(_ a: UIView, _ b: UIView) -> UIView? {
        if a === b { return a }
        let parentA = a.superview
        let parentB = b.superview
        if parentA === b { return b }
        if parentB === a { return a }
        if let parentA, parentA === parentB { return parentA }
        func depth(_ view: UIView) -> Int {
            var count = 0
            var v = view.superview
            while let current = v {
                count += 1
                v = current.superview
            }
            return count
        }
        var x: UIView? = a
        var y: UIView? = b
        var depthA = depth(a)
        var depthB = depth(b)
        while depthA > depthB, let current = x {
            x = current.superview
            depthA -= 1
        }
        while depthB > depthA, let current = y {
            y = current.superview
            depthB -= 1
        }
        while let p = x, let q = y {
            if p === q { return p }
            x = p.superview
            y = q.superview
        }
        return nil
    }

    /// A view was added to `parent`'s tree: the tree's engine rebuilds when either tree had constraints.
    static func subviewAdded(_ view: UIView, to parent: UIView) {
        let hadEngine = view.autoLayoutStorage?.engine != nil
        view.autoLayoutStorage?.engine = nil
        if hadEngine || engine(of: parent) != nil || subtreeHasConstraints(view) {
            structureDidChange(at: parent)
            // Views of the arriving tree may have asked for the update-constraints pass.
            makeEngine(for: parent).needsUpdateConstraintsPass = true
        }
    }

    /// `view` is leaving `parent`: constraints held by `parent` and its ancestors that involve the leaving subtree
    /// are deactivated, as UIKit does.
    static func subviewWillBeRemoved(_ view: UIView, from parent: UIView) {
        guard engine(of: parent) != nil else { return }
        var v: UIView? = parent
        while let current = v {
            for c in current.autoLayoutStorage?.constraints ?? [] where involves(c, subtree: view) {
                c.isActive = false
            }
            v = current.superview
        }
        structureDidChange(at: parent)
    }

    /// After `view` left its tree: it roots its own engine when its subtree holds constraints.
    static func subviewRemoved(_ view: UIView) {
        if subtreeHasConstraints(view) { structureDidChange(at: view) }
    }

    private static func involves(_ c: NSLayoutConstraint, subtree: UIView) -> Bool {
        for item in [c.firstLayoutItem, c.secondLayoutItem] {
            if let host = item?.hostView, host.isDescendant(of: subtree) { return true }
        }
        return false
    }

    /// Whether any view in `view`'s subtree holds constraints.
    static func subtreeHasConstraints(_ view: UIView) -> Bool {
        if let state = view.autoLayoutStorage, state.hasConstraints { return true }
        return view.subviews.contains { subtreeHasConstraints($0) }
    }

    /// Whether the next layout pass has engine work even when no view asked for layout.
    var hasPendingWork: Bool {
        structureDirty || !pendingConstants.isEmpty || !invalidContentSizes.isEmpty || needsUpdateConstraintsPass
    }

    /// Runs the update-constraints pass, then rebuilds or re-solves what changed, and writes the frames.
    static func update(from view: UIView) {
        guard let engine = engine(of: view) else { return }
        engine.update()
    }

    /// The layout pass's hook (`UIView.layoutIfNeeded()`): updates when the view asked for layout or the engine
    /// has work.
    static func updateIfNeeded(from view: UIView, requested: Bool) {
        guard let engine = engine(of: view), requested || engine.hasPendingWork else { return }
        engine.update()
    }

    static func constraintsNeedUpdate(at view: UIView) {
        let engine = makeEngine(for: view)
        engine.needsUpdateConstraintsPass = true
        engine.root?.setNeedsLayout()
    }

    func constantDidChange(_ constraint: NSLayoutConstraint) {
        pendingConstants.append(constraint)
        root?.setNeedsLayout()
    }

    func contentSizeDidChange(_ view: UIView) {
        invalidContentSizes.append(view)
        root?.setNeedsLayout()
    }

    func contains(_ item: AnyObject) -> Bool { items.contains(ObjectIdentifier(item)) }

    // MARK: Passes

    /// Calls `updateConstraints()` on the views that asked (deepest first), and their controllers'
    /// `updateViewConstraints()`.
    func runUpdateConstraintsPass() {
        guard needsUpdateConstraintsPass, let root else { return }
        needsUpdateConstraintsPass = false
        var flagged: [UIView] = []
        func walk(_ v: UIView) {
            for sub in v.subviews { walk(sub) }
            if v.autoLayoutStorage?.needsUpdateConstraints == true { flagged.append(v) }
        }
        walk(root)
        for v in flagged {
            v.autoLayoutStorage?.needsUpdateConstraints = false
            v.updateConstraints()
            v.owningViewController?.updateViewConstraints()
        }
    }

    func update() {
        runUpdateConstraintsPass()
        if structureDirty {
            rebuild()
        } else if !syncInputs() {
            return
        }
        writeFrames()
    }

    /// Re-reads the inputs that can change without a rebuild; true when something changed.
    private func syncInputs() -> Bool {
        var changed = false
        for c in pendingConstants {
            guard let record = installed[ObjectIdentifier(c)], c.owner != nil else { continue }
            do {
                try solver.updateConstant(of: record.solverConstraint, to: record.base - Double(c.constant))
                changed = true
            } catch {
                breakConstraint(c, solverConstraint: record.solverConstraint)
            }
        }
        pendingConstants = []
        for i in fixedFrames.indices {
            guard let view = fixedFrames[i].view else { continue }
            let rect = fixedRect(of: view)
            guard rect != fixedFrames[i].rect else { continue }
            fixedFrames[i].rect = rect
            let values =
                view === root && fitting == nil
                ? [0, 0, rect.width, rect.height] : [rect.minX, rect.minY, rect.width, rect.height]
            for (k, index) in fixedFrames[i].constraints.enumerated() { setInternal(index, to: values[k]) }
            changed = true
        }
        for i in guideInsets.indices {
            guard let view = guideInsets[i].guide.owningView else { continue }
            let insets = Self.insets(of: guideInsets[i].guide, in: view)
            guard insets != guideInsets[i].insets else { continue }
            guideInsets[i].insets = insets
            let values = [insets.left, insets.top, -(insets.left + insets.right), -(insets.top + insets.bottom)]
            for (k, index) in guideInsets[i].constraints.enumerated() { setInternal(index, to: values[k]) }
            changed = true
        }
        for view in invalidContentSizes {
            guard var record = contentSizes[ObjectIdentifier(view)] else {
                if contains(view), !view.translatesAutoresizingMaskIntoConstraints { structureDirty = true }
                continue
            }
            let size = view.intrinsicContentSize
            guard size != record.size else { continue }
            if (size.width >= 0) != (record.size.width >= 0) || (size.height >= 0) != (record.size.height >= 0) {
                structureDirty = true
                continue
            }
            for index in record.constraints {
                let horizontal = internals[index].attribute == .width
                setInternal(index, to: horizontal ? size.width : size.height)
            }
            record.size = size
            contentSizes[ObjectIdentifier(view)] = record
            changed = true
        }
        invalidContentSizes = []
        if structureDirty {
            rebuild()
            return true
        }
        return changed
    }

    /// Changes the value of an internal `variable == value` style constraint.
    private func setInternal(_ index: Int, to value: Double) {
        let old = internals[index].value
        guard old != value else { return }
        do {
            try solver.updateConstant(of: internals[index].constraint, to: -value)
            internals[index].value = value
        } catch {
            // A required fixed frame or inset that now conflicts: rebuild, which reports the conflict.
            structureDirty = true
        }
    }

    // MARK: Building

    private func rebuild() {
        structureDirty = false
        pendingConstants = []
        invalidContentSizes = []
        solver = Solver()
        internals = []
        installed = [:]
        fixedFrames = []
        contentSizes = [:]
        guideInsets = []
        managed = []
        items = []
        broken = []
        guard let root else { return }

        var all: [NSLayoutConstraint] = []
        var order: [UIView] = []
        func walk(_ v: UIView) {
            order.append(v)
            if let state = v.autoLayoutStorage {
                for case let c? in state.constraintSlots { all.append(c) }
            }
            for sub in v.subviews { walk(sub) }
        }
        walk(root)

        var guides: [UILayoutGuide] = []
        func addView(_ view: UIView) {
            var v: UIView? = view
            while let current = v, items.insert(ObjectIdentifier(current)).inserted, current !== root {
                v = current.superview
            }
        }
        /// Registers `item` (its view and the view's ancestors, a guide among the guides); false when it is not
        /// in this tree.
        func addItem(_ item: any LayoutItem) -> Bool {
            guard let host = item.hostView, host.isDescendant(of: root) else { return false }
            if let guide = item as? UILayoutGuide, items.insert(ObjectIdentifier(guide)).inserted {
                guides.append(guide)
            }
            addView(host)
            return true
        }
        // Sort keys (required first, then higher priority, then activation order), so the sort's comparison reads
        // no main-actor state.
        var usable: [UserConstraintOrder] = []
        usable.reserveCapacity(all.count)
        for (index, c) in all.enumerated() {
            let first = c.firstLayoutItem
            var ok = first != nil
            if let first, !addItem(first) { ok = false }
            if let second = c.secondLayoutItem, !addItem(second) { ok = false }
            if ok {
                usable.append(
                    UserConstraintOrder(
                        required: c.priority >= .required, priority: c.priority.rawValue, sequence: c.sequence,
                        index: index))
            }
        }
        if fitting != nil { addView(root) }

        for view in order where items.contains(ObjectIdentifier(view)) {
            let vars = view.layoutVariables
            if view === root {
                if let fitting {
                    for v in [vars.left, vars.top] { addInternal(.autoresizing, Expression(v), 0, view, .left, "fit") }
                    for (v, target, priority) in [
                        (vars.width, fitting.size.width, fitting.horizontal),
                        (vars.height, fitting.size.height, fitting.vertical),
                    ] {
                        let c = Constraint(
                            Expression(v), .equal, Expression(constant: target), strength: priority.strength)
                        try? solver.addConstraint(c)
                        try? solver.addConstraint(Constraint(Expression(v), .greaterThanOrEqual, 0))
                    }
                    if !view.translatesAutoresizingMaskIntoConstraints { addContentSize(view) }
                } else {
                    let rect = fixedRect(of: view)
                    let indices = [
                        addInternal(.autoresizing, Expression(vars.left), 0, view, .left, "minX"),
                        addInternal(.autoresizing, Expression(vars.top), 0, view, .top, "minY"),
                        addInternal(.autoresizing, Expression(vars.width), rect.width, view, .width, "width"),
                        addInternal(.autoresizing, Expression(vars.height), rect.height, view, .height, "height"),
                    ]
                    fixedFrames.append(FixedFrame(view: view, rect: rect, constraints: indices))
                }
            } else if let parent = view.superview {
                let p = parent.layoutVariables
                if let effect = parent as? UIVisualEffectView, effect.contentView === view,
                    view.translatesAutoresizingMaskIntoConstraints
                {
                    // An effect view's content view fills it (flexible width and height, as UIKit's autoresizing
                    // constraints): its content's constraints size the effect view.
                    addInternal(.autoresizing, vars.left - p.left, 0, view, .left, "minX")
                    addInternal(.autoresizing, vars.top - p.top, 0, view, .top, "minY")
                    addInternal(.autoresizing, vars.width - p.width, 0, view, .width, "width")
                    addInternal(.autoresizing, vars.height - p.height, 0, view, .height, "height")
                } else if view.translatesAutoresizingMaskIntoConstraints {
                    let rect = fixedRect(of: view)
                    let indices = [
                        addInternal(.autoresizing, vars.left - p.left, rect.minX, view, .left, "minX"),
                        addInternal(.autoresizing, vars.top - p.top, rect.minY, view, .top, "minY"),
                        addInternal(.autoresizing, Expression(vars.width), rect.width, view, .width, "width"),
                        addInternal(.autoresizing, Expression(vars.height), rect.height, view, .height, "height"),
                    ]
                    fixedFrames.append(FixedFrame(view: view, rect: rect, constraints: indices))
                } else {
                    managed.append(view)
                    addContentSize(view)
                }
            }
        }
        for guide in guides where guide.role != .custom {
            guard let view = guide.owningView else { continue }
            let g = guide.layoutVariables
            let v = view.layoutVariables
            let insets = Self.insets(of: guide, in: view)
            let indices = [
                addInternal(.guide, g.left - v.left, insets.left, guide, .left, "left"),
                addInternal(.guide, g.top - v.top, insets.top, guide, .top, "top"),
                addInternal(.guide, g.width - v.width, -(insets.left + insets.right), guide, .width, "width"),
                addInternal(.guide, g.height - v.height, -(insets.top + insets.bottom), guide, .height, "height"),
            ]
            guideInsets.append(GuideInsets(guide: guide, insets: insets, constraints: indices))
        }

        usable.sort()
        for key in usable { addUserConstraint(all[key.index]) }
    }

    /// Adds `expression == value` (required unless the kind says otherwise) and returns its index.
    @discardableResult
    private func addInternal(
        _ kind: Internal.Kind, _ expression: Expression, _ value: Double, _ item: AnyObject,
        _ attribute: NSLayoutConstraint.Attribute, _ note: String, relation: Relation = .equal,
        strength: Strength = .required
    ) -> Int {
        let c = Constraint(expression, relation, Expression(constant: value), strength: strength)
        do {
            try solver.addConstraint(c)
        } catch {
            AutoLayoutLog.write("could not add \(describeInternal(kind, item, attribute, value, note)): \(error)")
        }
        internals.append(
            Internal(kind: kind, constraint: c, item: item, attribute: attribute, value: value, note: note))
        return internals.count - 1
    }

    /// The content-size constraints of `view`: hugging (`size ≤ content`) and compression resistance
    /// (`size ≥ content`) per axis that has a content size.
    private func addContentSize(_ view: UIView) {
        let size = view.intrinsicContentSize
        let vars = view.layoutVariables
        let state = view.autoLayoutStorage
        var indices: [Int] = []
        for (axis, value, variable, attribute) in [
            (0, size.width, vars.width, NSLayoutConstraint.Attribute.width),
            (1, size.height, vars.height, NSLayoutConstraint.Attribute.height),
        ] where value >= 0 && value.isFinite {
            let hug = state?.hugging[axis] ?? .defaultLow
            let resist = state?.compressionResistance[axis] ?? .defaultHigh
            indices.append(
                addInternal(
                    .contentSize, Expression(variable), value, view, attribute,
                    "Hug:\(formatNumber(CGFloat(hug.rawValue)))",
                    relation: .lessThanOrEqual, strength: hug.strength))
            indices.append(
                addInternal(
                    .contentSize, Expression(variable), value, view, attribute,
                    "CompressionResistance:\(formatNumber(CGFloat(resist.rawValue)))", relation: .greaterThanOrEqual,
                    strength: resist.strength))
        }
        if !indices.isEmpty {
            contentSizes[ObjectIdentifier(view)] = ContentSize(view: view, size: size, constraints: indices)
        }
    }

    private func addUserConstraint(_ c: NSLayoutConstraint) {
        guard let first = c.firstLayoutItem else { return }
        let lhs = Self.expression(first, c.firstAttribute)
        var rhs = Expression(constant: 0)
        if let second = c.secondLayoutItem, c.secondAttribute != .notAnAttribute {
            rhs = Self.expression(second, c.secondAttribute) * Double(c.multiplier)
        }
        let base = lhs.constant - rhs.constant
        let relation: Relation =
            switch c.relation {
            case .lessThanOrEqual: .lessThanOrEqual
            case .equal: .equal
            case .greaterThanOrEqual: .greaterThanOrEqual
            }
        var expression = lhs - rhs
        expression.constant = base - Double(c.constant)
        let solverConstraint = Constraint(expression, relation, strength: c.priority.strength)
        if fitting == nil { c.engine = self }
        installed[ObjectIdentifier(c)] = Installed(constraint: c, solverConstraint: solverConstraint, base: base)
        do {
            try solver.addConstraint(solverConstraint)
        } catch {
            breakConstraint(c, solverConstraint: nil)
        }
    }

    /// The attribute as an expression of the item's variables (margins read now).
    static func expression(_ item: any LayoutItem, _ attribute: NSLayoutConstraint.Attribute) -> Expression {
        let v = item.layoutVariables
        let m = (item as? UIView)?.layoutMargins ?? .zero
        switch attribute {
        case .left, .leading: return Expression(v.left)
        case .right, .trailing: return v.left + v.width
        case .top, .firstBaseline: return Expression(v.top)
        case .bottom, .lastBaseline: return v.top + v.height
        case .width: return Expression(v.width)
        case .height: return Expression(v.height)
        case .centerX: return v.left + 0.5 * v.width
        case .centerY: return v.top + 0.5 * v.height
        case .leftMargin, .leadingMargin: return Expression(v.left) + Double(m.left)
        case .rightMargin, .trailingMargin: return v.left + v.width - Double(m.right)
        case .topMargin: return Expression(v.top) + Double(m.top)
        case .bottomMargin: return v.top + v.height - Double(m.bottom)
        case .centerXWithinMargins: return v.left + 0.5 * v.width + Double(m.left - m.right) / 2
        case .centerYWithinMargins: return v.top + 0.5 * v.height + Double(m.top - m.bottom) / 2
        case .notAnAttribute: return Expression(constant: 0)
        }
    }

    /// A view's frame relative to its superview's bounds space, as the engine reads fixed frames: from `center` and
    /// the bounds size (transforms do not count, as in UIKit).
    private func fixedRect(of view: UIView) -> CGRect {
        let size = view.bounds.size
        let origin = CGPoint(x: view.center.x - size.width / 2, y: view.center.y - size.height / 2)
        if view === root { return CGRect(origin: .zero, size: size) }
        let parentOrigin = view.superview?.bounds.origin ?? .zero
        return CGRect(
            x: origin.x - parentOrigin.x, y: origin.y - parentOrigin.y, width: size.width, height: size.height)
    }

    static func insets(of guide: UILayoutGuide, in view: UIView) -> UIEdgeInsets {
        let safe = view.safeAreaInsets
        guard guide.role == .margins else { return safe }
        let m = view.layoutMargins
        return UIEdgeInsets(
            top: safe.top + m.top, left: safe.left + m.left, bottom: safe.bottom + m.bottom,
            right: safe.right + m.right)
    }

    // MARK: Results

    /// The solved rectangle of an item in the root's space, edges rounded to the screen's pixels.
    private func rootRect(_ item: any LayoutItem) -> CGRect {
        let v = item.layoutVariables
        let scale = UIScreen.main.scale
        func snap(_ x: Double) -> CGFloat { CGFloat((x * Double(scale)).rounded() / Double(scale)) }
        let (l, t) = (solver.value(of: v.left), solver.value(of: v.top))
        let left = snap(l)
        let top = snap(t)
        let right = snap(l + solver.value(of: v.width))
        let bottom = snap(t + solver.value(of: v.height))
        return CGRect(x: left, y: top, width: max(0, right - left), height: max(0, bottom - top))
    }

    private func writeFrames() {
        guard fitting == nil else { return }
        for view in managed {
            guard let parent = view.superview else { continue }
            let r = rootRect(view)
            let p = rootRect(parent)
            let origin = parent.bounds.origin
            let frame = CGRect(
                x: r.minX - p.minX + origin.x, y: r.minY - p.minY + origin.y, width: r.width, height: r.height)
            if view.bounds.size != frame.size { view.bounds = CGRect(origin: view.bounds.origin, size: frame.size) }
            let center = CGPoint(x: frame.midX, y: frame.midY)
            if view.center != center { view.center = center }
        }
    }

    /// A guide's rectangle in `view`'s bounds space.
    func frame(of guide: UILayoutGuide, in view: UIView) -> CGRect {
        let g = rootRect(guide)
        let v = rootRect(view)
        return CGRect(
            x: g.minX - v.minX + view.bounds.minX, y: g.minY - v.minY + view.bounds.minY, width: g.width,
            height: g.height)
    }

    /// The solved size of the root (for `systemLayoutSizeFitting`).
    func solvedRootSize() -> CGSize {
        guard let root else { return .zero }
        update()
        let v = root.layoutVariables
        let scale = Double(UIScreen.main.scale)
        func snapUp(_ x: Double) -> CGFloat { CGFloat((x * scale - 1e-6).rounded(.up) / scale) }
        return CGSize(width: snapUp(solver.value(of: v.width)), height: snapUp(solver.value(of: v.height)))
    }

    // MARK: Conflicts

    private func breakConstraint(_ c: NSLayoutConstraint, solverConstraint: Constraint?) {
        if let solverConstraint, solver.hasConstraint(solverConstraint) {
            try? solver.removeConstraint(solverConstraint)
        }
        installed[ObjectIdentifier(c)] = nil
        broken.append(c)
        var related: [String] = []
        let horizontal = c.firstAttribute.isHorizontal
        let ids = Set([c.firstItem, c.secondItem].compactMap { $0.map(ObjectIdentifier.init) })
        for record in installed.values.sorted(by: { $0.constraint.sequence < $1.constraint.sequence })
        where record.constraint.priority >= .required && record.constraint.firstAttribute.isHorizontal == horizontal {
            let items = [record.constraint.firstItem, record.constraint.secondItem].compactMap { $0 }
            if items.contains(where: { ids.contains(ObjectIdentifier($0)) }) {
                related.append(record.constraint.description)
            }
        }
        for i in internals where i.constraint.strength.isRequired && i.attribute.isHorizontal == horizontal {
            if let item = i.item, ids.contains(ObjectIdentifier(item)) {
                related.append(describeInternal(i.kind, item, i.attribute, i.value, i.note))
            }
        }
        related.append(c.description)
        let list = related.map { "    \"\($0)\"" }.joined(separator: ",\n")
        AutoLayoutLog.write(
            """
            Unable to simultaneously satisfy constraints.
            \tProbably at least one of the constraints in the following list is one you don't want. 
            \tTry this: 
            \t\t(1) look at each constraint and try to figure out which you don't expect; 
            \t\t(2) find the code that added the unwanted constraint or constraints and fix it. 
            \t(Note: If you're seeing NSAutoresizingMaskLayoutConstraints that you don't understand, refer to the documentation for the UIView property translatesAutoresizingMaskIntoConstraints) 
            (
            \(list)
            )

            Will attempt to recover by breaking constraint 
            \(c.description)

            Make a symbolic breakpoint at UIViewAlertForUnsatisfiableConstraints to catch this in the debugger.
            """)
    }

    private func describeInternal(
        _ kind: Internal.Kind, _ item: AnyObject, _ attribute: NSLayoutConstraint.Attribute, _ value: Double,
        _ note: String
    ) -> String {
        let name = describeItem(item)
        switch kind {
        case .autoresizing:
            let attr = note == "minX" || note == "minY" ? note : attribute.name
            return "<NSAutoresizingMaskLayoutConstraint:\(name) h=--& v=--& \(name).\(attr) == "
                + "\(formatNumber(CGFloat(value)))   (active)>"
        case .contentSize:
            return "<NSContentSizeLayoutConstraint:\(name).\(attribute.name) == \(formatNumber(CGFloat(value))) "
                + "\(note)   (active)>"
        case .guide:
            return "<NSLayoutConstraint:\(name).\(attribute.name) == owner.\(attribute.name) "
                + "\(formatNumber(CGFloat(value)))   (active)>"
        }
    }
}
