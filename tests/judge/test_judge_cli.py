"""``roundtable judge`` as a real subprocess against a fake OpenAI-compatible endpoint answering in prose: a
played game judged and shown, a rerun that asks nothing, an endpoint failing mid-run, an experiment judged and
reported, and bad input refused in one line before any request."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "cli"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from fake_chat import ChatServer  # noqa: E402
from judge_records import avalon_record, store, werewolf_record  # noqa: E402
from test_cli import run  # noqa: E402


def prose(body: dict) -> str:
    """Every named player trusted, no claim, nothing disclosed (prose, one line per player asked about)."""
    question = body["messages"][-1]["content"]
    if "claim a role or side" in question:
        return "none"
    if "what stance" in question:
        named = question.split("towards each of ", 1)[1].split("?", 1)[0]
        return "\n".join(f"Player {p}: trust" for p in re.findall(r"Player (\d+)", named))
    return "\n".join(f"Player {p}: not_disclosed" for p in re.findall(r"Player (\d+) is ", question))


def judge_twice(home: Path, game_id: str, reply) -> tuple[ChatServer, Any, int, Any]:
    """``roundtable judge GAME_ID`` run twice against one fake endpoint: ``(endpoint, first run, requests after
    it, second run)``."""
    endpoint = ChatServer(reply)
    try:
        first = run(home, "judge", game_id, "--model", endpoint.spec)
        asked = len(endpoint.requests)
        second = run(home, "judge", game_id, "--model", endpoint.spec)
    finally:
        endpoint.close()
    return endpoint, first, asked, second


def test_a_played_game_is_judged_shown_and_a_rerun_asks_nothing(tmp_path: Path) -> None:
    home = tmp_path / "data"
    played = run(home, "play", "avalon", "--preset", "lan6", "--seed", "3", "--game-id", "g1", "--quiet")
    assert played.returncode == 0, played.stderr
    endpoint, judged, asked, again = judge_twice(home, "g1", prose)
    assert judged.returncode == 0, judged.stderr
    assert asked > 0 and len(endpoint.requests) == asked  # the rerun made no request
    assert "g1: deception" in judged.stdout and "unusable" not in judged.stdout, judged.stdout
    assert re.search(r"stance \d+ questions \(0 asked now\)", again.stdout), again.stdout
    assert all(r["temperature"] == 0.0 for r in endpoint.requests)
    files = sorted(p.name for p in (home / "records" / "g1.judge").iterdir())
    assert [f.split("-")[0] for f in files] == ["deception", "sharing", "stance"]
    assert len({f.split("-", 1)[1] for f in files}) == 1  # one judge model
    shown = run(home, "show", "g1")
    assert shown.returncode == 0, shown.stderr
    assert re.search(r"Judge \(http://127\.0\.0\.1:\d+/v1#fake\?json_schema=false\): round-1 claims 0 "
                     r"self-disclosure, 0 camouflage, 6 withholding; stances \d+ trust, 0 distrust", shown.stdout)


def test_an_endpoint_failing_mid_run_keeps_what_was_judged_and_the_next_run_continues(tmp_path: Path) -> None:
    home = tmp_path / "data"
    store(home, avalon_record("a1"))
    calls = {"n": 0}

    def flaky(body: dict) -> str:
        calls["n"] += 1
        if calls["n"] == 7:
            raise ConnectionError("the endpoint went away")  # the handler dies: the client sees no reply
        return prose(body)

    endpoint, failed, before, finished = judge_twice(home, "a1", flaky)
    assert failed.returncode == 1, failed.stderr
    assert "kept; run the same command to continue" in failed.stderr and "Traceback" not in failed.stderr
    assert finished.returncode == 0, finished.stderr
    assert "deception 5 questions (0 asked now)" in finished.stdout  # all five were judged before the failure
    assert "stance 7 questions (6 asked now)" in finished.stdout  # the first stance question was not redone
    assert len(endpoint.requests) - before == 6 + 2


def test_an_experiment_is_judged_and_its_report_gets_the_tables(tmp_path: Path) -> None:
    config = tmp_path / "tiny.toml"
    config.write_text('name = "tiny"\ngames_per_condition = 2\nparallel_games = 1\n\n[defaults]\npreset = "lan6"\n'
                      'agents = "naive"\n\n[[conditions]]\nname = "naive"\n')
    directory = tmp_path / "exp"
    ran = run(tmp_path / "data", "experiment", "run", str(config), "--out", str(directory), "--quiet", timeout=300)
    assert ran.returncode == 0, ran.stderr
    endpoint = ChatServer(prose)
    try:
        judged = run(tmp_path / "data", "judge", str(directory), "--model", endpoint.spec, "--behaviour", "stance")
    finally:
        endpoint.close()
    assert judged.returncode == 0, judged.stderr
    assert judged.stdout.count(" stance ") == 2 and "deception" not in judged.stdout
    reported = run(tmp_path / "data", "experiment", "report", str(directory))
    assert reported.returncode == 0, reported.stderr
    report = (directory / "report" / "report.md").read_text()
    assert "## Social behaviour judged by `http://127.0.0.1:" in report and "ChatGPT" in report
    assert "### Teamwork and confrontation per role pair (Lan et al. Fig. 5 shape)" in report
    assert "### Deception in round 1" not in report  # not judged
    pngs = sorted(p.name.split("-")[-1] for p in (directory / "report").glob("judge-*.png"))
    assert pngs == ["stance.png", "vacillation.png"]
    csv = next((directory / "report").glob("judge-*.csv")).read_text()
    assert csv.startswith("metric,condition,group_by,group,k,n,value,low,high,games,interval\ntrust,naive,role_pair,")


@pytest.mark.parametrize("make, args, message", [
    (None, ["nope"], "no game 'nope'"),
    (lambda: avalon_record("a1", status="running"), ["a1"], "game a1 is not finished (status running)"),
    (lambda: {**avalon_record("a1"), "game": "chess"}, ["a1"], "no behaviour is judged in chess"),
    (lambda: werewolf_record("a1"), ["a1", "--behaviour", "sharing"], "behaviour 'sharing' is not judged in werewolf"),
    (lambda: avalon_record("a1"), ["a1", "--model", "http://host:1/v1"], "names a server but no model"),
    (None, ["../etc"], "invalid game id"),
])
def test_bad_input_is_refused_in_one_line_before_any_request(tmp_path: Path, make, args, message) -> None:
    home = tmp_path / "data"
    if make is not None:
        store(home, make())
    endpoint = ChatServer(prose)
    try:
        result = run(home, "judge", *args, *([] if "--model" in args else ["--model", endpoint.spec]))
    finally:
        endpoint.close()
    assert result.returncode == 2, (result.stdout, result.stderr)
    assert message in result.stderr and "Traceback" not in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1, result.stderr
    assert endpoint.requests == []


def test_an_unfinished_game_in_an_experiment_is_left_out_with_a_note(tmp_path: Path) -> None:
    directory = tmp_path / "exp"
    config = tmp_path / "tiny.toml"
    config.write_text('name = "tiny"\ngames_per_condition = 1\n\n[defaults]\npreset = "lan6"\nagents = "naive"\n\n'
                      '[[conditions]]\nname = "naive"\n')
    assert run(tmp_path / "data", "experiment", "run", str(config), "--out", str(directory), "--quiet").returncode == 0
    (directory / "records" / "naive-s0000.json").write_text(json.dumps(avalon_record("naive-s0000", status="running")))
    result = run(tmp_path / "data", "judge", str(directory), "--model", "local")
    assert result.returncode == 2 and "has no finished game to judge (1 planned, 1 started)" in result.stderr
