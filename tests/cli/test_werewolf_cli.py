"""``roundtable play werewolf`` and the commands on its games, on a temporary data directory: the record, the
measures computed from it, options refused before the game (in process, `typer.testing.CliRunner`), kill -9
of a real subprocess then resume."""

from __future__ import annotations

import dataclasses
import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from roundtable.agents.registry import AGENT_KINDS
from roundtable.cli.main import app
from roundtable.metrics import game_days, werewolf_outcomes

CLI = [sys.executable, "-m", "roundtable.cli.main"]
GAME = ["play", "werewolf", "--seed", "21", "--agents", "naive,2=random"]


def run(home: Path, *args: str, input: str | None = None) -> subprocess.CompletedProcess[str]:
    stdin = {"input": input} if input is not None else {"stdin": subprocess.DEVNULL}
    return subprocess.run([*CLI, *args], capture_output=True, text=True, timeout=120,
                          env=os.environ | {"ROUNDTABLE_HOME": str(home)}, **stdin)


def invoke(home: Path, *args: str):
    """The command run in this process (a fresh interpreter costs seconds on a loaded machine)."""
    return CliRunner().invoke(app, list(args), env={"ROUNDTABLE_HOME": str(home)}, catch_exceptions=False)


def record(home: Path, game_id: str) -> dict:
    return json.loads((home / "records" / f"{game_id}.json").read_text())


def test_a_werewolf_game_records_every_night_action_death_statement_vote_and_the_result(tmp_path: Path) -> None:
    done = invoke(tmp_path, *GAME, "--game-id", "w1", "--json")
    assert done.exit_code == 0, done.stderr
    summary = json.loads(done.stdout.strip().splitlines()[-1])
    data = record(tmp_path, "w1")
    assert (data["game"], data["status"]) == ("werewolf", "finished")
    assert summary["winner"] == data["winner"] in ("village", "werewolves") and data["end_reason"]
    assert sorted(data["roles"].values()) == sorted(["werewolf"] * 2 + ["villager"] * 2 + ["seer", "witch", "guard"])
    actions = {a["action"] for a in data["night_actions"]}
    assert {"kill", "protect", "save", "see"} <= actions
    assert all({"day", "by", "target"} <= set(a) for a in data["night_actions"])
    assert len(data["deaths"]) == len(data["night_results"]) >= 1
    assert data["votes"] and data["vote_results"] and data["utterances"]
    public = [u for u in data["utterances"] if u["phase"] in ("day_talk", "last_words")]
    night = [u for u in data["utterances"] if u not in public]
    assert public and all(u["to"] is None for u in public), "day words are public"
    wolves = {int(p) for p, role in data["roles"].items() if role == "werewolf"}
    assert all(u["phase"] == "werewolves" and set(u["to"]) <= wolves for u in night), \
        "xu7's werewolves vote in turn, their words heard by the werewolves only"
    outcomes = werewolf_outcomes([data])
    assert (outcomes.games, outcomes.days) == (1, (data["days"],)) and data["days"] == game_days(data) >= 2
    assert outcomes.village_wins == (data["winner"] == "village")
    assert data["seats"][1]["kind"] == "random" and {d["agent"] for d in data["decisions"]} == {"naive", "random"}


@pytest.mark.parametrize(("args", "message"), [
    (["--agents", "lga"], "agent kind 'lga' does not play werewolf; kinds that do: cga, cot, human, naive, random"),
    (["--agents", "naive,seer=codeact"], "agent kind 'codeact' does not play werewolf"),
    (["--agents", "naive,merlin=random"], "merlin"),
    (["--preset", "lan6"], "unknown Werewolf preset 'lan6'"),
    (["--players", "8"], "is for 7 players, not 8"),
    (["--rule", "max_days=100"], "max_days must be a whole number from 1 to 50"),
    (["--rule", "discussion=none"], "unknown Werewolf rule variant 'discussion'"),
    (["--setting", "lan"], "werewolf offers no named settings; give a preset and rule variants instead"),
])
def test_bad_options_are_refused_before_the_game_starts(tmp_path: Path, args: list[str], message: str,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    # every model kind plays every game with a table: lga, codeact and react are made Avalon-only here, to see a
    # kind that does not play the game refused
    for kind in ("lga", "codeact", "react"):
        monkeypatch.setitem(AGENT_KINDS, kind, dataclasses.replace(AGENT_KINDS[kind], games=frozenset({"avalon"})))
    result = invoke(tmp_path, "play", "werewolf", *args)
    assert result.exit_code == 2 and message in " ".join(result.stderr.split()), result.stderr
    assert not (tmp_path / "records").exists() or not list((tmp_path / "records").iterdir())


def test_kill_minus_nine_then_resume_gives_the_uninterrupted_game(tmp_path: Path) -> None:
    proc = subprocess.Popen([*CLI, *GAME, "--game-id", "killed", "--pace", "0.01"], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, stdin=subprocess.DEVNULL,
                            env=os.environ | {"ROUNDTABLE_HOME": str(tmp_path)})
    assert proc.stdout is not None
    for line in proc.stdout:
        if line.startswith("Night 2 falls"):
            break
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait(timeout=30)
    assert proc.returncode == -signal.SIGKILL
    assert record(tmp_path, "killed")["status"] == "running"
    assert "killed                 interrupted" in invoke(tmp_path, "list").stdout
    resumed = run(tmp_path, "resume", "killed", "--json")
    assert resumed.returncode == 0, resumed.stderr
    assert invoke(tmp_path, *GAME, "--game-id", "straight", "--quiet").exit_code == 0
    killed, straight = record(tmp_path, "killed"), record(tmp_path, "straight")
    assert killed["status"] == "finished" and killed["events"] == straight["events"]
    assert (killed["winner"], killed["end_reason"], killed["days"]) == (straight["winner"], straight["end_reason"],
                                                                       straight["days"])


def test_show_history_list_and_replay_cover_werewolf_games(tmp_path: Path) -> None:
    assert invoke(tmp_path, *GAME, "--game-id", "w2", "--quiet").exit_code == 0
    shown = invoke(tmp_path, "show", "w2")
    assert shown.exit_code == 0 and "Night 1 falls" in shown.stdout and "Game over: the " in shown.stdout
    assert "[to " in shown.stdout, "show prints the night's private actions, marked"
    history = invoke(tmp_path, "history", "w2").stdout
    for phase in ("werewolves", "guard", "witch", "seer", "dawn", "day_talk", "day_vote"):
        assert f" {phase} " in history
    assert "w2" in invoke(tmp_path, "list").stdout
    page = invoke(tmp_path, "replay", "w2")
    assert page.exit_code == 0 and "Night 1 falls" in Path(page.stdout.strip()).read_text()
