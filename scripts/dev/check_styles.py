#!/usr/bin/env python3
"""The bundled styles are their generators' output: runs every scripts/data/styles/make-*.py into a temporary folder
($WAYMARK_STYLE_OUT, honoured by stylekit.write) and compares each file it writes with the committed one.

Usage: scripts/dev/check_styles.py [REPO_DIR]   (exit 0 when every committed style matches, 1 naming each that differs)
"""

import filecmp
import glob
import os
import subprocess
import sys
import tempfile


def main():
    repo = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else ".")
    styles = os.path.join(repo, "Data", "styles")
    problems = []
    checked = 0
    with tempfile.TemporaryDirectory() as out:
        generators = os.path.join(repo, "scripts", "data", "styles")
        for generator in sorted(glob.glob(os.path.join(generators, "make-*.py"))):
            env = dict(os.environ, WAYMARK_STYLE_OUT=out, PYTHONDONTWRITEBYTECODE="1")
            run = subprocess.run([sys.executable, generator], env=env, capture_output=True, text=True)
            if run.returncode != 0:
                problems.append(f"{os.path.relpath(generator, repo)} failed: {run.stderr.strip()[-500:]}")
        for made in sorted(os.listdir(out)):
            committed = os.path.join(styles, made)
            checked += 1
            if not os.path.exists(committed):
                problems.append(f"Data/styles/{made} is generated but not committed")
            elif not filecmp.cmp(os.path.join(out, made), committed, shallow=False):
                problems.append(f"Data/styles/{made} differs from its generator's output (run the generator)")
    for line in problems:
        print(f"styles: {line}")
    if problems or checked == 0:
        print(f"styles: {len(problems)} problem(s), {checked} style(s) generated")
        return 1
    print(f"styles: {checked} bundled style(s) match their generators")
    return 0


if __name__ == "__main__":
    sys.exit(main())
