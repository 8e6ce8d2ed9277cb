#!/usr/bin/env python3
"""The package graph matches the imports: every target imports exactly the package modules it declares.

Reads `swift package dump-package` (JSON on stdin, or runs it) and every Swift file of every target, and fails when
- a target imports a module of this package that it does not declare as a dependency, or
- a target declares a dependency on a library or system-library target that none of its files imports.

Executable targets are exempt from the second rule when a test target declares them: that edge only orders the build
(the test runs the built program). `BUILD_ONLY` lists the other edges that exist for the build alone, each with why.

It also reads the target graph drawn in ARCHITECTURE.md (the first ``` block under "## The target graph") and fails
when it differs from Package.swift. The diagram's grammar:
- `A, B ──► X, Y*, Z` says targets A and B each declare exactly X, Y and Z; `──► none` says no dependencies. A line
  ending in a comma continues on the next line. A name followed by `*` is re-exported (`@_exported import`), and every
  re-export of a package module is starred. Parentheses are comments; lines without an arrow are headings.
- Every library and executable target is on the left exactly once, except the `_Testing_*` shims (empty modules for
  swift-testing's overlay lookup; edges to them are not drawn), test targets and the support targets under Tests/.
- `Examples/*` stands for every target under Examples/: its right side is what they declare, together.

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

    package["_exports"] = {name: exports[name] & declared(targets[name]) for name in folders}
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


ARROW = "──►"
EXAMPLES = "Examples/*"


def diagram_text(architecture):
    """The first fenced block after the "## The target graph" heading, or None."""
    match = re.search(r"^## The target graph\n(.*?)^```[^\n]*\n(.*?)^```", architecture, re.M | re.S)
    return match.group(2) if match else None


def parse_diagram(text):
    """{left name: [(dependency, starred)]} and problems (a name on the left twice, a malformed line)."""
    edges, problems, current, continues = {}, [], None, False
    for number, raw in enumerate(text.split("\n"), 1):
        line = re.sub(r"\([^)]*\)", "", raw).rstrip()
        if not line.strip():
            continues = False
            continue
        if ARROW in line:
            left, right = line.split(ARROW, 1)
            current = [name.strip() for name in left.split(",") if name.strip()]
            for name in current:
                if name in edges:
                    problems.append(f"ARCHITECTURE.md diagram line {number}: {name} is on the left twice")
                edges[name] = []
        elif continues and raw[:1].isspace():
            right = line
        else:
            continues = False  # a heading
            continue
        continues = right.rstrip().endswith(",")
        items = [item.strip() for item in right.split(",") if item.strip()]
        if items == ["none"]:
            continue
        for item in items:
            if not re.fullmatch(r"[A-Za-z_][\w-]*\*?", item):
                problems.append(f"ARCHITECTURE.md diagram line {number}: '{item}' is not a target name")
                continue
            for name in current:
                edges[name].append((item.rstrip("*"), item.endswith("*")))
    return edges, problems


def diagram_problems(package, text):
    """Where the ARCHITECTURE.md diagram (its code block's text) and Package.swift disagree."""
    targets = {t["name"]: t for t in package["targets"]}
    exports = package.get("_exports", {})

    def drawn(name):
        return not name.startswith("_Testing_")

    def is_example(t):
        return (t.get("path") or "").startswith("Examples/")

    shown = [
        t
        for t in package["targets"]
        if t["type"] in ("regular", "executable")
        and drawn(t["name"])
        and not (t.get("path") or "").startswith("Tests/")
        and not is_example(t)
    ]
    edges, problems = parse_diagram(text)
    expected = {t["name"]: {d for d in declared(t) if d in targets and drawn(d)} for t in shown}
    stars = {t["name"]: {d for d in exports.get(t["name"], ()) if drawn(d)} for t in shown}
    examples = [t for t in package["targets"] if is_example(t)]
    if examples:
        expected[EXAMPLES] = set().union(*({d for d in declared(t) if d in targets} for t in examples))
        stars[EXAMPLES] = set()
    for name in sorted(set(edges) - set(expected)):
        problems.append(f"ARCHITECTURE.md diagram draws {name}, which is not a drawn target of Package.swift")
    for name in sorted(set(expected) - set(edges)):
        problems.append(f"ARCHITECTURE.md diagram lacks {name} (Package.swift declares it)")
    for name in sorted(set(edges) & set(expected)):
        drawn_deps = {dep for dep, _ in edges[name]}
        for dep in sorted(drawn_deps - expected[name]):
            problems.append(f"ARCHITECTURE.md diagram: {name} ──► {dep}, which Package.swift does not declare")
        for dep in sorted(expected[name] - drawn_deps):
            problems.append(f"ARCHITECTURE.md diagram: {name} lacks ──► {dep} (declared in Package.swift)")
        starred = {dep for dep, star in edges[name] if star}
        for dep in sorted(starred - stars[name]):
            problems.append(f"ARCHITECTURE.md diagram: {name} ──► {dep}* but {name} does not re-export it")
        for dep in sorted((stars[name] - starred) & drawn_deps):
            problems.append(f"ARCHITECTURE.md diagram: {name} re-exports {dep}: draw it as {dep}*")
    return problems


def architecture_problems(package_dir, package):
    path = os.path.join(package_dir, "ARCHITECTURE.md")
    if not os.path.exists(path):
        return []
    with open(path, encoding="utf-8") as handle:
        text = diagram_text(handle.read())
    if text is None:
        return ["ARCHITECTURE.md has no target graph (a ``` block under '## The target graph')"]
    return diagram_problems(package, text)


def main():
    package_dir = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else ".")
    package = dump(package_dir)
    package["_dir"] = package_dir
    problems = check(package)
    drawing = architecture_problems(package_dir, package)
    for line in problems + drawing:
        print(f"graph: {line}")
    if problems or drawing:
        print(f"graph: {len(problems)} mismatch(es) between Package.swift and the imports, {len(drawing)} between "
              "Package.swift and ARCHITECTURE.md's diagram")
        return 1
    print(f"graph: {len(package['targets'])} targets, every import declared and every dependency imported; "
          "ARCHITECTURE.md's diagram matches Package.swift")
    return 0


if __name__ == "__main__":
    sys.exit(main())
