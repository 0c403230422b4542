"""The package's entry points as an installed distribution would declare them, without installing it.

`register()` (the test suite's conftest) writes a ``dist-info`` with this package's entry points (read from its
``pyproject.toml``) to a temporary folder and puts that folder and the package's root on ``sys.path``, unless the
package is installed (``pip install -e plugins/roundtable-secret-hitler``); importlib.metadata then finds it as it
finds an installed one, as roundtable's own ``tests/plugins`` does for its toy game. It must run before
``roundtable.games`` is first imported: its registries are read once.

Run as a script, it writes one and prints ``PYTHONPATH`` for roundtable's own suites::

    PYTHONPATH=$(.venv/bin/python plugins/roundtable-secret-hitler/tests/dist_info.py) .venv/bin/pytest ...
"""

from __future__ import annotations

import os
import sys
import tempfile
import tomllib
from importlib.metadata import PackageNotFoundError, distribution
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
NAME = "roundtable-secret-hitler"


def write_dist_info(folder: Path) -> Path:
    """A ``dist-info`` of the package in ``folder``, its entry points those of ``pyproject.toml``."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    info = folder / f"{NAME.replace('-', '_')}-{project['version']}.dist-info"
    info.mkdir(parents=True, exist_ok=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {NAME}\nVersion: {project['version']}\n")
    groups = [f"[{group}]\n" + "".join(f"{name} = {target}\n" for name, target in points.items())
              for group, points in project["entry-points"].items()]
    (info / "entry_points.txt").write_text("\n".join(groups))
    return folder


def installed() -> bool:
    """Whether the package is installed in this interpreter (as a distribution with its entry points)."""
    try:
        distribution(NAME)
    except PackageNotFoundError:
        return False
    return True


def register() -> None:
    """Make the package and its entry points visible to this interpreter, unless it is installed."""
    if installed():
        return
    folder = write_dist_info(Path(tempfile.mkdtemp(prefix="roundtable-secret-hitler-")))
    sys.path[:0] = [str(ROOT), str(folder)]


if __name__ == "__main__":
    print(os.pathsep.join([str(ROOT), str(write_dist_info(Path(tempfile.mkdtemp(prefix=f"{NAME}-"))))]))
