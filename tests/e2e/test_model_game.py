"""End to end on the real embedded model (marked ``model``; ``-m "not model"`` skips them).

Short configurations keep CI under its time budget: a 5-player game in which
Merlin is an ``lga`` agent on the embedded model (behind a server that is down
at first, then up) and the rest rule bots; the other kinds' tests play
``--model local``, the model inside the process.
The full-size target (a ``lan6`` game with six ``lga`` agents) is measured by
``benchmarks/bench_lga_game.py``, not here.
"""

from __future__ import annotations

import socket
from pathlib import Path

import pytest
from e2e_cli import record, run

from roundtable.agents.lga.options import LgaOptions
from roundtable.aids.switch import embedded_values

pytestmark = pytest.mark.model


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def test_an_lga_seat_stops_when_its_endpoint_is_dead_and_the_game_resumes_to_its_end_when_it_is_back(
        tmp_path: Path) -> None:
    from roundtable.models.local import LocalServer, LocalSettings
    from roundtable.models.weights import ensure_weights

    port = _free_port()
    spec = f"http://127.0.0.1:{port}/v1#local?max_retries=1"
    # the embedded model's switches and values, which a server spec does not get by itself (auto: `local` only;
    # docs/agents/paper-values.md): this game plays the embedded model behind a port
    tuned = [f"{key}={'|'.join(value) if isinstance(value, tuple) else str(value).lower()}"
             for key, value in embedded_values(LgaOptions).items()]
    args = ["play", "avalon", "--preset", "bench5", "--seed", "2", "--game-id", "real",
            "--agents", "naive,merlin=lga", "--model", spec, "--json",
            *[part for option in ("merge_plan=true", "merge_summary=true", "dry=true", "overrule=true", *tuned)
              for part in ("--agent-option", f"merlin:{option}")]]
    stopped = run(tmp_path, *args, timeout=300)
    assert stopped.returncode == 1
    assert f"127.0.0.1:{port}" in stopped.stderr and "unavailable" in stopped.stderr
    assert "roundtable resume real" in stopped.stderr
    assert record(tmp_path, "real")["status"] == "interrupted"

    with LocalServer(ensure_weights(), LocalSettings(port=port)):
        resumed = run(tmp_path, "resume", "real", "--json")
    assert resumed.returncode == 0, resumed.stderr[-3000:]
    data = record(tmp_path, "real")
    assert data["status"] == "finished" and data["winner"] in ("good", "evil")
    lga_seats = {int(p) for p, seat in enumerate(data["seats"], start=1) if seat["kind"] == "lga"}
    assert {int(p) for p, role in data["roles"].items() if role == "merlin"} == lga_seats
    lga_decisions = [d for d in data["decisions"] if d["player"] in lga_seats]
    assert lga_decisions, "the lga seat made no decision"
    assert sum(d["usage"]["calls"] for d in lga_decisions) > 0
    assert sum(d["usage"]["prompt_tokens"] for d in lga_decisions) > 0
    assert any(d.get("raw") for d in lga_decisions), "raw model replies are kept"
    spoken = [u for u in data["utterances"] if u["speaker"] in lga_seats]
    assert spoken and all(u["text"].strip() for u in spoken)
    assert data["usage"]["game"]["calls"] == sum(d["usage"]["calls"] for d in lga_decisions)
    shown = run(tmp_path, "show", "real")
    assert "Model cost" in shown.stdout
