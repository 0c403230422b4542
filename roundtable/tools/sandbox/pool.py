"""One sandbox per agent in a process: workers are kept alive between decisions and killed at exit."""

from __future__ import annotations

import atexit
import threading

from .client import Sandbox, SandboxLimits, SandboxUnavailable

_POOL: dict[tuple[str, SandboxLimits], Sandbox] = {}
_LOCK = threading.Lock()


def sandbox_for(owner: str, limits: SandboxLimits | None = None) -> Sandbox:
    """The sandbox of ``owner`` (e.g. ``"avalon:GAME:p3"``, one per agent), created on first use.

    The graph state never holds it: it is looked up again by its owner at every
    run, and a lost worker is replaced on the next run.
    """
    key = (owner, limits or SandboxLimits())
    with _LOCK:
        if key not in _POOL:
            _POOL[key] = Sandbox(key[1])
        return _POOL[key]


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
