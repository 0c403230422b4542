"""`roundtable experiment run|status|report`: bot-only experiments end to end, killed and rerun, refused configs."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import pytest

from roundtable.experiments.config import ExperimentConfigError, parse_config, resolve_games
from roundtable.experiments.manifest import read_runs
from roundtable.experiments.runner import run_experiment

CLI = [sys.executable, "-m", "roundtable.cli.main", "experiment"]

TINY = """
name = "tiny"
games_per_condition = {games}
parallel_games = {parallel}
retention = "{retention}"

[defaults]
preset = "bench5"
agents = "naive"
rules = {{ fifth_rejection = "auto_approve" }}

[[conditions]]
name = "naive"

[[conditions]]
name = "random-evil"
agents = "naive,evil=random"
"""

REPORT_FILES = ("report.md", "measures.csv", "cost.csv", "win_rate.png", "evil_qer_fvr.png", "role_lar_srr.png")


def write_config(path: Path, games: int = 6, parallel: int = 2, retention: str = "delete", extra: str = "") -> Path:
    path.write_text(TINY.format(games=games, parallel=parallel, retention=retention) + extra)
    return path


def cli(*args: str, home: Path, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*CLI, *args], capture_output=True, text=True, timeout=timeout, stdin=subprocess.DEVNULL,
                          env=os.environ | {"ROUNDTABLE_HOME": str(home)})


def finished_lines(directory: Path) -> list[str]:
    return [r["game_id"] for r in read_runs(directory) if r["status"] == "finished"]


def report_bytes(directory: Path) -> dict[str, bytes]:
    return {name: (directory / "report" / name).read_bytes() for name in REPORT_FILES}


def outcomes(directory: Path) -> dict[str, tuple]:
    out = {}
    for path in sorted((directory / "records").glob("*.json")):
        record = json.loads(path.read_text())
        out[path.stem] = (record["status"], record["winner"], record["end_reason"], len(record["events"]))
    return out


@pytest.fixture(scope="module")
def uninterrupted(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The reference: the experiment run once, straight through, and its report."""
    tmp = tmp_path_factory.mktemp("straight")
    config = write_config(tmp / "tiny.toml")
    done = cli("run", str(config), "--out", str(tmp / "exp"), "--quiet", home=tmp / "home")
    assert done.returncode == 0, done.stderr
    assert cli("report", str(tmp / "exp"), home=tmp / "home").returncode == 0
    return tmp / "exp"


def test_a_bot_experiment_runs_end_to_end(uninterrupted: Path) -> None:
    manifest = json.loads((uninterrupted / "manifest.json").read_text())
    assert manifest["planned"] == manifest["finished"] == 12
    assert set(manifest["conditions"]) == {"naive", "random-evil"}
    assert all(c["wall_seconds"] > 0 and c["cost"]["games"] == 6 for c in manifest["conditions"].values())
    assert sorted(finished_lines(uninterrupted)) == sorted(outcomes(uninterrupted))
    report = (uninterrupted / "report" / "report.md").read_text()
    assert "| naive | 6 |" in report and "| random-evil | 6 |" in report
    assert "12 of the configuration's 12 games finished" in report
    # the default retention deletes finished games' threads: the database holds no checkpoint
    import sqlite3

    con = sqlite3.connect(uninterrupted / "checkpoints.sqlite")
    assert con.execute("SELECT COUNT(*) FROM checkpoints").fetchone()[0] == 0
    con.close()
    # so `show` reads such a game from its record
    shown = subprocess.run([sys.executable, "-m", "roundtable.cli.main", "show", "naive-s0000"], capture_output=True,
                           text=True, timeout=120, env=os.environ | {"ROUNDTABLE_HOME": str(uninterrupted)})
    assert shown.returncode == 0, shown.stderr
    assert "Game over:" in shown.stdout and "Unfinished" not in shown.stdout
    assert "Play quality, decisions:" in shown.stdout


def test_killed_mid_run_and_rerun_loses_nothing_runs_nothing_twice(tmp_path: Path, uninterrupted: Path) -> None:
    config = write_config(tmp_path / "tiny.toml", parallel=3)
    out = tmp_path / "exp"
    proc = subprocess.Popen([*CLI, "run", str(config), "--out", str(out), "--quiet"], stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL,
                            env=os.environ | {"ROUNDTABLE_HOME": str(tmp_path / "home")})
    deadline = time.monotonic() + 120
    while len(finished_lines(out)) < 3 and time.monotonic() < deadline and proc.poll() is None:
        time.sleep(0.05)
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=30)
    killed_with = len(finished_lines(out))
    assert 3 <= killed_with < 12, "the run was not killed mid-way"

    status = cli("status", str(out), home=tmp_path / "home")
    assert status.returncode == 0 and f"{killed_with}/12 finished" in status.stdout

    rerun = cli("run", str(config), "--out", str(out), "--quiet", home=tmp_path / "home")
    assert rerun.returncode == 0, rerun.stderr
    assert f"{killed_with} before" in rerun.stdout
    runs = Counter(finished_lines(out))
    assert len(runs) == 12 and set(runs.values()) == {1}, runs  # every game finished exactly once
    assert outcomes(out) == outcomes(uninterrupted)  # resumed games end as uninterrupted ones
    assert cli("report", str(out), home=tmp_path / "home").returncode == 0
    assert report_bytes(out) == report_bytes(uninterrupted)


def test_sigterm_mid_run_starts_no_more_games_and_logs_no_failure_then_the_rerun_finishes(tmp_path: Path,
                                                                                         uninterrupted: Path) -> None:
    """A terminated run closed its checkpoints while its worker went on to the next games, each logged "failed:
    Cannot operate on a closed database" (the AvalonPlay reproduction, stopped by SIGTERM on 2026-11-28)."""
    config = write_config(tmp_path / "tiny.toml", games=10, parallel=1)
    out = tmp_path / "exp"
    proc = subprocess.Popen([*CLI, "run", str(config), "--out", str(out), "--quiet"], stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True, stdin=subprocess.DEVNULL,
                            env=os.environ | {"ROUNDTABLE_HOME": str(tmp_path / "home")})
    deadline = time.monotonic() + 120
    while len(finished_lines(out)) < 2 and time.monotonic() < deadline and proc.poll() is None:
        time.sleep(0.05)
    proc.send_signal(signal.SIGTERM)
    _, stderr = proc.communicate(timeout=60)
    assert proc.returncode == 143 and "rerun the same command" in stderr
    runs = read_runs(out)
    assert 2 <= len(finished_lines(out)) < 20, "the run was not stopped mid-way"
    assert not [r for r in runs if r["status"] == "failed"], runs
    assert len(runs) <= len(finished_lines(out)) + 1, "at most the game in play is logged unfinished"
    rerun = cli("run", str(config), "--out", str(out), "--quiet", home=tmp_path / "home")
    assert rerun.returncode == 0, rerun.stderr
    assert Counter(finished_lines(out)) == Counter({gid: 1 for gid in finished_lines(out)})
    assert len(finished_lines(out)) == 20


def test_a_failing_game_is_reported_retried_and_never_counted(tmp_path: Path) -> None:
    dead = '\n[[conditions]]\nname = "dead"\nagents = "naive,merlin=lga"\nmodels = "http://127.0.0.1:9/v1#none?max_retries=0&timeout=2"\n'
    config = write_config(tmp_path / "tiny.toml", games=2, extra=dead)
    out = tmp_path / "exp"
    summary = run_experiment(config, out)
    assert sorted(summary.failed) == ["dead-s0000", "dead-s0001"]
    assert all("unavailable" in e.lower() or "connect" in e.lower() for e in summary.failed.values()), summary.failed
    assert len(summary.finished) == 4
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["conditions"]["dead"]["finished"] == 0 and set(manifest["failures"]) == set(summary.failed)
    again = run_experiment(config, out)
    assert again.skipped == 4 and sorted(again.failed) == ["dead-s0000", "dead-s0001"]
    attempts = Counter(r["game_id"] for r in read_runs(out))
    assert attempts["dead-s0000"] == 2 and attempts["naive-s0000"] == 1

    status = cli("status", str(out), home=tmp_path / "home")
    assert "failed (retried by the next run): dead-s0000" in status.stdout


@pytest.mark.parametrize(("extra", "replace", "named"), [
    ("", ("games_per_condition", "games_per_conditon"), "games_per_conditon"),
    ("", ('agents = "naive,evil=random"', 'agents = "naive,evil=randm"'), "conditions[random-evil].agents"),
    ("", ('preset = "bench5"', 'preset = "bench9"'), "conditions[naive]: preset"),
    ("", ('fifth_rejection = "auto_approve"', 'fifth_rejection = "sometimes"'), "fifth_rejection"),
    ("", ("retention = \"delete\"", "retention = \"shred\""), "retention"),
    ("\n[[conditions]]\nname = \"naive\"\n", ("", ""), "repeated: naive"),
    ("\n[[conditions]]\nname = \"bad name!\"\n", ("", ""), "conditions.2.name"),
    ("\n[[conditions]]\nname = \"ctx\"\ncontext = { nonsense = 1 }\n", ("", ""), "conditions[ctx].context"),
    ("\n[[conditions]]\nname = \"opt\"\nagent_options = [\"no_such=1\"]\nagents = \"lga\"\n", ("", ""),
     "conditions[opt].agents/models/agent_options"),
    ("\n[[conditions]]\nname = \"pub\"\npublished = \"light2023.baseline.nope\"\n", ("", ""),
     "conditions.2.published: unknown published figure 'light2023.baseline.nope'"),
])
def test_an_invalid_configuration_is_refused_before_any_game(tmp_path: Path, extra: str, replace, named: str) -> None:
    config = write_config(tmp_path / "bad.toml", extra=extra)
    config.write_text(config.read_text().replace(*replace, 1) if replace[0] else config.read_text())
    out = tmp_path / "exp"
    refused = cli("run", str(config), "--out", str(out), home=tmp_path / "home")
    assert refused.returncode == 2, refused.stdout + refused.stderr
    assert named in refused.stderr, refused.stderr
    assert not out.exists() and not (tmp_path / "home").exists()


def test_not_toml_and_another_experiments_directory_are_refused(tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text("name = ")
    assert "not valid TOML" in cli("run", str(bad), home=tmp_path / "h").stderr
    with pytest.raises(ExperimentConfigError, match="games_per_condition"):
        parse_config('name = "x"\n[[conditions]]\nname = "a"\n')
    one = write_config(tmp_path / "one.toml", games=1)
    run_experiment(one, tmp_path / "exp")
    other = write_config(tmp_path / "two.toml", games=2)
    refused = cli("run", str(other), "--out", str(tmp_path / "exp"), home=tmp_path / "h")
    assert refused.returncode == 2 and "holds another configuration" in refused.stderr


def test_same_seeds_across_conditions_and_condition_overrides() -> None:
    config = parse_config(TINY.format(games=3, parallel=1, retention="keep_all"))
    games = resolve_games(config)
    assert [g.game_id for g in games] == ["naive-s0000", "naive-s0001", "naive-s0002", "random-evil-s0000",
                                          "random-evil-s0001", "random-evil-s0002"]
    assert games[0].inputs["config"]["rules"]["fifth_rejection"] == "auto_approve"
    assert [g.seed for g in games[:3]] == [g.seed for g in games[3:]] == [0, 1, 2]
    assert {s["kind"] for s in games[0].inputs["seats"]} == {"naive"}
    assert sorted(s["kind"] for s in games[3].inputs["seats"]) == ["naive"] * 3 + ["random"] * 2


@pytest.mark.parametrize("policy", ["keep_all", "keep_last", "delete"])
def test_retention_policies(tmp_path: Path, policy: str) -> None:
    import sqlite3

    from roundtable.experiments.runner import data_home
    from roundtable.play.runner import open_runner

    config = write_config(tmp_path / "tiny.toml", games=1, retention=policy)
    run_experiment(config, tmp_path / "exp")
    con = sqlite3.connect(tmp_path / "exp" / "checkpoints.sqlite")
    per_thread = dict(con.execute("SELECT thread_id, COUNT(*) FROM checkpoints GROUP BY thread_id").fetchall())
    con.close()
    if policy == "delete":
        assert per_thread == {}
        return
    assert set(per_thread) == {"naive-s0000", "random-evil-s0000"}
    assert all(n > 1 for n in per_thread.values()) if policy == "keep_all" else set(per_thread.values()) == {1}
    with data_home(tmp_path / "exp"), open_runner() as runner:  # the kept state is the whole game
        values, finished = runner.state("naive-s0000")
        record = json.loads((tmp_path / "exp" / "records" / "naive-s0000.json").read_text())
        assert finished and values["events"] == record["events"]


def test_a_werewolf_experiment_reports_xu_et_al_measures(tmp_path: Path) -> None:
    from roundtable.experiments.config import load_config
    from roundtable.experiments.report import write_report
    from roundtable.metrics.werewolf import werewolf_outcomes

    shipped = Path(__file__).resolve().parents[2] / "experiments" / "tiny_werewolf.toml"
    config_path = tmp_path / "wolves.toml"
    config_path.write_text(shipped.read_text().replace("games_per_condition = 20", "games_per_condition = 3"))
    run_experiment(config_path, tmp_path / "exp")
    config, _ = load_config(config_path)
    report = write_report(tmp_path / "exp", config, resolve_games(config)).read_text()
    records = [json.loads(p.read_text()) for p in sorted((tmp_path / "exp" / "records").glob("naive-*.json"))]
    naive = werewolf_outcomes(records)
    assert naive.games == 3
    row = next(line for line in report.splitlines() if line.startswith("| naive | 3 |"))
    assert f"{100 * naive.village_win_rate:.1f}%" in row and f"{naive.mean_days:.2f}" in row
    assert "| random-werewolves | 3 |" in report and "Game outcomes (AvalonBench)" not in report
    assert (tmp_path / "exp" / "report" / "win_rate.png").is_file()


def test_games_n_plays_each_conditions_first_games_and_a_later_run_continues(tmp_path: Path) -> None:
    config = write_config(tmp_path / "tiny.toml", games=3)
    small = cli("run", str(config), "--out", str(tmp_path / "exp"), "--quiet", "--games", "1", home=tmp_path / "home")
    assert small.returncode == 0, small.stderr
    assert sorted(finished_lines(tmp_path / "exp")) == ["naive-s0000", "random-evil-s0000"]
    status = cli("status", str(tmp_path / "exp"), home=tmp_path / "home")
    assert "2/6 finished" in status.stdout
    rest = cli("run", str(config), "--out", str(tmp_path / "exp"), "--quiet", home=tmp_path / "home")
    assert rest.returncode == 0, rest.stderr
    assert "4 games finished now, 2 before" in rest.stdout
    assert Counter(finished_lines(tmp_path / "exp")) == Counter(
        f"{c}-s{s:04d}" for c in ("naive", "random-evil") for s in range(3))


def test_condition_plays_only_the_named_conditions_and_an_unknown_one_is_refused(tmp_path: Path) -> None:
    config = write_config(tmp_path / "tiny.toml", games=2)
    home = tmp_path / "home"
    some = cli("run", str(config), "--out", str(tmp_path / "exp"), "--quiet", "--condition", "random-evil",
               "--games", "1", home=home)
    assert some.returncode == 0, some.stderr
    assert finished_lines(tmp_path / "exp") == ["random-evil-s0000"]
    unknown = cli("run", str(config), "--out", str(tmp_path / "exp"), "--quiet", "--condition", "nave", home=home)
    assert unknown.returncode == 2
    assert "no condition 'nave' in 'tiny'; its conditions: naive, random-evil" in unknown.stderr
    rest = cli("run", str(config), "--out", str(tmp_path / "exp"), "--quiet", home=home)
    assert "3 games finished now, 1 before" in rest.stdout


def test_parallel_overrides_the_configurations_games_at_once_for_this_run_only(tmp_path: Path) -> None:
    config = write_config(tmp_path / "tiny.toml", games=1, parallel=4)
    seen: list[int] = []

    def one_at_a_time(config, games, *rest):  # the executor's call: (config, games, directory, listener, ...)
        seen.append(config.parallel_games)

    run_experiment(config, tmp_path / "exp", executor=one_at_a_time, parallel=1)
    run_experiment(config, tmp_path / "exp", executor=one_at_a_time)
    assert seen == [1, 4]
    with pytest.raises(ExperimentConfigError, match="parallel games 0: give 1 to 64"):
        run_experiment(config, tmp_path / "exp", executor=one_at_a_time, parallel=0)
