"""The package imports on its own, before anything of roundtable is imported (as a user's script would)."""

from __future__ import annotations

import os
import subprocess
import sys

from dist_info import ROOT


def test_the_package_imports_first_in_a_fresh_interpreter() -> None:
    path = os.pathsep.join(filter(None, [str(ROOT), *sys.path]))
    done = subprocess.run([sys.executable, "-c", "import roundtable_secret_hitler as sh; print(sh.RULES.name)"],
                          capture_output=True, text=True, env=os.environ | {"PYTHONPATH": path}, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip() == "secret_hitler"
