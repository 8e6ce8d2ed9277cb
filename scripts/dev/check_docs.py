#!/usr/bin/env python3
"""The docs stay true: every behaviour citation resolves, every backticked path in the Markdown docs exists.

1. Citations. In Swift files under Sources/, Tests/ and Examples/, `spec §N` (not `MVT spec §N`) must name a section
   heading of docs/BEHAVIOUR.md (`### 1.8 ...`, `## 3. ...`) or an item of a section's numbered list (`§2.1.6`), and `D<n>` a decision row (`| D<n> |`) of it.
2. Paths. In the Markdown docs (the top-level *.md, docs/, and every README.md under Sources/, Tests/, Examples/), a
   backticked token that looks like a repository path (starts with a top-level folder of the repo, no placeholders)
   must exist, relative to the repository root or to the Markdown file's folder.

3. Swift names. In ARCHITECTURE.md and the module READMEs (Sources/*/README.md), a backticked `TypeName`,
   `TypeName(label:)` (an initializer), `TypeName.member` or `TypeName.member(label:other:)` must be declared in a Swift
   file under Sources/, Tests/ or Examples/: the type by class/struct/enum/protocol/actor/typealias (or a module or
   target of that name), the member by func/var/let/case/init in a file that declares or extends the type, and a
   member written with labels must have a declaration with exactly those argument labels. `OUTSIDE_NAMES` lists the
   few names from outside (Apple's SDKs, MapLibre/GL JS, C libraries) the docs may name.

Usage: scripts/dev/check_docs.py [REPO_DIR]   (exit 0 clean, 1 with one line per problem)
"""

import os
import re
import subprocess
import sys

SPEC = re.compile(r"(?<!MVT )spec §(\d+(?:\.\d+)*)")
DECISION = re.compile(r"\bD(\d{1,2})\b(?! white point)")
HEADING = re.compile(r"^#{2,4}\s+(\d+(?:\.\d+)*)\.?\s", re.M)
ROW = re.compile(r"^\|\s*D(\d+)\s*\|", re.M)
BACKTICK = re.compile(r"`([^`\s]+)`")


def tracked(repo):
    out = subprocess.run(["git", "ls-files", "-co", "--exclude-standard"], cwd=repo, capture_output=True, text=True)
    return [p for p in out.stdout.splitlines() if os.path.exists(os.path.join(repo, p))]


def citations(repo, files, behaviour):
    sections = set(HEADING.findall(behaviour))
    # `§2.1.6` may also name item 6 of the numbered list in section 2.1.
    for match in HEADING.finditer(behaviour):
        rest = behaviour[match.end() :]
        following = HEADING.search(rest)
        body = rest[: following.start()] if following else rest
        sections.update(f"{match.group(1)}.{n}" for n in re.findall(r"^(\d+)\. ", body, re.M))
    decisions = set(ROW.findall(behaviour))
    problems = []
    for path in files:
        if not path.endswith(".swift") or not path.startswith(("Sources/", "Tests/", "Examples/")):
            continue
        with open(os.path.join(repo, path), encoding="utf-8", errors="replace") as handle:
            for number, line in enumerate(handle, 1):
                for section in SPEC.findall(line):
                    if section not in sections:
                        problems.append(f"{path}:{number}: 'spec §{section}' is not a section of docs/BEHAVIOUR.md")
                for decision in DECISION.findall(line):
                    if decision not in decisions:
                        problems.append(f"{path}:{number}: 'D{decision}' is not a decision of docs/BEHAVIOUR.md")
    return problems


def doc_paths(repo, files):
    tops = {p.split("/", 1)[0] for p in files if "/" in p}
    docs = [
        p
        for p in files
        if p.endswith(".md")
        and ("/" not in p or p.startswith("docs/") or os.path.basename(p) == "README.md")
    ]
    problems = []
    for doc in docs:
        folder = os.path.dirname(doc)
        with open(os.path.join(repo, doc), encoding="utf-8") as handle:
            text = handle.read()
        in_fence = False
        for number, line in enumerate(text.split("\n"), 1):
            if line.startswith("```"):
                in_fence = not in_fence
                continue
            if in_fence:
                continue
            for token in BACKTICK.findall(line):
                path = token.rstrip(".,:;)").split("#")[0]
                head = path.split("/", 1)[0]
                if "/" not in path or head not in tops or any(c in path for c in "<>{}*…$|"):
                    continue
                if re.search(r":\d", path):  # file:line
                    path = path.split(":")[0]
                if not (os.path.exists(os.path.join(repo, path)) or os.path.exists(os.path.join(repo, folder, path))):
                    problems.append(f"{doc}:{number}: `{token}` does not exist")
    return problems


# Names the docs may backtick that this repository does not declare, each with where it comes from. Keep it short.
OUTSIDE_NAMES = {
    # the Swift standard library, Foundation and swift-corelibs-foundation
    "Sendable", "Data", "URL", "JSONSerialization", "XMLParser", "Thread", "NSCondition", "Timer",
    "DispatchQueue",
    # HTTP header names
    "ETag", "Expires", "Range",
}
# C libraries' names, by prefix: SDL2 (`SDL_WaitEventTimeout`), Pango (`PangoLayout`), Cairo.
OUTSIDE_PREFIXES = ("SDL_", "Pango", "cairo_")

TYPE_DECL = re.compile(r"\b(?:class|struct|enum|protocol|actor|typealias|extension)\s+([A-Z]\w*)")
MEMBER_DECL = re.compile(r"\b(?:func|var|let|case)\s+(`?[A-Za-z_]\w*`?)")
SIGNATURE_START = re.compile(r"\b(?:func\s+([A-Za-z_]\w*)|(init)[?!]?|(case)\s+([a-z_]\w*))\s*(?:<[^>(]*>)?\s*\(")
SWIFT_NAME = re.compile(r"^([A-Z]\w*)((?:\.[A-Za-z_]\w*)*)(\((?:[A-Za-z_]\w*:)*\))?$")


def labels_of(params):
    """`(a b: T, _ c: U = 1)` text (without the parentheses) as `a:_:`."""
    depth, current, parts = 0, "", []
    for ch in params:
        if ch in "([<{":
            depth += 1
        elif ch in ")]>}":
            depth -= 1
        if ch == "," and depth == 0:
            parts.append(current)
            current = ""
        else:
            current += ch
    if current.strip():
        parts.append(current)
    labels = ""
    for part in parts:
        head = part.split(":", 1)[0].split()
        if not head:
            continue
        head = [w for w in head if w not in ("inout", "borrowing", "consuming", "isolated")] or head
        labels += head[0].strip("`") + ":"
    return labels


def swift_index(repo, files):
    """Declared types, and per type the (member, labels) pairs declared in its files (labels None for non-calls)."""
    types, members_in = set(), {}
    # Top-level functions with capitalised names (`GMSProject`, `UIApplicationMain`) are named like types.
    free_functions = re.compile(r"^(?:@\w+\s+)*(?:public\s+|package\s+)?func\s+([A-Z]\w*)", re.M)
    for path in files:
        if not path.endswith(".swift") or not path.startswith(("Sources/", "Tests/", "Examples/")):
            continue
        with open(os.path.join(repo, path), encoding="utf-8", errors="replace") as handle:
            text = handle.read()
        declared_here = set(TYPE_DECL.findall(text))
        types |= declared_here | set(free_functions.findall(text))
        members = {(name.strip("`"), None) for name in MEMBER_DECL.findall(text)}
        for line in re.findall(r"^\s*(?:indirect\s+)?case\s+([^:\n]+?)\s*$", text, re.M):
            members |= {(name, None) for name in re.findall(r"(?:^|,)\s*([a-z_]\w*)", line)}
        for match in SIGNATURE_START.finditer(text):
            name = match.group(1) or match.group(2) or match.group(4)
            depth, i = 1, match.end()
            while i < len(text) and depth:
                depth += {"(": 1, ")": -1}.get(text[i], 0)
                i += 1
            members.add((name, labels_of(text[match.end() : i - 1])))
            members.add((name, None))
        for name in declared_here:
            members_in.setdefault(name, set()).update(members)
    return types, members_in


def swift_names(repo, files):
    docs = [p for p in files if p == "ARCHITECTURE.md" or re.fullmatch(r"Sources/[^/]+/README\.md", p)]
    types, members_in = swift_index(repo, files)
    modules = {p.split("/")[1] for p in files if p.startswith(("Sources/", "Tests/")) and p.count("/") >= 2}
    known = types | modules | OUTSIDE_NAMES
    problems = []
    for doc in docs:
        with open(os.path.join(repo, doc), encoding="utf-8") as handle:
            text = handle.read()
        in_fence = False
        for number, line in enumerate(text.split("\n"), 1):
            if line.startswith("```"):
                in_fence = not in_fence
                continue
            if in_fence:
                continue
            for token in BACKTICK.findall(line):
                match = SWIFT_NAME.match(token)
                if not match or re.fullmatch(r"D\d+|[A-Z0-9_]+|.*\.(swift|md|json|py|sh|h|c|png)", token):
                    continue  # not a Swift name: decisions (`D7`), all-capitals words (`GET`), file names
                if token.startswith(OUTSIDE_PREFIXES):
                    continue
                base, chain, call = match.group(1), match.group(2), match.group(3)
                if base not in known:
                    problems.append(f"{doc}:{number}: `{token}`: no type {base} is declared")
                    continue
                if base in OUTSIDE_NAMES or (base in modules and base not in types):
                    continue
                names = chain.split(".")[1:]
                owner = base
                while names and names[0][:1].isupper():  # nested types: MapSnapshot.Snapshotter
                    owner = names.pop(0)
                    if owner not in known:
                        problems.append(f"{doc}:{number}: `{token}`: no type {owner} is declared")
                        break
                else:
                    if not names and not call:
                        continue
                    member = names[-1] if names else "init"
                    available = members_in.get(owner, set())
                    if len(names) > 1:
                        continue  # a chain (`MapEngine.shared.x`): only the type is checked
                    labels = call[1:-1] if call else None
                    if (member, labels) not in available:
                        what = f"{member}({labels})" if call else member
                        problems.append(f"{doc}:{number}: `{token}`: {owner} declares no {what}")
    return problems


def main():
    repo = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else ".")
    with open(os.path.join(repo, "docs/BEHAVIOUR.md"), encoding="utf-8") as handle:
        behaviour = handle.read()
    files = tracked(repo)
    problems = citations(repo, files, behaviour) + doc_paths(repo, files) + swift_names(repo, files)
    for line in problems:
        print(f"docs: {line}")
    if problems:
        print(f"docs: {len(problems)} problem(s)")
        return 1
    print(
        "docs: every behaviour citation resolves, every backticked path exists and every documented Swift name is "
        "declared"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
