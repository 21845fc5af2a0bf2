#!/usr/bin/env python3
"""Fails when a public declaration of the toolkit's library products mentions a C type or a raw pointer, or
has no documentation comment.

Reads the symbol graphs that `swift package dump-symbol-graph --minimum-access-level public` wrote (the
folder is argv[1]) and checks every public symbol of GLib, Gtk, Navigation, NavigationGtk and NavigationWeb:
- no C type: a type identifier that is a C one (a USR starting with "c:": GtkStackTransitionType,
  gboolean…) or that has no identifier at all although it is not a generic parameter (a C struct behind
  a typedef, such as GtkWidget);
- no raw pointer (Unsafe…Pointer, OpaquePointer) except in escape hatches named `unsafe…` and in
  FilePath's C-string bridge (`init(cString:)`, `withCString(_:)`, as String has them).
What needs a raw pointer is `package` (the app's own modules may use it). Every public symbol has a doc
comment, but for what a protocol gives (`hashValue`, `hash(into:)`, the literal initializers, an option
set's `insert(_:)`, an executor's `asUnownedTaskExecutor()`), documented there. Prints each offender; exit
status 1 if any.
"""
import json
import pathlib
import sys

PRODUCTS = {"GLib", "Gtk", "Navigation", "NavigationGtk", "NavigationWeb"}
RAW_POINTERS = {"s:Sp", "s:SP", "s:Sv", "s:SV", "s:s13OpaquePointerV"}
C_STRING_BRIDGE = {"init(cString:)", "withCString(_:)"}

folder = pathlib.Path(sys.argv[1])
graphs = [g for g in sorted(folder.glob("*.symbols.json")) if g.name.split(".")[0].split("@")[0] in PRODUCTS]
symbols = [(g.name.split(".")[0].split("@")[0], s) for g in graphs for s in json.loads(g.read_text())["symbols"]]
generic_names = {p["name"] for _, s in symbols for p in s.get("swiftGenerics", {}).get("parameters", [])}

offenders = []
for module, symbol in symbols:
    fragments = list(symbol.get("declarationFragments", []))
    signature = symbol.get("functionSignature", {})
    for parameter in signature.get("parameters", []):
        fragments += parameter.get("declarationFragments", [])
    fragments += signature.get("returns", [])
    types = [f for f in fragments if f.get("kind") == "typeIdentifier"]
    c_types = {f["spelling"] for f in types if f.get("preciseIdentifier", "").startswith("c:")
               or ("preciseIdentifier" not in f and f["spelling"].split(".")[0] not in generic_names | {"Self"})}
    title = symbol["names"]["title"]
    raw = {f["spelling"] for f in types if f.get("preciseIdentifier") in RAW_POINTERS}
    if title.startswith("unsafe") or title.startswith("init(unsafe") or title in C_STRING_BRIDGE:
        raw = set()
    if c_types or raw:
        declaration = "".join(f["spelling"] for f in symbol.get("declarationFragments", []))
        offenders.append(f"{module}: {declaration}  — {', '.join(sorted(c_types | raw))}")
# What a protocol gives, documented by the protocol (DocC shows its comment).
FROM_PROTOCOLS = {"hashValue", "hash(into:)", "init(unicodeScalarLiteral:)", "init(extendedGraphemeClusterLiteral:)",
                  "insert(_:)", "asUnownedTaskExecutor()"}
undocumented = [f"{module}: {'.'.join(symbol['pathComponents'])} has no documentation comment"
                for module, symbol in symbols
                if symbol.get("accessLevel") == "public" and "docComment" not in symbol
                and symbol["names"]["title"] not in FROM_PROTOCOLS]
offenders += undocumented
for line in offenders:
    print(line, file=sys.stderr)
if not symbols:
    print(f"public API check: no symbol graphs of the products in {folder}", file=sys.stderr)
    sys.exit(1)
print(f"public API: {len(symbols)} public symbols of {', '.join(sorted(PRODUCTS))}; "
      + (f"{len(offenders) - len(undocumented)} mention C types or raw pointers, {len(undocumented)} have no documentation"
         if offenders else "none mentions a C type or a raw pointer, each is documented"))
sys.exit(1 if offenders else 0)
