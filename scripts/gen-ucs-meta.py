#!/usr/bin/env python3
"""Generate the object-model tables used by the Bootsmith UCS simulator.

Cisco publishes the UCS Manager, Cisco IMC and UCS Central object models as
generated metadata inside its Python SDKs on PyPI: `ucsmsdk` (UCS Manager),
`imcsdk` (standalone Cisco IMC) and `ucscsdk` (UCS Central).  Every
managed-object class lives in `<sdk>/mometa/<pkg>/<Class>.py` and carries

    mo_meta   = MoMeta(name, xml_attribute, rn, version, inp_out, mask,
                       field_names, access_privilege, parents, children, verbs)
    prop_meta = {"py_name": MoPropertyMeta(name, xml_attribute, field_type,
                       version, access, mask, min_length, max_length,
                       pattern, value_set, range_val), ...}

(imcsdk wraps both in {"classic": ..., "modular": ...}; we use "classic",
the platform of standalone C-Series servers.)

This script reads those files with Python's `ast` module -- the SDKs are never
imported or installed, so no SDK dependencies are needed -- and writes, for a
fixed list of classes the simulator cares about:

    crates/sim/data/ucsm-classes.json
    crates/sim/data/imc-classes.json
    crates/sim/data/ucsc-classes.json   (only when the ucscsdk is given)

Each file looks like

    {"source": "ucsmsdk 0.9.27",
     "classes": {"computeBlade": {"rn": "blade-{slotId}", "naming": ["slotId"],
                                  "parents": [...], "children": [...],
                                  "verbs": [...], "props": {...}}}}

Usage:

    pip download --no-deps -d /tmp/sdk ucsmsdk==0.9.27 imcsdk==0.9.17 ucscsdk==0.9.0.10
    cd /tmp/sdk && mkdir ucsm imc ucsc
    (cd ucsm && unzip -q ../ucsmsdk-*.whl) && (cd imc && unzip -q ../imcsdk-*.whl)
    (cd ucsc && unzip -q ../ucscsdk-*.whl)
    python3 scripts/gen-ucs-meta.py /tmp/sdk/ucsm /tmp/sdk/imc /tmp/sdk/ucsc

The arguments may point either at the directory that contains the
`ucsmsdk/` / `imcsdk/` / `ucscsdk/` package or at the package directory
itself.  The third (UCS Central) is optional: without it only the first two
files are written.  Use `--out DIR` to write somewhere other than
crates/sim/data.  Classes an SDK does not define are skipped and listed on
stderr.
"""

import argparse
import ast
import json
import os
import re
import sys

# Classes (XML class ids) the simulator models.  Missing ones are skipped.
UCSM_CLASSES = [
    "topSystem", "topRoot", "networkElement", "equipmentChassis",
    "computeBlade", "computeRackUnit", "computeBoard", "storageController",
    "storageLocalDisk", "processorUnit", "memoryArray",
    "computeBladeFsm", "computeBladeFsmStage",
    "computeRackUnitFsm", "computeRackUnitFsmStage",
    "lsServer", "lsServerFsm", "lsServerFsmStage", "lsPower", "lsBinding",
    "lsRequirement", "orgOrg", "computePool", "computePooledSlot",
    "computePooledRackUnit", "cimcvmediaMountConfigPolicy",
    "cimcvmediaActualMountList", "cimcvmediaActualMountEntry",
    "cimcvmediaConfigMountEntry", "cimcvmediaMountConfigDef",
    "lsbootPolicy", "lsbootDef", "lsbootVirtualMedia", "lsbootStorage",
    "lsbootLocalStorage", "lsbootDefaultLocalImage", "lsbootLocalHddImage",
    "lsbootUsbFlashStorageImage", "fabricEp", "fabricLanCloud", "fabricVlan",
    "vnicEther", "vnicEtherIf", "vnicLanConnPolicy", "equipmentFex",
    "mgmtController", "computePhysical", "aaaSession",
    # Inventory an install plan reads: SD cards, the adapters' NICs and their MACs, and
    # the LUNs a profile boots from over a SAN.
    "storageFlexFlashController", "storageFlexFlashCard", "adaptorUnit",
    "adaptorHostEthIf", "lsbootSan", "lsbootSanImage", "lsbootSanImagePath",
    # RAID virtual drives and their member disks (the installer sees the former), and the
    # SAN boot paths of newer boot policies (`lsbootSan` → `sanimg-` → `sanimgpath-`).
    "storageVirtualDrive", "storageVDMemberEp", "lsbootSanCatSanImage",
    "lsbootSanCatSanImagePath",
]

IMC_CLASSES = [
    "topSystem", "computeRackUnit", "computeBoard", "biosUnit",
    "storageController", "storageLocalDisk", "storageVirtualDrive",
    "storageLocalDiskUsage",
    "commSvcEp", "commVMedia", "commVMediaMap", "lsbootDevPrecision",
    "lsbootVMedia", "lsbootHdd", "lsbootPxe", "lsbootUsb", "lsbootDef",
    "lsbootVirtualMedia", "lsbootStorage", "lsbootLan", "mgmtIf",
    "equipmentPsu", "processorUnit", "memoryArray",
    "storageFlexFlashController", "storageFlexFlashPhysicalDrive", "adaptorUnit",
    "adaptorHostEthIf", "networkAdapterUnit", "networkAdapterEthIf",
]

# UCS Central: the global objects a deploy writes or reads (inventory under
# compute/sys-<domainId>, domain registrations under extpol, requirements and
# per-domain instances of global service profiles, operation objects, the
# root domain group that holds global VLANs), plus every UCSM class above that
# Central also has.  Central's model has no
# per-server FSM classes (computeBladeFsm...): those live in each domain's own
# UCS Manager and are reached through configRemoteResolveChildren.
UCSC_CLASSES = UCSM_CLASSES + [
    "computeResourceAggrEp", "computeSystem", "extpolEp", "extpolRegistry",
    "extpolClientCont", "extpolClient", "computeRequirement",
    "computeInstance", "lsServerOperation", "storageLocalDiskOperation",
    "computePhysicalOperation",
    "orgDomainGroup",
]

IMC_PLATFORM = "classic"

# MoPropertyMeta access constants -> names used in the JSON.
ACCESS = {
    "MoPropertyMeta.NAMING": "naming",
    "MoPropertyMeta.CREATE_ONLY": "create-only",
    "MoPropertyMeta.READ_ONLY": "ro",
    "MoPropertyMeta.READ_WRITE": "rw",
    "MoPropertyMeta.INTERNAL": "internal",
}

# Positional argument order of the two metadata constructors (checked against
# ucscoremeta.py / imccoremeta.py / ucsccoremeta.py of ucsmsdk 0.9.27,
# imcsdk 0.9.17 and ucscsdk 0.9.0.10).
MO_META_ARGS = ["name", "xml_attribute", "rn", "version", "inp_out", "mask",
                "field_names", "access_privilege", "parents", "children",
                "verbs"]
PROP_META_ARGS = ["name", "xml_attribute", "field_type", "version", "access",
                  "mask", "min_length", "max_length", "pattern", "value_set",
                  "range_val"]


class Call:
    """A constructor call found in the source: MoMeta(...) etc."""

    def __init__(self, func, args, kwargs):
        self.func = func
        self.args = args
        self.kwargs = kwargs

    def bind(self, names):
        if len(self.args) > len(names):
            raise ValueError("%s() has %d positional args, expected <= %d"
                             % (self.func, len(self.args), len(names)))
        bound = dict(zip(names, self.args))
        bound.update(self.kwargs)
        return bound


def evaluate(node):
    """Evaluate the literal subset of Python used by the generated metadata.

    Attribute references (MoPropertyMeta.NAMING, VersionMeta.Version101e) are
    returned as their dotted name; calls are returned as Call objects.
    """
    if isinstance(node, ast.Constant):
        return node.value
    if isinstance(node, ast.List) or isinstance(node, ast.Tuple):
        return [evaluate(e) for e in node.elts]
    if isinstance(node, ast.Set):
        return set(evaluate(e) for e in node.elts)
    if isinstance(node, ast.Dict):
        return {evaluate(k): evaluate(v) for k, v in zip(node.keys, node.values)}
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return "%s.%s" % (evaluate(node.value), node.attr)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        return -evaluate(node.operand)
    if isinstance(node, ast.Call):
        return Call(evaluate(node.func),
                    [evaluate(a) for a in node.args],
                    {k.arg: evaluate(k.value) for k in node.keywords})
    raise ValueError("unsupported syntax: %s" % ast.dump(node))


def read_class_body(path, class_name):
    """Return {attribute: value} for the assignments in `class class_name`."""
    with open(path, encoding="utf-8") as f:
        tree = ast.parse(f.read(), filename=path)
    for node in tree.body:
        if isinstance(node, ast.ClassDef) and node.name == class_name:
            attrs = {}
            for stmt in node.body:
                if (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1
                        and isinstance(stmt.targets[0], ast.Name)
                        and stmt.targets[0].id in ("mo_meta", "prop_meta")):
                    attrs[stmt.targets[0].id] = evaluate(stmt.value)
            return attrs
    raise ValueError("%s: class %s not found" % (path, class_name))


def find_package(path, package):
    """Accept either the package dir or the dir containing it."""
    if os.path.isfile(os.path.join(path, "__init__.py")) and \
            os.path.basename(os.path.normpath(path)) == package:
        return path
    candidate = os.path.join(path, package)
    if os.path.isfile(os.path.join(candidate, "__init__.py")):
        return candidate
    sys.exit("error: no %s package found at %s" % (package, path))


def sdk_version(pkg_dir):
    with open(os.path.join(pkg_dir, "__init__.py"), encoding="utf-8") as f:
        m = re.search(r"""^__version__\s*=\s*['"]([^'"]+)['"]""", f.read(), re.M)
    if not m:
        sys.exit("error: no __version__ in %s/__init__.py" % pkg_dir)
    return m.group(1)


def index_mometa(pkg_dir):
    """Map class name (e.g. "ComputeBlade") -> path of its mometa module."""
    index = {}
    mometa = os.path.join(pkg_dir, "mometa")
    for sub in sorted(os.listdir(mometa)):
        sub_dir = os.path.join(mometa, sub)
        if not os.path.isdir(sub_dir):
            continue
        for fname in sorted(os.listdir(sub_dir)):
            if fname.endswith(".py") and fname != "__init__.py":
                index[fname[:-3]] = os.path.join(sub_dir, fname)
    return index


def pick_platform(value, platform):
    """imcsdk keys metadata by platform; ucsmsdk does not."""
    if platform is None:
        return value
    if isinstance(value, dict) and platform in value:
        return value[platform]
    if isinstance(value, dict) and ("classic" in value or "modular" in value):
        return None  # class exists, but not on this platform
    return value


def convert_class(class_id, path, platform, warnings):
    """Build the JSON entry for one class, or None if absent on platform."""
    class_name = class_id[0].upper() + class_id[1:]
    body = read_class_body(path, class_name)
    mo_call = pick_platform(body.get("mo_meta"), platform)
    props_raw = pick_platform(body.get("prop_meta"), platform)
    if mo_call is None or props_raw is None:
        return None

    mo = mo_call.bind(MO_META_ARGS)
    if mo["xml_attribute"] != class_id:
        raise ValueError("%s: xml_attribute is %r, expected %r"
                         % (path, mo["xml_attribute"], class_id))

    props = {}
    py_to_xml = {}
    naming_props = set()
    for py_name, call in props_raw.items():
        p = call.bind(PROP_META_ARGS)
        xml = p["xml_attribute"]
        py_to_xml[py_name] = xml
        access = ACCESS[p["access"]]
        if access == "naming":
            naming_props.add(xml)
        entry = {"access": access, "type": p["field_type"]}
        if p["value_set"]:
            entry["values"] = list(p["value_set"])
        if p["pattern"]:
            entry["pattern"] = p["pattern"]
        if p["min_length"] is not None:
            entry["min_len"] = p["min_length"]
        if p["max_length"] is not None:
            entry["max_len"] = p["max_length"]
        if p["range_val"]:
            entry["ranges"] = list(p["range_val"])
        props[xml] = entry

    # rn templates name their naming properties by python name: blade-[slot_id]
    naming = []

    def to_xml(match):
        py_name = match.group(1)
        if py_name not in py_to_xml:
            raise ValueError("%s: rn %r refers to unknown property %r"
                             % (path, mo["rn"], py_name))
        naming.append(py_to_xml[py_name])
        return "{%s}" % py_to_xml[py_name]

    rn = re.sub(r"\[([A-Za-z0-9_]+)\]", to_xml, mo["rn"])
    if set(naming) != naming_props:
        warnings.append("%s: rn %r names %s but NAMING props are %s"
                        % (class_id, rn, sorted(naming), sorted(naming_props)))

    verbs = mo["verbs"] or []
    if None in verbs:
        warnings.append("%s: verbs %r (None dropped)" % (class_id, verbs))
    return {
        "rn": rn,
        "naming": naming,
        "parents": [c for c in mo["parents"] if c],
        "children": [c for c in mo["children"] if c],
        "verbs": [v for v in verbs if v],
        "props": props,
    }


def build(sdk_dir, package, wanted, platform):
    pkg_dir = find_package(sdk_dir, package)
    version = sdk_version(pkg_dir)
    index = index_mometa(pkg_dir)
    classes, skipped, warnings = {}, [], []
    for class_id in wanted:
        path = index.get(class_id[0].upper() + class_id[1:])
        entry = convert_class(class_id, path, platform, warnings) if path else None
        if entry is None:
            skipped.append(class_id)
        else:
            classes[class_id] = entry
    doc = {"source": "%s %s" % (package, version), "classes": classes}
    return doc, skipped, warnings


def write_json(doc, path):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        json.dump(doc, f, indent=1, sort_keys=True, ensure_ascii=False)
        f.write("\n")


def main():
    repo_root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    ap = argparse.ArgumentParser(
        description="Generate UCSM / IMC / UCS Central class metadata JSON for the simulator.")
    ap.add_argument("ucsmsdk", help="unpacked ucsmsdk (dir containing ucsmsdk/)")
    ap.add_argument("imcsdk", help="unpacked imcsdk (dir containing imcsdk/)")
    ap.add_argument("ucscsdk", nargs="?",
                    help="unpacked ucscsdk (dir containing ucscsdk/); optional")
    ap.add_argument("--out", default=os.path.join(repo_root, "crates", "sim", "data"),
                    help="output directory (default: crates/sim/data)")
    args = ap.parse_args()

    jobs = [
        (args.ucsmsdk, "ucsmsdk", UCSM_CLASSES, None, "ucsm-classes.json"),
        (args.imcsdk, "imcsdk", IMC_CLASSES, IMC_PLATFORM, "imc-classes.json"),
    ]
    if args.ucscsdk:
        jobs.append((args.ucscsdk, "ucscsdk", UCSC_CLASSES, None,
                     "ucsc-classes.json"))
    for sdk_dir, package, wanted, platform, out_name in jobs:
        doc, skipped, warnings = build(sdk_dir, package, wanted, platform)
        out = os.path.join(args.out, out_name)
        write_json(doc, out)
        print("%s: %d classes from %s -> %s"
              % (out_name, len(doc["classes"]), doc["source"], out))
        if skipped:
            print("  skipped (not in SDK%s): %s"
                  % (", platform " + platform if platform else "",
                     ", ".join(skipped)), file=sys.stderr)
        for w in warnings:
            print("  note: " + w, file=sys.stderr)


if __name__ == "__main__":
    main()
