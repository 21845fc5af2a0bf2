#!/usr/bin/python3
"""The toolkit's public API, as swift-api-digester sees it, against the baseline committed in api/.

    Tests/api-baseline.py BIN_PATH            check (make test): fails when the API changed
    Tests/api-baseline.py BIN_PATH --update   write the baseline (make api-baseline), to commit with the change

BIN_PATH is `swift build --show-bin-path` after a build. For each library module adopters use, the digester
dumps the module's API (`-dump-sdk`, without file locations or tool arguments). Declarations the digester
marks `isInternal` (`package` ones: host hooks the app reaches, not adopters) are left out, so the baseline
is the public surface only. A change is reported with the digester's own diagnosis against the baseline
(`-diagnose-sdk`: what was removed or changed in a way that breaks callers) and with the names of the
declarations added or removed; any difference fails, additions included, since they become API too.
"""
import json
import os
import platform
import re
import subprocess
import sys
import tempfile

MODULES = ["GLib", "Gtk", "Navigation", "NavigationGtk", "NavigationWeb"]
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BASELINE = os.path.join(ROOT, "api")
C_MODULES = ["CGLib", "CGtk", "CWebKit"]  # the system-library modules the toolkit's modules import


def digester():
    swift = subprocess.run(["sh", "-c", "command -v swift"], capture_output=True, text=True).stdout.strip()
    candidate = os.path.join(os.path.dirname(os.path.realpath(swift)), "swift-api-digester") if swift else ""
    return candidate if os.path.exists(candidate) else "swift-api-digester"


def flags(bin_path):
    cflags = subprocess.run(["pkg-config", "--cflags", "gtk4", "gio-2.0"], capture_output=True, text=True, check=True).stdout.split()
    result = ["-I", os.path.join(bin_path, "Modules"), "-target", f"{platform.machine()}-unknown-linux-gnu"]
    for module in C_MODULES:
        result += ["-I", os.path.join(ROOT, "Sources", module)]
    for path in sorted(os.listdir(bin_path)):
        modulemap = os.path.join(bin_path, path, "module.modulemap")
        if path.endswith(".build") and os.path.exists(modulemap):  # C targets' generated module maps
            result += ["-Xcc", f"-fmodule-map-file={modulemap}"]
    result += [item for flag in cflags if flag.startswith("-I") for item in ("-Xcc", flag)]
    return result


def without_internal(node):
    """The node with its `isInternal` (package) descendants removed."""
    if isinstance(node, dict):
        return {key: without_internal(value) for key, value in node.items()}
    if isinstance(node, list):
        return [without_internal(item) for item in node if not (isinstance(item, dict) and item.get("isInternal"))]
    return node


def dump(module, bin_path, directory):
    raw = os.path.join(directory, module + ".raw.json")
    command = [digester(), "-dump-sdk", "-module", module, "-o", raw, "-avoid-location", "-avoid-tool-args",
               "-abort-on-module-fail"] + flags(bin_path)
    run = subprocess.run(command, capture_output=True, text=True)
    if run.returncode != 0 or not os.path.exists(raw):
        sys.exit(f"api: swift-api-digester could not read {module}: {run.stderr.strip()}")
    with open(raw) as file:
        data = without_internal(json.load(file))
    if data.get("ABIRoot", {}).get("name") != module:
        sys.exit(f"api: swift-api-digester found no module {module} in {bin_path} (build first)")
    return json.dumps(data, indent=1, sort_keys=True) + "\n"


def names(text):
    """`kind printedName` of every declaration, nested by its parents' names."""
    found = set()

    def walk(node, prefix):
        if isinstance(node, dict):
            here = prefix
            if node.get("declKind") and node.get("kind") not in ("Accessor",):
                here = f"{prefix}.{node['printedName']}" if prefix else node["printedName"]
                found.add(f"{node['declKind']} {here}")
            for child in node.get("children", []):
                walk(child, here)
        elif isinstance(node, list):
            for child in node:
                walk(child, prefix)

    walk(json.loads(text)["ABIRoot"], "")
    return found


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    bin_path, update = sys.argv[1], "--update" in sys.argv[2:]
    changed = []
    with tempfile.TemporaryDirectory() as directory:
        for module in MODULES:
            current = dump(module, bin_path, directory)
            path = os.path.join(BASELINE, module + ".json")
            if update:
                os.makedirs(BASELINE, exist_ok=True)
                with open(path, "w") as file:
                    file.write(current)
                continue
            if not os.path.exists(path):
                changed.append(module)
                print(f"api: {module} has no baseline (api/{module}.json)")
                continue
            with open(path) as file:
                baseline = file.read()
            if baseline == current:
                continue
            changed.append(module)
            print(f"api: the public API of {module} differs from api/{module}.json:")
            # The digester diagnoses the built module against the baseline: what breaks callers (additions
            # are listed below, from the two dumps).
            diagnosis = subprocess.run([digester(), "-diagnose-sdk", "-module", module, "-baseline-path", path,
                                        "-disable-fail-on-error"] + flags(bin_path), capture_output=True, text=True)
            old, new = names(baseline), names(current)
            for line in (diagnosis.stdout + diagnosis.stderr).splitlines():
                # The built module also has the package declarations the baseline leaves out: the digester
                # calls a package initializer of an open class "added"; only public ones are news.
                added = re.match(r"Constructor (\S+) has been added as a designated initializer", line)
                if added and f"Constructor {added.group(1)}" not in new - old:
                    continue
                if line.strip() and not line.startswith("/* "):
                    print("  " + line)
            for name in sorted(old - new):
                print(f"  - {name}")
            for name in sorted(new - old):
                print(f"  + {name}")
    if update:
        print(f"api: baseline written for {', '.join(MODULES)} (api/*.json): commit it with the change")
    elif changed:
        sys.exit(f"api: {', '.join(changed)} changed. If that is intended, run `make api-baseline` and commit api/ "
                 "in the same commit, so the change is reviewed with the code")
    else:
        print(f"api: {', '.join(MODULES)} as in api/ (swift-api-digester)")


if __name__ == "__main__":
    main()
