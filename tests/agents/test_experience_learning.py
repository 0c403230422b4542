"""Experience learning between two consecutive games of an experiment, with scripted models (no real model)."""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import pytest
from lga_fakes import FAKE_MODEL, Call, Script, ScriptedModels

from roundtable.experiments.learning import STORE_FILE
from roundtable.experiments.runner import run_experiment

CONFIG = f"""
name = "learn"
games_per_condition = 2
parallel_games = 1
retention = "delete"

[defaults]
preset = "bench5"
agents = "naive,merlin=lga"
models = "{FAKE_MODEL}"
rules = {{ discussion = "none", fifth_rejection = "auto_approve" }}

[[conditions]]
name = "full"
learning = {{}}

[[conditions]]
name = "other"
learning = {{}}

[[conditions]]
name = "is"
learning = {{ own_strategy = false }}

[[conditions]]
name = "ao"
learning = {{ other_roles = false }}

[[conditions]]
name = "frozen"
learning = {{ frozen = true }}
"""


def learning_replies() -> Script:
    counter = itertools.count(1)

    def respond(call: Call) -> str:
        text = call.prompt
        if "Task: Rewrite your strategy" in text:
            return f"LEARNED-STRATEGY-{next(counter)}: lead with trusted servants."
        if "Task: Give three suggestions" in text:
            return "1. Trust the servants.\n2. Hide your sight.\n3. Watch the assassin."
        if "Task: Describe in at most 100 words how the" in text:
            return f"ROLE-NOTE-{next(counter)}: played quietly."
        return "I agree with this team."

    return Script(replies={"respond": respond, "suggestions": respond, "strategy": respond, "other_role": respond})


@pytest.fixture(scope="module")
def experiment(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Script]:
    tmp = tmp_path_factory.mktemp("learning")
    (tmp / "learn.toml").write_text(CONFIG)
    script = learning_replies()
    summary = run_experiment(tmp / "learn.toml", tmp / "exp", models=ScriptedModels(script))
    assert not summary.failed and len(summary.finished) == 10, summary
    return tmp / "exp", script


def seat_options(directory: Path, game_id: str) -> dict:
    record = json.loads((directory / "records" / f"{game_id}.json").read_text())
    merlin = next(int(p) for p, r in record["roles"].items() if r == "merlin")
    return record["seats"][merlin - 1]["options"]


def game_prompts(script: Script, marker: str) -> list[str]:
    """Prompts of the agents' game calls (not the reflections) that contain ``marker``."""
    return [c.prompt for c in script.calls if marker in c.prompt and "Task: Rewrite" not in c.prompt
            and "Task: Give three" not in c.prompt and "Task: Describe in at most" not in c.prompt]


def test_the_second_game_plays_with_the_strategy_written_after_the_first(experiment) -> None:
    directory, script = experiment
    assert seat_options(directory, "full-s0000") == {}
    options = seat_options(directory, "full-s0001")
    assert options["strategy"].startswith("LEARNED-STRATEGY-")
    assert "ROLE-NOTE-" in options["role_notes"] and "Assassin:" in options["role_notes"]
    prompts = game_prompts(script, options["strategy"])
    assert prompts, "the learned strategy never reached a prompt"
    assert all(f"Your playing style is that {options['strategy']}" in p for p in prompts), "Lan et al.'s system prompt"
    assert any("strategies of other roles from previous games:" in p and "ROLE-NOTE-" in p for p in prompts)


def test_is_and_ao_switch_off_what_they_name(experiment) -> None:
    directory, _ = experiment
    is_options = seat_options(directory, "is-s0001")
    assert "strategy" not in is_options and "ROLE-NOTE-" in is_options["role_notes"]
    ao_options = seat_options(directory, "ao-s0001")
    assert ao_options["strategy"].startswith("LEARNED-STRATEGY-") and "role_notes" not in ao_options


def test_two_learners_stay_apart_and_frozen_learns_nothing(experiment) -> None:
    directory, _ = experiment
    full, other = seat_options(directory, "full-s0001"), seat_options(directory, "other-s0001")
    assert full["strategy"] != other["strategy"]
    assert not game_prompts(experiment[1], full["strategy"]) or all(
        other["strategy"] not in p for p in game_prompts(experiment[1], full["strategy"]))
    assert seat_options(directory, "frozen-s0001") == {}
    from langgraph.store.sqlite import SqliteStore

    with SqliteStore.from_conn_string(str(directory / STORE_FILE)) as store:
        spaces = {ns[1] for ns in store.list_namespaces(prefix=("lga",))}
        items = store.search(("lga", "full"))
    assert spaces == {"full", "other", "is", "ao"}
    merlin = [i for i in items if i.key == "merlin"]
    assert len(merlin) == 1 and merlin[0].value["games"] == ["full-s0000", "full-s0001"]


def test_a_rerun_learns_from_no_game_twice(experiment, tmp_path: Path) -> None:
    directory, _ = experiment
    script = learning_replies()
    again = run_experiment(directory / "experiment.toml", directory, models=ScriptedModels(script))
    assert again.skipped == 10 and not again.finished
    assert not script.calls


def test_what_was_learned_is_exported_and_put_back_elsewhere_without_replacing(experiment, tmp_path: Path) -> None:
    from roundtable.experiments.learning import Learning

    directory, _ = experiment
    items = Learning(directory).export()
    assert {tuple(i["namespace"][:2]) for i in items} == {("lga", c) for c in ("full", "other", "is", "ao")}
    merlin = next(i for i in items if i["namespace"][1] == "full" and i["key"] == "merlin")
    assert merlin["value"]["games"] == ["full-s0000", "full-s0001"]
    assert Learning(tmp_path / "empty").export() == []

    elsewhere = Learning(tmp_path)
    mine = {**merlin, "value": {"strategy": "learned here", "games": ["full-s0000"]}}
    assert elsewhere.restore([mine]) == 1
    assert elsewhere.restore(items) == len(items) - 1, "what a learner learned here is not replaced"
    assert elsewhere.export() == [mine if i is merlin else i for i in items]
    with pytest.raises(ValueError, match="not a learned item"):
        elsewhere.restore([{"key": "merlin"}])
