"""The command line for Shi et al.'s setting: --setting, the codeact/cot options, show's AvalonPlay measures, doctor."""

from __future__ import annotations

from pathlib import Path

from test_cli import record, run


def test_a_setting_plays_its_preset_and_variants_and_show_prints_the_measures(tmp_path: Path) -> None:
    home = tmp_path / "data"
    result = run(home, "play", "avalon", "--setting", "avalonplay", "--seed", "4", "--game-id", "ap", "--json",
                 "--quiet")
    assert result.returncode == 0, result.stderr
    data = record(home, "ap")
    assert data["config"]["preset"] == "play7"
    assert data["config"]["rules"]["two_fail_quests"] == "four_and_five"
    assert data["config"]["rules"]["evil_quest_card"] == "must_fail"
    shown = run(home, "show", "ap")
    assert shown.returncode == 0, shown.stderr
    line = next(x for x in shown.stdout.splitlines() if x.startswith("AvalonPlay measures:"))
    assert "Game Win" in line and "Quest Win" in line and "Team Acc" in line


def test_rules_override_a_setting_and_an_unknown_setting_is_refused(tmp_path: Path) -> None:
    home = tmp_path / "data"
    result = run(home, "play", "avalon", "--setting", "avalonplay", "--rule", "discussion=none", "--seed", "4",
                 "--game-id", "ap2", "--quiet", "--json")
    assert result.returncode == 0, result.stderr
    assert record(home, "ap2")["config"]["rules"]["discussion"] == "none"
    refused = run(home, "play", "avalon", "--setting", "shi")
    assert refused.returncode == 2
    assert "valid settings: official, lan, avalonbench, avalonplay" in refused.stderr


def test_codeact_options_are_checked_before_the_game_starts(tmp_path: Path) -> None:
    home = tmp_path / "data"
    bad = run(home, "play", "avalon", "--setting", "avalonplay", "--agents", "cot,good=codeact",
              "--agent-option", "good:leader=python")
    assert bad.returncode == 2 and "leader" in bad.stderr
    not_cot = run(home, "play", "avalon", "--setting", "avalonplay", "--agents", "cot",
                  "--agent-option", "leader=react")
    assert not_cot.returncode == 2 and "leader" in not_cot.stderr


def test_help_names_the_settings_and_doctor_reports_the_sandbox(tmp_path: Path) -> None:
    home = tmp_path / "data"
    assert "avalonplay: play7" in " ".join(run(home, "play", "--help").stdout.split())
    doctor = run(home, "doctor")
    assert doctor.returncode == 0, doctor.stdout + doctor.stderr
    assert "syscalls" in doctor.stdout and "status: ok" in doctor.stdout
