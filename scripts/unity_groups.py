#!/usr/bin/env python3
"""Computes the unity-build groups of passlab's library sources (cmake/unity_groups.cmake).

A unity build compiles several .cpp files as one translation unit, so the
headers they share (the IR, the STL, LLVM, Catch2) are parsed once per group
instead of once per file: the libraries compile about 2.8x faster, which is
most of CI's time (docs/architecture.md, "Unity build").

Files in one translation unit share their internal names, so two files that
both define an internal `isCall` or `kRegistrar` cannot be grouped (a
redefinition), and worse, two that define different overloads of one name
could silently call each other's. This script therefore groups only files
whose internal names are disjoint. The names come from the objects of an
existing (non-unity) build, which has every internal function, variable and
type with a vtable (`nm`), and from the sources' namespace-scope type, alias
and constant declarations, which leave no symbol. A file whose macros or
using-directives leak into the files after it ends its group.

  scripts/unity_groups.py BUILD_DIR > cmake/unity_groups.cmake
  scripts/unity_groups.py --check     # today's sources against the table

BUILD_DIR must be a built, non-unity tree (its compile_commands.json and
objects). Rerun it when files are added; files not yet grouped compile on
their own, so a stale table is slower, never wrong. Grouping is within one
directory (one library) and keeps a group under MAX_FILES files and
MAX_LINES lines, so an edit recompiles a few seconds of code, not a layer.
"""
import collections
import json
import os
import re
import subprocess
import sys

MAX_FILES = 8
MAX_LINES = 4000
# Directories whose sources belong to one library target each (a group never
# spans targets). Tests, benches and executables' main files are single-file
# targets: nothing to group.
LIBRARY_DIRS = {
    "core/support": "passlab_core", "core/ir": "passlab_core", "core/text": "passlab_core",
    "core/analysis": "passlab_core", "core/pass": "passlab_core", "core/trace": "passlab_core",
    "core/workbench": "passlab_core", "core/frontend": "passlab_frontend",
    "passes": "passlab_passes", "codegen": "passlab_codegen", "graph": "passlab_graph",
    "report": "passlab_report", "repl": "passlab_repl", "gui/model": "passlab_gui_model",
    "gui/panels": "passlab_gui_panels", "gui/app": "passlab_gui_app",
    "tools/conformance": "passlab-conformance",
}
# Files that never join a group: executables' entry points, and sources
# compiled with their own options (CMake leaves those out of unity builds).
NEVER_GROUPED = {"repl/main.cpp", "gui/app/main.cpp"}
PER_SOURCE_OPTION_DIRS = {"core/interp"}

SCOPE_DECL = re.compile(
    r"^(?:template\s*<[^>]*>\s*)?"
    r"(?:(?:struct|class|union|enum(?:\s+class)?)\s+(\w+)\s*(?:final\s*)?[:{;]"
    r"|using\s+(\w+)\s*="
    r"|(?:static\s+|inline\s+)*(?:constexpr|const)\s+[\w:<>,\s\*&]+?\s(\w+)\s*(?:\[[^\]]*\]\s*)*[=({])",
    re.M)
# Namespace-scope function definitions (the house style does not indent
# namespace bodies); an optimized object may have inlined them away.
FUNCTION_DEF = re.compile(
    r"^(?:template\s*<[^>]*>\s*)?(?:(?:static|inline|constexpr|\[\[\w+\]\])\s+)*"
    r"[A-Za-z_][\w:<>,\s\*&]*?[\s\*&](\w+)\s*\(", re.M)
LEAKS = re.compile(r"^\s*(?:#\s*define\s+(\w+)|using\s+namespace\s+[\w:]+\s*;)", re.M)


def symbol_names(obj):
    """Internal names an object defines: local symbols, demangled, without parameters."""
    out = subprocess.run(["nm", "-C", "--defined-only", obj], capture_output=True, text=True,
                         check=False).stdout
    names = set()
    for line in out.splitlines():
        parts = line.split(" ", 2)
        if len(parts) < 3:
            continue
        kind, name = parts[1], parts[2]
        # Static functions and internal constants are found in the source
        # (an optimized object inlines them); local symbols of named scopes
        # are also compilers' local aliases of shared inline functions.
        if "(anonymous namespace)" not in name:
            continue
        if name.startswith(("_GLOBAL__", "__static_initialization", "__tcf_", ".L",
                            "__PRETTY_FUNCTION__", "__func__", "__FUNCTION__")):
            continue
        for prefix in ("vtable for ", "typeinfo for ", "typeinfo name for ", "guard variable for "):
            if name.startswith(prefix):
                name = name[len(prefix):]
        # Compiler clones and library templates instantiated on internal types.
        if "[clone" in name or name.startswith(("std::", "__gnu_cxx::", "void std::")):
            continue
        # The internal name is the one right inside the anonymous namespace.
        inner = name.split("(anonymous namespace)::", 1)
        if len(inner) == 2:
            names.add(re.split(r"[^\w]", inner[1], maxsplit=1)[0])
    return names


def strip_comments_and_strings(text):
    return re.sub(r'//[^\n]*|/\*.*?\*/|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])\'', " ", text,
                  flags=re.S)


def anonymous_regions(code):
    """Spans of the anonymous namespaces' bodies."""
    spans = []
    for m in re.finditer(r"\bnamespace\s*\{", code):
        depth, i = 1, m.end()
        while i < len(code) and depth:
            depth += {"{": 1, "}": -1}.get(code[i], 0)
            i += 1
        spans.append((m.end(), i))
    return spans


def internal_names(text):
    """Names this file defines that no other file may see: everything at
    namespace scope in an anonymous namespace, static functions, and
    namespace-scope constants (internal linkage)."""
    code = strip_comments_and_strings(text)
    regions = anonymous_regions(code)
    names = set()
    for pattern in (SCOPE_DECL, FUNCTION_DEF):
        for m in pattern.finditer(code):
            name = next(g for g in m.groups() if g)
            if name in ("if", "for", "while", "switch", "return", "sizeof"):
                continue
            head = m.group(0)
            constant = re.search(r"\b(?:constexpr|const)\b", head) and not re.search(r"\b(?:extern|inline)\b", head) \
                and pattern is SCOPE_DECL and m.group(3)
            if any(a <= m.start() < b for a, b in regions) or head.startswith("static") or constant:
                names.add(name)
    return names


def identifiers(text):
    return set(re.findall(r"[A-Za-z_]\w*", strip_comments_and_strings(text)))


def leaks(text):
    """What reaches the files after this one: its using-directives, and its
    macros left defined."""
    usings, macros = set(), set()
    for m in LEAKS.finditer(text):
        macro = m.group(1)
        if macro is None:
            usings.add(re.sub(r"\s+", " ", m.group(0).strip()))
        elif not re.search(r"#\s*undef\s+" + re.escape(macro) + r"\b", text):
            macros.add(macro)
    return usings, macros


FileFacts = collections.namedtuple("FileFacts", "rel names used usings lines")


def file_facts(root, rel, object_names=frozenset()):
    """What decides whether a file can share a translation unit: its internal
    names (with its macros left defined), every identifier it uses, its
    using-directives and its size."""
    text = open(os.path.join(root, rel), encoding="utf-8", errors="replace").read()
    usings, macros = leaks(text)
    return FileFacts(rel, internal_names(text) | macros | object_names, identifiers(text), usings,
                     text.count("\n"))


def clashes(earlier, later):
    """Why `later` cannot follow `earlier` in one translation unit (empty if it
    can). No internal name of one file may be a name the other uses or
    defines, in either order: before it, the name is ambiguous or redefined;
    after it, it could silently bind there. And what `earlier` leaks (its
    using-directives) must not change `later`, so `later` must have them too."""
    found = []
    for a, b in ((earlier, later), (later, earlier)):
        shared = a.names & b.used
        if shared:
            found.append(f"{a.rel} defines internal {', '.join(sorted(shared))}, which {b.rel} also names")
    missing = earlier.usings - later.usings
    if missing:
        found.append(f"{later.rel} comes after {earlier.rel}'s '{', '.join(sorted(missing))}'")
    return found


def check(root):
    """Checks the table against today's sources, from their text alone (no
    build needed; tests/CMakeLists.txt runs it): no group holds a missing
    file or two files that clash. Prints each problem; returns their count."""
    table = open(os.path.join(root, "cmake", "unity_groups.cmake")).read()
    problems = 0
    for body, tag in re.findall(r"set_source_files_properties\((.*?)TARGET_DIRECTORY \S+ PROPERTIES UNITY_GROUP (\S+)\)",
                                table, re.S):
        seen = []
        for rel in re.findall(r"\$\{CMAKE_SOURCE_DIR\}/(\S+)", body):
            if not os.path.exists(os.path.join(root, rel)):
                print(f"{tag}: {rel} no longer exists: rerun scripts/unity_groups.py")
                problems += 1
                continue
            facts = file_facts(root, rel)
            for earlier in seen:
                for problem in clashes(earlier, facts):
                    print(f"{tag}: {problem}; rename it or rerun scripts/unity_groups.py")
                    problems += 1
            seen.append(facts)
    return problems


def main():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    if sys.argv[1:] == ["--check"]:
        sys.exit(1 if check(root) else 0)
    build = sys.argv[1]
    commands = json.load(open(os.path.join(build, "compile_commands.json")))
    objects = {}
    for entry in commands:
        rel = os.path.relpath(entry["file"], root)
        if not os.path.exists(os.path.join(root, rel)):
            continue
        m = re.search(r"-o (\S+)", entry["command"])
        if m:
            objects[rel] = os.path.join(entry["directory"], m.group(1))
    by_dir = collections.defaultdict(list)
    for rel in sorted(objects):
        d = os.path.dirname(rel)
        if d in LIBRARY_DIRS and rel not in NEVER_GROUPED and d not in PER_SOURCE_OPTION_DIRS:
            by_dir[d].append(rel)

    print("# Generated by scripts/unity_groups.py: unity-build groups of the library sources.")
    print("# Files in a group share no internal name (see the script). Files not listed")
    print("# compile on their own. Regenerate after adding files: a stale table is slower, never wrong.")
    for d in LIBRARY_DIRS:
        # First fit over the directory's groups, files in sorted order, which
        # is the order CMake includes them in (what a file leaks reaches only
        # the files after it).
        groups = []
        for rel in by_dir.get(d, []):
            facts = file_facts(root, rel, symbol_names(objects[rel]))
            home = next((g for g in groups
                         if len(g) < MAX_FILES and sum(f.lines for f in g) + facts.lines <= MAX_LINES
                         and not any(clashes(earlier, facts) for earlier in g)), None)
            if home is None:
                home = []
                groups.append(home)
            home.append(facts)
        groups = [[f.rel for f in g] for g in groups]
        for i, files in enumerate(groups):
            if len(files) < 2:
                continue
            tag = d.replace("/", "_") + "_" + str(i)
            listed = "\n    ".join("${CMAKE_SOURCE_DIR}/" + f for f in files)
            target = LIBRARY_DIRS[d]
            print(f"if(TARGET {target})\n  set_source_files_properties(\n    {listed}\n"
                  f"    TARGET_DIRECTORY {target} PROPERTIES UNITY_GROUP {tag})\nendif()")
    targets = " ".join(sorted(set(LIBRARY_DIRS.values())))
    print(f"set(PASSLAB_UNITY_TARGETS {targets})")


if __name__ == "__main__":
    main()
