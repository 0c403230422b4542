"""Seeding a fresh llama.cpp slot with the prompt cache of a used slot: the rules are read once, not per player.

Every player's prompt starts with the same rules (the system message), and each player's calls are pinned to a
slot of its own (``id_slot``), but llama.cpp shares no cache between slots: in a fresh server each slot's first
call would read the rules whole. Before a slot's first call, :class:`SlotSeeder` copies the cache of the first
slot that served a call into it with llama.cpp's slot actions (``POST /slots/{id}?action=save``, then
``?action=restore`` on the new slot; the server needs ``slot_save_path``). llama.cpp then reuses the longest
prefix the restored cache shares with the new prompt (the rules) and drops the rest. A copy that fails costs
nothing but the copy: the call runs as it would have, reading its prompt whole. Measured:
docs/measurements.md#prompt-caches-and-slots, ``models/slot_copy.py``.

Source: llama.cpp ``tools/server`` README, "POST /slots/{id_slot}?action=save / restore".
"""

from __future__ import annotations

import logging
import os
import shutil
import tempfile
import threading
from pathlib import Path

import httpx

log = logging.getLogger(__name__)

SEED_TIMEOUT = 120.0
"""Seconds a save or restore may take; a save waits while its source slot is decoding another call."""

SAVE_DIR_PREFIX = "roundtable-slots-"
"""Name of a server's ``slot_save_path`` in the temporary directory: this prefix, the owning process id, ``-``."""


def make_save_dir(parent: Path | str | None = None) -> Path:
    """A new, empty ``slot_save_path`` for this process (``<parent>/roundtable-slots-<pid>-<random>``; parent: the
    system's temporary directory), after removing those of processes no longer running.

    A server stopped normally removes its own directory; one whose process was killed (a game interrupted by
    SIGKILL, a crash) cannot, so the next server started on the machine does.

    Raises:
        OSError: the directory cannot be created.
    """
    parent = Path(parent or tempfile.gettempdir())
    for path in parent.glob(f"{SAVE_DIR_PREFIX}*-*"):
        pid = path.name[len(SAVE_DIR_PREFIX):].split("-", 1)[0]
        if not pid.isdigit() or _running(int(pid)):
            continue
        if path.is_dir():
            shutil.rmtree(path, ignore_errors=True)
        else:  # a copy an earlier version wrote beside its directory
            path.unlink(missing_ok=True)
    return Path(tempfile.mkdtemp(prefix=f"{SAVE_DIR_PREFIX}{os.getpid()}-", dir=parent))


def _running(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # another user's process
        return True
    return True


class SlotSeeder:
    """Copies the first used slot's prompt cache into each slot before its first call.

    Args:
        address: the server's ``http://host:port`` (no ``/v1``).
        save_dir: the server's ``slot_save_path``, where a copy is written and read back (the file is removed
            after the restore).
        slots: the server's slot count; ids outside ``0 .. slots - 1`` are left alone.
        transport: the HTTP transport (default: a real connection; tests pass ``httpx.MockTransport``).
    """

    def __init__(self, address: str, save_dir: Path | str, slots: int,
                 transport: httpx.BaseTransport | None = None) -> None:
        self.address, self.save_dir, self.slots = address.rstrip("/"), Path(save_dir), slots
        self.transport = transport
        self.source: int | None = None
        self.used: set[int] = set()
        self.seeded: dict[int, int] = {}
        """Slots seeded so far: slot id -> tokens restored into it."""
        self._lock = threading.Lock()

    def prepare(self, slot: int | None) -> None:
        """Called before each call pinned to ``slot`` (None: not pinned): on the slot's first call, seed it.

        The first slot ever used becomes the source; it is never seeded itself. Never raises: a failed copy is
        logged (debug) and the call goes on unseeded.
        """
        if slot is None or not 0 <= slot < self.slots:
            return
        with self._lock:
            if slot in self.used:
                return
            self.used.add(slot)
            if self.source is None:
                self.source = slot
                return
            source = self.source
        self.seeded[slot] = self._copy(source, slot)

    def _copy(self, source: int, slot: int) -> int:
        """Save ``source`` and restore it into ``slot``; the tokens restored (0 when the copy failed)."""
        filename = f"seed-{slot}.bin"
        try:
            with httpx.Client(base_url=self.address, timeout=SEED_TIMEOUT, transport=self.transport) as client:
                saved = client.post(f"/slots/{source}", params={"action": "save"}, json={"filename": filename})
                saved.raise_for_status()
                restored = client.post(f"/slots/{slot}", params={"action": "restore"}, json={"filename": filename})
                restored.raise_for_status()
                tokens = int(restored.json().get("n_restored", 0))
        except (httpx.HTTPError, ValueError) as error:
            log.debug("slot %s not seeded from slot %s: %s", slot, source, error)
            tokens = 0
        finally:
            (self.save_dir / filename).unlink(missing_ok=True)
        log.debug("slot %s seeded from slot %s: %s tokens", slot, source, tokens)
        return tokens
