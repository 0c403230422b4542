"""Whether one slot's prompt cache can seed the others on the embedded llama.cpp server: slot save and restore.

Every player's prompt starts with the same rules (the system message), but each player's calls are pinned to a
slot of its own, and llama.cpp does not share a cache between slots: in a fresh process each slot's first call
reads the rules whole. llama.cpp's slot actions (``POST /slots/{id}?action=save`` / ``restore``, enabled by
``slot_save_path``) write one slot's cache to a file and load it into another. This measures, on a server with
the embedded model's settings plus a save directory, with the rules of a recorded ``lan6`` game (or a synthetic
rules text):

1. the first call on slot 0 (cold), then the save of slot 0 and its restore into slots 1 and 2 (milliseconds);
2. a first call on slots 1 and 2 (restored) and on slot 3 (not restored): prompt tokens, of them cached, seconds.

    python benchmarks/models/slot_copy.py [--record RECORD.json]

The embedded server now seeds each fresh slot so (`roundtable.models.slot_seeding`;
docs/measurements.md#prompt-caches-and-slots).
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

from roundtable.models.local import LocalSettings, server_params
from roundtable.models.weights import ensure_weights

SYNTHETIC_RULES = " ".join(
    f"Rule {i}: the leader of quest {i % 5 + 1} proposes a team; every player votes approve or reject; "
    f"a majority approves; good players always play success; evil players may play fail." for i in range(1, 12)
)


def rules_of(record: str | None) -> str:
    """The system message (rules) of the first logged prompt of a game record, or the synthetic rules."""
    if not record:
        return SYNTHETIC_RULES
    data = json.loads(Path(record).read_text())
    for decision in data["decisions"]:
        for call in decision.get("usage", {}).get("log", []):
            return str(call["prompt"][0]["content"])
    raise SystemExit(f"{record}: no logged prompt")


def start(save_dir: str) -> Any:
    """An embedded server (`roundtable.models.local.server_params`, default settings) whose slot actions save
    under ``save_dir``."""
    import xllamacpp

    return xllamacpp.Server(server_params(ensure_weights(), LocalSettings.from_env(), save_dir))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--record", help="a game record whose rules prompt to use (default: synthetic rules)")
    args = parser.parse_args()
    rules = rules_of(args.record)
    with tempfile.TemporaryDirectory() as save_dir:
        server = start(save_dir)
        address = server.listening_address.rstrip("/")

        def call(slot: int, user: str) -> None:
            started = time.perf_counter()
            body = {"model": "local", "max_tokens": 4, "id_slot": slot,
                    "messages": [{"role": "system", "content": rules}, {"role": "user", "content": user}]}
            usage = httpx.post(f"{address}/v1/chat/completions", json=body, timeout=600).json()["usage"]
            cached = usage.get("prompt_tokens_details", {}).get("cached_tokens", 0)
            print(f"first call on slot {slot}: {usage['prompt_tokens']} prompt tokens, {cached} cached, "
                  f"{time.perf_counter() - started:.2f} s")

        def action(slot: int, name: str) -> None:
            reply = httpx.post(f"{address}/slots/{slot}?action={name}", json={"filename": "slot0.bin"},
                               timeout=60).json()
            timing = next(iter(reply.get("timings", {}).values()), float("nan"))
            print(f"{name} slot {slot}: {reply.get('n_saved', reply.get('n_restored'))} tokens, {timing:.1f} ms")

        call(0, "Player 1 here. Say hi.")
        action(0, "save")
        for slot in (1, 2):
            action(slot, "restore")
        for slot, player in ((1, 2), (2, 3), (3, 4)):
            call(slot, f"Player {player} here. Say hi.")
        del server


if __name__ == "__main__":
    main()
