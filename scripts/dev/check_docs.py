#!/usr/bin/env python3
"""The docs stay true: every behaviour citation resolves, every backticked path in the Markdown docs exists.

1. Citations. In Swift files under Sources/, Tests/ and Examples/, `spec §N` (not `MVT spec §N`) must name a section
   heading of docs/BEHAVIOUR.md (`### 1.8 ...`, `## 3. ...`) or an item of a section's numbered list (`§2.1.6`), and `D<n>` a decision row (`| D<n> |`) of it.
2. Paths. In the Markdown docs (the top-level *.md, docs/, and every README.md under Sources/, Tests/, Examples/), a
   backticked token that looks like a repository path (starts with a top-level folder of the repo, no placeholders)
   must exist, relative to the repository root or to the Markdown file's folder.

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


def main():
    repo = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else ".")
    with open(os.path.join(repo, "docs/BEHAVIOUR.md"), encoding="utf-8") as handle:
        behaviour = handle.read()
    files = tracked(repo)
    problems = citations(repo, files, behaviour) + doc_paths(repo, files)
    for line in problems:
        print(f"docs: {line}")
    if problems:
        print(f"docs: {len(problems)} problem(s)")
        return 1
    print("docs: every behaviour citation resolves and every backticked path exists")
    return 0


if __name__ == "__main__":
    sys.exit(main())
