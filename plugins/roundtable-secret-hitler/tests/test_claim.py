"""The plugin claim kept honest (issue 60, part 4): roundtable's own package never names this game, so everything
the game needs reaches roundtable through the entry points alone."""

from __future__ import annotations

import re
from pathlib import Path

import roundtable

NAMES = re.compile(r"secret[ _-]?hitler|roundtable_secret_hitler", re.IGNORECASE)
"""``secret_hitler``, ``secret hitler``, ``Secret Hitler``, ``roundtable_secret_hitler``, in any case."""


def test_no_file_of_roundtables_package_names_the_game():
    root = Path(roundtable.__file__).resolve().parent
    named = []
    for path in sorted(root.rglob("*")):
        if not path.is_file() or "__pycache__" in path.parts:
            continue
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue
        named += [f"{path.relative_to(root.parent)}:{n}: {line.strip()}"
                  for n, line in enumerate(text.splitlines(), start=1) if NAMES.search(line)]
    assert not named, "roundtable names the plugin's game:\n" + "\n".join(named)
