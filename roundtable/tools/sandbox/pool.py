"""One sandbox per agent in a process: workers are kept alive between decisions and killed at exit.

At most `MAX_WORKERS` workers live at once (a long-lived server plays many
games): the least recently used one is closed when another is needed, and its
agent gets a fresh worker at its next program (variables never outlive a
decision anyway).
"""

from __future__ import annotations

import atexit
import threading
from collections import OrderedDict

from roundtable.tools.sandbox.client import Sandbox, SandboxLimits, SandboxUnavailable

MAX_WORKERS = 16
_POOL: OrderedDict[tuple[str, SandboxLimits], Sandbox] = OrderedDict()
_LOCK = threading.Lock()


def sandbox_for(owner: str, limits: SandboxLimits | None = None) -> Sandbox:
    """The sandbox of ``owner`` (e.g. ``"avalon:GAME:p3"``, one per agent), created on first use.

    The graph state never holds it: it is looked up again by its owner at every
    run, and a lost worker is replaced on the next run.
    """
    key = (owner, limits or SandboxLimits())
    retired: list[Sandbox] = []
    with _LOCK:
        if key not in _POOL:
            _POOL[key] = Sandbox(key[1])
            while len(_POOL) > MAX_WORKERS:
                retired.append(_POOL.popitem(last=False)[1])
        _POOL.move_to_end(key)
        box = _POOL[key]
    for old in retired:
        old.close()
    return box


@atexit.register
def close_all() -> None:
    """Kill every worker of this process (registered to run at exit)."""
    with _LOCK:
        boxes = list(_POOL.values())
        _POOL.clear()
    for box in boxes:
        box.close()


def isolation() -> dict[str, str]:
    """What isolation a sandbox gets on this machine, ``{layer: description or "unavailable: why"}``.

    Starts and stops one worker. ``status`` is ``ok`` when every required layer is in force.
    """
    box = Sandbox(SandboxLimits())
    try:
        layers = dict(box.start())
        layers["status"] = f"ok (worker started in {box.start_seconds * 1000:.0f} ms)"
    except SandboxUnavailable as error:
        layers = dict(box.layers) or {}
        layers["status"] = f"unavailable: {error}"
    finally:
        box.close()
    return layers
