"""Seeding a fresh llama.cpp slot from the first used one (`roundtable.models.slot_seeding`), against a fake server."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from pathlib import Path

import httpx
import pytest

from roundtable.models.slot_seeding import SlotSeeder, make_save_dir


class FakeSlots:
    """llama.cpp's slot actions: save writes ``filename`` under the save directory, restore reads it back."""

    def __init__(self, save_dir: Path, fail: str | None = None) -> None:
        self.save_dir, self.fail = save_dir, fail
        self.actions: list[tuple[str, int, str]] = []
        self.lock = threading.Lock()

    def __call__(self, request: httpx.Request) -> httpx.Response:
        slot = int(request.url.path.rsplit("/", 1)[1])
        action = request.url.params["action"]
        filename = json.loads(request.content)["filename"]
        with self.lock:
            self.actions.append((action, slot, filename))
        if action == self.fail:
            return httpx.Response(500, json={"error": {"message": "failed"}})
        path = self.save_dir / filename
        if action == "save":
            path.write_text(f"cache of slot {slot}")
            return httpx.Response(200, json={"id_slot": slot, "filename": filename, "n_saved": 321})
        assert path.read_text().startswith("cache of slot"), "restore reads what save wrote"
        return httpx.Response(200, json={"id_slot": slot, "filename": filename, "n_restored": 321})


def seeder(tmp_path: Path, fail: str | None = None, slots: int = 6) -> tuple[SlotSeeder, FakeSlots]:
    fake = FakeSlots(tmp_path, fail)
    return SlotSeeder("http://127.0.0.1:9", tmp_path, slots, transport=httpx.MockTransport(fake)), fake


def test_the_first_slot_used_is_the_source_and_each_other_slot_is_seeded_once(tmp_path: Path) -> None:
    seeding, fake = seeder(tmp_path)
    seeding.prepare(2)
    assert fake.actions == [] and seeding.source == 2
    seeding.prepare(2)
    seeding.prepare(0)
    assert fake.actions == [("save", 2, "seed-0.bin"), ("restore", 0, "seed-0.bin")]
    seeding.prepare(0)
    seeding.prepare(2)
    assert len(fake.actions) == 2, "a slot already used is never seeded again"
    assert seeding.seeded == {0: 321}
    assert list(tmp_path.iterdir()) == [], "the copy's file is removed"


@pytest.mark.parametrize("slot", [None, -1, 6, 10])
def test_calls_not_pinned_to_a_slot_of_the_server_are_left_alone(tmp_path: Path, slot: int | None) -> None:
    seeding, fake = seeder(tmp_path)
    seeding.prepare(slot)
    seeding.prepare(1)
    assert seeding.source == 1 and fake.actions == []


@pytest.mark.parametrize("fail", ["save", "restore"])
def test_a_failed_copy_is_not_an_error_and_is_not_retried(tmp_path: Path, fail: str) -> None:
    seeding, fake = seeder(tmp_path, fail)
    seeding.prepare(0)
    seeding.prepare(1)
    assert seeding.seeded == {1: 0}
    seeding.prepare(1)
    assert [a for a, *_ in fake.actions] == (["save"] if fail == "save" else ["save", "restore"])
    assert list(tmp_path.iterdir()) == []


def test_an_unreachable_server_costs_nothing_but_the_copy(tmp_path: Path) -> None:
    seeding = SlotSeeder("http://127.0.0.1:1", tmp_path, 4)  # nothing listens on port 1
    seeding.prepare(0)
    seeding.prepare(3)
    assert seeding.seeded == {3: 0}


def test_simultaneous_first_calls_seed_each_slot_once(tmp_path: Path) -> None:
    seeding, fake = seeder(tmp_path)
    seeding.prepare(0)
    threads = [threading.Thread(target=seeding.prepare, args=(slot,)) for slot in (1, 2, 3, 4, 5) for _ in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    restored = sorted(slot for action, slot, _ in fake.actions if action == "restore")
    assert restored == [1, 2, 3, 4, 5]
    assert seeding.seeded == dict.fromkeys(range(1, 6), 321)


def test_a_new_save_dir_removes_those_of_processes_no_longer_running(tmp_path):
    ended = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    dead = tmp_path / f"roundtable-slots-{int(ended.stdout)}-abc"  # a killed server's directory, with a saved slot
    dead.mkdir()
    (dead / "slot0.bin").write_bytes(b"kv")
    stray = tmp_path / f"{dead.name}seed-1.bin"  # where llama.cpp wrote copies before the path had its separator
    stray.write_bytes(b"kv")
    alive = tmp_path / f"roundtable-slots-{os.getppid()}-def"  # a running process's: kept
    alive.mkdir()
    other = tmp_path / "roundtable-slots-xyz"  # not named by a process: kept
    other.mkdir()
    made = make_save_dir(tmp_path)
    assert made.is_dir() and made.name.startswith(f"roundtable-slots-{os.getpid()}-") and not any(made.iterdir())
    assert not dead.exists() and not stray.exists() and alive.is_dir() and other.is_dir()
