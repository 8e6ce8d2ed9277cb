import Foundation
import Synchronization

// Key-value observation for Waymark's observable objects (Waymark's own). swift-corelibs-foundation has no KVO, so
// these types have the names and shape of Foundation's (`NSKeyValueObservation`, `NSKeyValueObservingOptions`,
// `NSKeyValueObservedChange`) and iOS code such as
// `observation = mapView.observe(\.myLocation, options: [.new]) { mapView, change in … }` compiles unchanged. Only the
// properties a type documents as observable notify (for `GMSMapView`: `myLocation`, `camera`, `selectedMarker`).

/// What an observation reports, as Foundation's `NSKeyValueObservingOptions`.
public struct NSKeyValueObservingOptions: OptionSet, Hashable, Sendable {
    /// The option bits (Foundation's values).
    public let rawValue: UInt
    /// Creates options from bits.
    public init(rawValue: UInt) { self.rawValue = rawValue }
    /// Report the new value in `newValue`.
    public static let new = NSKeyValueObservingOptions(rawValue: 0x01)
    /// Report the old value in `oldValue`.
    public static let old = NSKeyValueObservingOptions(rawValue: 0x02)
    /// Call the handler once at once, with the current value.
    public static let initial = NSKeyValueObservingOptions(rawValue: 0x04)
    /// Also call the handler before each change (`isPrior` true); Waymark's observers notice changes after they
    /// happen, so prior calls are not made.
    public static let prior = NSKeyValueObservingOptions(rawValue: 0x08)
}

/// The kind of change, as Foundation's `NSKeyValueChange`.
public enum NSKeyValueChange: UInt, Sendable {
    /// The value was set.
    case setting = 1
    /// Elements were inserted (collections; not reported here).
    case insertion = 2
    /// Elements were removed (not reported here).
    case removal = 3
    /// Elements were replaced (not reported here).
    case replacement = 4
}

/// One change as handed to an observation's handler, as Foundation's `NSKeyValueObservedChange`.
public struct NSKeyValueObservedChange<Value> {
    /// Always `.setting`.
    public let kind: NSKeyValueChange
    /// The new value when `.new` was asked for, else nil.
    public let newValue: Value?
    /// The old value when `.old` was asked for (and there was one), else nil.
    public let oldValue: Value?
    /// Changed indexes of collections: always nil.
    public let indexes: IndexSet?
    /// Whether this call comes before the change: always false.
    public let isPrior: Bool
}

/// An observation in progress, as Foundation's `NSKeyValueObservation`: keep it while you want changes; it stops
/// when invalidated or released.
/// - Thread rules: any thread, as Foundation's (a view controller's `deinit` may call ``invalidate()``). The handler
///   runs on the main actor; once ``invalidate()`` returns it is not called again, on whichever thread that was.
public final class NSKeyValueObservation: @unchecked Sendable {
    /// Set once by ``invalidate()``; the observer reads it before each call of the handler.
    package let stopped = Atomic<Bool>(false)
    /// What removes the observer from its object, on the main actor; taken by the first ``invalidate()``.
    private let onInvalidate: Mutex<(@MainActor @Sendable () -> Void)?>

    init(onInvalidate: @escaping @MainActor @Sendable () -> Void) { self.onInvalidate = Mutex(onInvalidate) }

    /// Stops the observation; the handler is not called again. Calling it again does nothing. Any thread: off the
    /// main actor the observer's bookkeeping is removed on the main actor shortly after
    /// (`UIApplication.deliverOnMainActor`).
    public func invalidate() {
        stopped.store(true, ordering: .sequentiallyConsistent)
        guard
            let body = onInvalidate.withLock({ body -> (@MainActor @Sendable () -> Void)? in
                defer { body = nil }
                return body
            })
        else { return }
        if isOnMainActor() {
            MainActor.assumeIsolated { body() }
        } else {
            UIApplication.deliverOnMainActor { body() }
        }
    }

    deinit {
        invalidate()
    }
}

/// The observers of one object (Waymark's own plumbing behind `observe(_:options:changeHandler:)`): each remembers
/// the value it last saw; ``check(_:)`` compares and calls the handlers of those that changed. The object calls
/// `check` wherever an observable property may have changed (setters, its frame tick); checking twice reports once.
/// Values are compared as `AnyHashable` when they are hashable (Foundation objects compare with `isEqual`), else by
/// identity for objects; other values always count as changed.
@MainActor package final class KeyValueObservers<Subject: AnyObject> {
    private final class Entry {
        let check: (Subject) -> Void
        /// The observation the entry serves: once it is invalidated or gone, the handler is not called.
        weak var observation: NSKeyValueObservation?
        init(check: @escaping (Subject) -> Void) { self.check = check }
    }

    private var entries: [ObjectIdentifier: Entry] = [:]
    private var order: [ObjectIdentifier] = []

    package init() {}

    /// Starts observing `keyPath` of `subject`; `.initial` calls the handler at once.
    package func observe<Value>(
        _ subject: Subject, _ keyPath: KeyPath<Subject, Value>, options: NSKeyValueObservingOptions,
        changeHandler: @escaping @MainActor (Subject, NSKeyValueObservedChange<Value>) -> Void
    ) -> NSKeyValueObservation {
        var last = subject[keyPath: keyPath]
        if options.contains(.initial) {
            changeHandler(
                subject,
                NSKeyValueObservedChange(
                    kind: .setting, newValue: options.contains(.new) ? last : nil, oldValue: nil, indexes: nil,
                    isPrior: false))
        }
        let entry = Entry { subject in
            let value = subject[keyPath: keyPath]
            guard !isSameValue(value, last) else { return }
            let old = last
            last = value
            changeHandler(
                subject,
                NSKeyValueObservedChange(
                    kind: .setting, newValue: options.contains(.new) ? value : nil,
                    oldValue: options.contains(.old) ? old : nil, indexes: nil, isPrior: false))
        }
        let id = ObjectIdentifier(entry)
        entries[id] = entry
        order.append(id)
        let observation = NSKeyValueObservation { [weak self] in
            self?.entries[id] = nil
            self?.order.removeAll { $0 == id }
        }
        entry.observation = observation
        return observation
    }

    /// Whether anything observes.
    package var isEmpty: Bool { entries.isEmpty }

    /// Compares every observed value with the one last seen and calls the handlers of those that changed, in the
    /// order the observations were made.
    package func check(_ subject: Subject) {
        guard !entries.isEmpty else { return }
        for id in order {
            guard let entry = entries[id], let observation = entry.observation,
                !observation.stopped.load(ordering: .sequentiallyConsistent)
            else { continue }
            entry.check(subject)
        }
    }
}

private func isSameValue<Value>(_ a: Value, _ b: Value) -> Bool {
    if let a = a as? AnyHashable, let b = b as? AnyHashable { return a == b }
    let ma = Mirror(reflecting: a)
    if ma.displayStyle == .optional {
        let ca = ma.children.first?.value
        let cb = Mirror(reflecting: b).children.first?.value
        if ca == nil || cb == nil { return ca == nil && cb == nil }
    }
    if type(of: a) is AnyClass, let oa = a as AnyObject?, let ob = b as AnyObject? { return oa === ob }
    return false
}
