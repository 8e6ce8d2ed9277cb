#!/usr/bin/env python3
"""The package graph matches the imports: every target imports exactly the package modules it declares.

Reads `swift package dump-package` (JSON on stdin, or runs it) and every Swift file of every target, and fails when
- a target imports a module of this package that it does not declare as a dependency, or
- a target declares a dependency on a library or system-library target that none of its files imports.

Executable targets are exempt from the second rule when a test target declares them: that edge only orders the build
(the test runs the built program). `BUILD_ONLY` lists the other edges that exist for the build alone, each with why.

Usage: scripts/dev/check_graph.py [PACKAGE_DIR]   (exit 0 clean, 1 with one line per mismatch)
"""

import json
import os
import re
import subprocess
import sys

# Edges declared for the build, not for an import; each needs its reason.
BUILD_ONLY = {
    # The empty module that satisfies swift-testing's cross-import overlay lookup for a module named UIKit.
    ("UIKit", "_Testing_UIKit"): "swift-testing looks up an overlay module for any module named UIKit",
    ("CoreGraphics", "_Testing_CoreGraphics"): "swift-testing looks up an overlay module for any module named CoreGraphics",
}

IMPORT = re.compile(
    r"^\s*(?:@[\w()]+\s+)*import\s+(?:(?:struct|class|enum|protocol|func|var|let|typealias)\s+)?([A-Za-z_][\w]*)",
    re.M,
)


def dump(package_dir):
    text = subprocess.run(
        ["swift", "package", "dump-package"], cwd=package_dir, check=True, capture_output=True, text=True
    ).stdout
    return json.loads(text)


def target_dir(package_dir, target):
    if target.get("path"):
        return os.path.join(package_dir, target["path"])
    base = "Tests" if target["type"] == "test" else "Sources"
    return os.path.join(package_dir, base, target["name"])


EXPORTED = re.compile(r"^\s*@_exported\s+import\s+([A-Za-z_][\w]*)", re.M)


def imports_of(folder, excluded, pattern=IMPORT):
    found = set()
    for root, dirs, files in os.walk(folder):
        dirs[:] = [d for d in dirs if os.path.join(root, d) not in excluded]
        for name in files:
            if name.endswith(".swift"):
                with open(os.path.join(root, name), encoding="utf-8") as handle:
                    found.update(pattern.findall(handle.read()))
    return found


def declared(target):
    names = set()
    for dep in target.get("dependencies", []):
        for kind in ("byName", "target", "product"):
            if kind in dep:
                names.add(dep[kind][0])
    return names


def check(package):
    package_dir = package["_dir"]
    targets = {t["name"]: t for t in package["targets"]}
    # A module's import name: the target name with '-' as '_' (executables such as map-viewer).
    module_of = {name.replace("-", "_"): name for name in targets}
    problems = []
    scanned = [t for t in package["targets"] if t["type"] not in ("system", "binary", "plugin", "macro")]
    folders = {}
    for target in scanned:
        folder = target_dir(package_dir, target)
        folders[target["name"]] = (folder, {os.path.join(folder, e) for e in target.get("exclude", [])})
    # `@_exported import X` in a target makes X part of it: importing X through a declared dependency that
    # re-exports it is declared (code written for Google's SDK imports UIKit beside GoogleMaps).
    exports = {name: {module_of[m] for m in imports_of(*where, EXPORTED) if m in module_of} for name, where in folders.items()}

    def reexported(names):
        seen, todo = set(), list(names)
        while todo:
            for module in exports.get(todo.pop(), ()):
                if module not in seen:
                    seen.add(module)
                    todo.append(module)
        return seen

    for target in scanned:
        imported = {module_of[m] for m in imports_of(*folders[target["name"]]) if m in module_of}
        imported.discard(target["name"])
        deps = declared(target)
        for name in sorted(imported - deps - reexported(deps)):
            problems.append(f"{target['name']} imports {name} but does not declare it (Package.swift)")
        for name in sorted(deps - imported):
            dep = targets.get(name)
            if dep is None:
                continue  # a product of another package
            if dep["type"] == "executable" and target["type"] == "test":
                continue
            if (target["name"], name) in BUILD_ONLY:
                continue
            problems.append(f"{target['name']} declares {name} but no file of it imports it")
    return problems


def main():
    package_dir = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else ".")
    package = dump(package_dir)
    package["_dir"] = package_dir
    problems = check(package)
    for line in problems:
        print(f"graph: {line}")
    if problems:
        print(f"graph: {len(problems)} mismatch(es) between Package.swift and the imports")
        return 1
    print(f"graph: {len(package['targets'])} targets, every import declared and every dependency imported")
    return 0


if __name__ == "__main__":
    sys.exit(main())
