#!/usr/bin/env python3
"""Fails when a target imports a module of this package that its Package.swift entry does not declare.

SwiftPM builds such a target only by luck (the module happens to be built first, for another target),
and a user's package that depends on ours could fail to build. The declared graph is read from
`swift package dump-package`; the imports from the target's Swift files.

Also fails when a library product's public declarations name a type of a module that is not a
product (an app could not import that module to use it), and when a module that must stay small (LocationProtocol, LocationWire) depends, directly or
through other targets, on a product or target it must not (GRDB, swift-crypto, the policy or service
modules).

Usage: scripts/check-imports.py [--dump FILE]   (FILE: saved dump-package output, for speed)
"""
import json
import os
import re
import subprocess
import sys

# What the small shared modules may reach, transitively (targets and products).
ALLOWED_CLOSURE = {
    "LocationProtocol": set(),
    "LocationWire": {"LocationProtocol", "NIOCore"},
}

IMPORT = re.compile(
    r"^\s*(?:@\w+(?:\([^)]*\))?\s+)*(?:(?:public|package|internal|fileprivate|private)\s+)?"
    r"import\s+(?:(?:struct|class|enum|protocol|func|var|let|typealias)\s+)?([A-Za-z_][A-Za-z0-9_]*)",
    re.M,
)


def dependency_names(target):
    names = []
    for dependency in target.get("dependencies", []):
        for kind in ("byName", "target", "product"):
            if kind in dependency:
                names.append(dependency[kind][0])
    return names


PUBLIC_TYPE = re.compile(r"^public\s+(?:final\s+)?(?:class|struct|enum|protocol|typealias|actor)\s+([A-Za-z_]\w*)", re.M)
PUBLIC_LINE = re.compile(r"^\s*(?:@\w+(?:\([^)]*\))?\s+)*(?:public|open)\b")


def swift_files(root, target):
    default = "Tests" if target["type"] == "test" else "Sources"
    path = os.path.join(root, target.get("path") or os.path.join(default, target["name"]))
    for directory, _, files in os.walk(path):
        for file in files:
            if file.endswith(".swift"):
                yield os.path.join(directory, file)


def exposed_non_product_types(root, package, targets):
    """Public lines of library products' modules that name a public type of a non-product module."""
    product_targets = {name for product in package["products"]
                       if "library" in product["type"] for name in product["targets"]}
    foreign = {}
    for name, target in targets.items():
        if name in product_targets or target["type"] != "regular":
            continue
        for file in swift_files(root, target):
            for symbol in PUBLIC_TYPE.findall(open(file, encoding="utf-8").read()):
                foreign.setdefault(symbol, name)
    if not foreign:
        return []
    word = re.compile(r"\b(" + "|".join(map(re.escape, foreign)) + r")\b")
    problems = []
    for name in sorted(product_targets):
        for file in swift_files(root, targets[name]):
            for number, line in enumerate(open(file, encoding="utf-8"), 1):
                code = line.split("//")[0]
                if PUBLIC_LINE.match(code):
                    for symbol in word.findall(code):
                        relative = os.path.relpath(file, root)
                        problems.append(f"{relative}:{number}: public API of product module {name} names "
                                        f"{symbol} from {foreign[symbol]}, which is not a product")
    return problems


def main():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    if len(sys.argv) == 3 and sys.argv[1] == "--dump":
        package = json.load(open(sys.argv[2]))
    else:
        output = subprocess.run(["swift", "package", "dump-package"], cwd=root, check=True,
                                capture_output=True, text=True).stdout
        package = json.loads(output)

    targets = {target["name"]: target for target in package["targets"]}
    problems = []
    for name, target in sorted(targets.items()):
        declared = set(dependency_names(target))
        default = "Tests" if target["type"] == "test" else "Sources"
        path = os.path.join(root, target.get("path") or os.path.join(default, name))
        for directory, _, files in os.walk(path):
            for file in files:
                if not file.endswith(".swift"):
                    continue
                text = open(os.path.join(directory, file), encoding="utf-8").read()
                for module in IMPORT.findall(text):
                    if module in targets and module != name and module not in declared:
                        relative = os.path.relpath(os.path.join(directory, file), root)
                        problems.append(f"{relative}: imports {module}, which target {name} does not declare")

    for name, allowed in ALLOWED_CLOSURE.items():
        if name not in targets:
            problems.append(f"target {name} is missing")
            continue
        reached, pending = set(), list(dependency_names(targets[name]))
        while pending:
            dependency = pending.pop()
            if dependency in reached:
                continue
            reached.add(dependency)
            if dependency in targets:
                pending.extend(dependency_names(targets[dependency]))
        for extra in sorted(reached - allowed):
            problems.append(f"{name} depends on {extra} (allowed: {', '.join(sorted(allowed)) or 'nothing'})")

    problems += exposed_non_product_types(root, package, targets)

    for problem in problems:
        print(problem)
    if problems:
        print(f"check-imports: {len(problems)} problem(s)", file=sys.stderr)
        return 1
    print(f"check-imports: {len(targets)} targets, every imported project module declared")
    return 0


if __name__ == "__main__":
    sys.exit(main())
