import Foundation

/// The base of the haptic feedback generators, as UIKit's `UIFeedbackGenerator`.
///
/// Linux machines have no Taptic Engine: every generator method is a documented no-op in Waymark, so iOS code that
/// gives feedback compiles and runs unchanged and nothing is felt.
/// - Thread rules: main actor only, as on iOS.
@preconcurrency @MainActor open class UIFeedbackGenerator {
    /// Creates a generator.
    public init() {}

    /// Readies the hardware for feedback soon. Does nothing on Linux.
    open func prepare() {}
}

/// Feedback for a physical impact, as UIKit's `UIImpactFeedbackGenerator` (no haptics on Linux: its methods do
/// nothing).
@preconcurrency @MainActor open class UIImpactFeedbackGenerator: UIFeedbackGenerator {
    /// The mass of the colliding objects, as UIKit's `UIImpactFeedbackGenerator.FeedbackStyle`.
    public enum FeedbackStyle: Int, Sendable {
        /// A light impact.
        case light = 0
        /// A medium impact.
        case medium
        /// A heavy impact.
        case heavy
        /// A soft, flexible impact.
        case soft
        /// A hard, rigid impact.
        case rigid
    }

    /// The style the generator was created with.
    public let style: FeedbackStyle

    /// Creates a generator of `style`.
    public init(style: FeedbackStyle) {
        self.style = style
        super.init()
    }

    /// Creates a `.medium` generator.
    public override convenience init() { self.init(style: .medium) }

    /// Gives an impact. Does nothing on Linux.
    open func impactOccurred() {}

    /// Gives an impact of `intensity` (0…1). Does nothing on Linux.
    open func impactOccurred(intensity: CGFloat) {}
}

/// Feedback for a changed selection, as UIKit's `UISelectionFeedbackGenerator` (no haptics on Linux: its methods
/// do nothing).
@preconcurrency @MainActor open class UISelectionFeedbackGenerator: UIFeedbackGenerator {
    /// Tells the user the selection changed. Does nothing on Linux.
    open func selectionChanged() {}
}

/// Feedback for a task's outcome, as UIKit's `UINotificationFeedbackGenerator` (no haptics on Linux: its methods do
/// nothing).
@preconcurrency @MainActor open class UINotificationFeedbackGenerator: UIFeedbackGenerator {
    /// A task's outcome, as UIKit's `UINotificationFeedbackGenerator.FeedbackType`.
    public enum FeedbackType: Int, Sendable {
        /// The task succeeded.
        case success = 0
        /// The task produced a warning.
        case warning
        /// The task failed.
        case error
    }

    /// Tells the user a task ended with `notificationType`. Does nothing on Linux.
    open func notificationOccurred(_ notificationType: FeedbackType) {}
}
