#!/usr/bin/env python
"""`make native`: compile the VABG engine's hot modules with mypyc (simulator/native.py).

    scripts/build_native.py [--or-source] [--clean]

Nothing is done when the build on disk was made from the source as it is now (the stamp
simulator/.native-stamp holds the source's digest). Otherwise the old extensions are removed
first (a running server keeps the files it loaded), the modules of simulator.native.COMPILED
are compiled with mypyc and gcc (about a minute on one core), and the stamp is written last:
an interrupted build leaves no stamp, and the engine runs from its source until the next
build. --or-source: a failed build (no C compiler, say) says so and exits 0, the engine then
running from its source; --clean removes the build and exits.
"""

from __future__ import annotations

import argparse
import importlib.machinery
import importlib.util
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parent.parent

# Run by a subprocess in ROOT (module names come from the paths relative to it): mypyc turns
# the modules into C, setuptools compiles them and puts each extension beside its source.
COMPILE = """
import sys
from mypyc.build import mypycify
from setuptools import setup

config, build, group, *paths = sys.argv[1:]
setup(
    name="vabg-native",
    packages=[],  # the extensions only: no package discovery in the flat layout
    ext_modules=mypycify(
        ["--config-file", config, *paths], opt_level="3", group_name=group, target_dir=build
    ),
    script_args=["--quiet", "build_ext", "--inplace", "--build-temp", build, "--build-lib", build],
)
"""


def load_native() -> ModuleType:
    """Load simulator/native.py by its path: importing the package would import the very
    modules about to be rebuilt."""
    spec = importlib.util.spec_from_file_location("_vabg_native", ROOT / "simulator" / "native.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def outputs(native: ModuleType) -> list[Path]:
    """Every extension in the simulator's tree: what this build or an earlier one put there."""
    suffixes = tuple(importlib.machinery.EXTENSION_SUFFIXES)
    return [path for path in (ROOT / "simulator").rglob("*.*") if path.name.endswith(suffixes)]


def clean(native: ModuleType) -> None:
    """Remove the stamp, then the extensions (unlinked: a process that loaded one keeps it)."""
    native.STAMP.unlink(missing_ok=True)
    for path in outputs(native):
        path.unlink()


def build(native: ModuleType) -> str:
    """Compile the group; return what failed, or "" once the stamp is written."""
    digest = native.source_digest()
    paths = [str(native.source_path(module).relative_to(ROOT)) for module in native.COMPILED]
    with tempfile.TemporaryDirectory(prefix="vabg-native-") as tmp:
        config = Path(tmp) / "mypy.ini"
        # mypyc type-checks what it compiles; the project's own configuration loads the
        # Django plugin, which the engine does not need (and must not: it imports no Django).
        config.write_text("[mypy]\nfollow_imports = silent\n", encoding="utf-8")
        done = subprocess.run(
            [
                sys.executable,
                "-c",
                COMPILE,
                str(config),
                str(Path(tmp) / "build"),
                native.GROUP,
                *paths,
            ],
            cwd=ROOT,
            # No fused multiply-adds where the machine has them (gcc contracts a*b+c by
            # default): a float sum rounds as the source's does, bit for bit.
            env={**os.environ, "CFLAGS": (os.environ.get("CFLAGS", "") + " -ffp-contract=off")},
            capture_output=True,
            text=True,
            check=False,
        )
    if done.returncode != 0:
        clean(native)
        lines = (done.stdout + done.stderr).strip().splitlines()
        return "\n".join(line for line in lines if "error" in line.lower())[-3000:] or "\n".join(
            lines[-20:]
        )
    if native.source_digest() != digest:
        clean(native)
        return "the source changed while it was compiled: run make native again"
    native.STAMP.write_text(digest + "\n", encoding="utf-8")
    return ""


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--or-source", action="store_true", help="on failure, say so and exit 0 (the source runs)"
    )
    parser.add_argument("--clean", action="store_true", help="remove the build and exit")
    args = parser.parse_args()
    native = load_native()
    if args.clean:
        clean(native)
        print("make native: the build is removed; the engine runs from its source")
        return 0
    if native.verdict(env={}) == "compiled":
        return 0
    clean(native)
    if shutil.which("gcc") is None and shutil.which("cc") is None:
        failure = "no C compiler (gcc or cc) on the PATH"
    else:
        print(f"make native: compiling {len(native.COMPILED)} engine modules with mypyc ...")
        start = time.monotonic()
        failure = build(native)
        if not failure:
            print(f"make native: compiled in {time.monotonic() - start:.0f} s")
            return 0
    print(
        f"make native: the engine could not be compiled, so it runs from its source (the same "
        f"games, about 1.6 times slower):\n{failure}",
        file=sys.stderr,
    )
    return 0 if args.or_source else 1


if __name__ == "__main__":
    sys.exit(main())
