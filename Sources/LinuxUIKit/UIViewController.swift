import Foundation

/// Manages a view, loading it on first use, as UIKit's `UIViewController`.
///
/// Reading ``view`` the first time calls ``loadView()`` (which subclasses override to install their own root view,
/// as the Maps samples do with a map view) and then ``viewDidLoad()``. As a window's `rootViewController` its view
/// fills the window and the window calls the appearance, layout and size-transition methods (see ``UIWindow``).
@MainActor open class UIViewController {
    private var loadedView: UIView?
    private var loading = false

    /// A title for navigation UI; stored only. Defaults to nil.
    open var title: String?

    /// Creates a controller; nib names and bundles are ignored on Linux.
    public init(nibName nibNameOrNil: String?, bundle nibBundleOrNil: Bundle?) {}

    /// Creates a controller.
    public convenience init() { self.init(nibName: nil, bundle: nil) }

    /// Creates a controller (archives are not supported on Linux; `coder` is ignored).
    public required init?(coder: NSCoder) {}

    /// The root view, loaded on first access through ``loadView()`` and ``viewDidLoad()``. Setting it replaces the
    /// root view without calling either.
    open var view: UIView! {
        get {
            loadViewIfNeeded()
            return loadedView
        }
        set {
            loadedView?.owningViewController = nil
            loadedView = newValue
            newValue?.owningViewController = self
        }
    }

    /// The root view if loaded, else nil (never loads it).
    public var viewIfLoaded: UIView? { loadedView }

    /// True once the root view exists.
    public var isViewLoaded: Bool { loadedView != nil }

    /// Loads the root view now if it is not loaded (``loadView()`` then ``viewDidLoad()``).
    open func loadViewIfNeeded() {
        guard loadedView == nil, !loading else { return }
        loading = true
        loadView()
        if loadedView == nil { loadedView = UIView(frame: UIScreen.main.bounds) }
        loadedView?.owningViewController = self
        loading = false
        viewDidLoad()
    }

    /// Creates the root view. The default makes a plain view the size of ``UIScreen/bounds``; overrides assign
    /// ``view`` and must not call super.
    open func loadView() {
        loadedView = UIView(frame: UIScreen.main.bounds)
    }

    /// Called once after the root view is loaded. The default does nothing.
    open func viewDidLoad() {}
    /// Called by the window before the view is first shown (`makeKeyAndVisible()`). The default does nothing.
    open func viewWillAppear(_ animated: Bool) {}
    /// Called by the window host after the first frame with the view was shown. The default does nothing.
    open func viewDidAppear(_ animated: Bool) {}
    /// Hook for hosts before hiding the view. The default does nothing.
    open func viewWillDisappear(_ animated: Bool) {}
    /// Hook for hosts after hiding the view. The default does nothing.
    open func viewDidDisappear(_ animated: Bool) {}
    /// Called before the root view lays out its subviews (each layout pass that lays it out). The default does
    /// nothing.
    open func viewWillLayoutSubviews() {}
    /// Called after the root view laid out its subviews. The default does nothing.
    open func viewDidLayoutSubviews() {}
    /// Called in the update-constraints pass when the root view asked for it (`setNeedsUpdateConstraints()`),
    /// after the view's own `updateConstraints()`. Override to add or change constraints; UIKit asks overrides to
    /// call super last. The default does nothing.
    open func updateViewConstraints() {}

    /// Called by the window before its size changes to `size` (points); `coordinator` runs blocks once the new size
    /// is in place. The default does nothing.
    open func viewWillTransition(to size: CGSize, with coordinator: any UIViewControllerTransitionCoordinator) {}
}
