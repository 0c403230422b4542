"""The judge on hand-built records with scripted replies: the tables it gives, its cache (a rerun makes no call,
an interrupted run continues, a changed record or prompt is judged again), and what it refuses before any call."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from judge_records import avalon_record, replies, store, werewolf_record  # noqa: E402

from roundtable.judge.context import JudgeContext  # noqa: E402
from roundtable.judge.graph import judge_game  # noqa: E402
from roundtable.judge.protocol import judges  # noqa: E402
from roundtable.judge.run import JudgeInputError, judge_summaries, judged_record  # noqa: E402
from roundtable.judge.store import judgement_path, model_key  # noqa: E402
from roundtable.metrics.tables import Measure  # noqa: E402
from roundtable.models.errors import ModelUnavailableError  # noqa: E402
from roundtable.testing.scripted import Script, ScriptedModels  # noqa: E402


def table(rows: list[Measure]) -> dict[tuple[str, str, str], tuple[float, float]]:
    return {(r.metric, r.group_by, r.group): (r.k, r.n) for r in rows}


def judged_rows(home: Path, record: dict) -> list[Measure]:
    judged = judged_record(home / "records", record, "local")
    assert judged is not None
    return judges()[record["game"]].measures({"c": [judged]})


def test_avalon_tables_from_scripted_judgements(tmp_path: Path) -> None:
    record = store(tmp_path, avalon_record())
    script = Script(replies=replies())
    out = judge_game("a1", "local", home=tmp_path, models=ScriptedModels(script))
    assert out["judged"] == {"deception": {"items": 5, "asked": 5, "unusable": 0},
                             "stance": {"items": 7, "asked": 7, "unusable": 0},
                             "sharing": {"items": 2, "asked": 2, "unusable": 0}}
    assert {c.temperature for c in script.calls} == {0.0}
    assert all(c.schema is not None for c in script.calls)  # schema-constrained where the endpoint allows
    assert "Player 1 is Merlin, I am sure" not in "".join(c.prompt for c in script.calls)  # private words
    rows = table(judged_rows(tmp_path, record))
    # deception: 1 Merlin claims Servant, 2 Percival claims Percival, 3 and 4 claim nothing, 5 Morgana claims
    # Merlin, 6 Assassin says nothing in round 1
    assert rows[("camouflage", "role", "merlin")] == (1, 1)
    assert rows[("self_disclosure", "role", "percival")] == (1, 1)
    assert rows[("withholding", "role", "servant")] == (2, 2)
    assert rows[("camouflage", "role", "morgana")] == (1, 1)
    assert rows[("withholding", "role", "assassin")] == (1, 1)
    assert rows[("claims", "role_claim", "morgana>merlin")] == (1, 1)
    assert rows[("claims", "role_claim", "merlin>servant")] == (1, 1)
    # stance: Merlin trusted Servant 3 in round 1, distrusted it in round 2
    assert rows[("trust", "role_pair", "merlin>servant")] == (1, 2)
    assert rows[("distrust", "role_pair", "merlin>servant")] == (1, 2)
    assert rows[("distrust", "role_pair", "merlin>morgana")] == (1, 1)
    assert rows[("trust", "role_pair", "percival>merlin")] == (1, 1)
    assert rows[("distrust", "role_pair", "morgana>merlin")] == (1, 1)
    assert rows[("trust", "role_pair", "assassin>servant")] == (1, 1)
    assert rows[("trust", "role_pair_round", "merlin>servant@1")] == (1, 1)
    assert rows[("trust", "role_pair_round", "merlin>servant@2")] == (0, 1)
    assert rows[("trust", "role_pair_round", "servant>assassin@2")] == (1, 1)
    # vacillation: Merlin towards 3 and Servant 4 towards 6 both turned round
    assert rows[("vacillation", "role_pair", "merlin>servant")] == (1, 1)
    assert rows[("vacillation", "role_pair", "servant>assassin")] == (1, 1)
    # sharing: each gave away one of its two facts
    assert rows[("sharing", "role", "merlin")] == (1, 2)
    assert rows[("sharing", "role", "percival")] == (1, 2)
    assert out["summary"].startswith("round-1 claims 1 self-disclosure, 2 camouflage, 3 withholding "
                                     "(P1 merlin as servant; P5 morgana as merlin)")


def test_werewolf_trust_confrontation_and_camouflage_per_side(tmp_path: Path) -> None:
    record = store(tmp_path, werewolf_record())
    from judge_records import WEREWOLF_WORDS

    script = Script(replies=replies(WEREWOLF_WORDS, claim="camouflage"))
    out = judge_game("w1", "local", home=tmp_path, models=ScriptedModels(script))
    assert list(out["judged"]) == ["stance", "camouflage"]
    rows = table(judged_rows(tmp_path, record))
    assert rows[("distrust", "side_pair", "werewolves>village")] == (2, 2)
    assert rows[("distrust", "side_pair", "village>werewolves")] == (1, 1)
    assert rows[("trust", "side_pair", "village>village")] == (1, 1)
    assert rows[("camouflage", "side", "werewolves")] == (2, 2)
    assert rows[("camouflage", "side", "village")] == (0, 2)
    assert rows[("self_disclosure", "side", "village")] == (1, 2)
    assert rows[("camouflage_per_game", "side", "werewolves")] == (2, 1)
    assert "camouflage village 0/2 utterances, werewolves 2/2 utterances" in out["summary"]


def test_prose_replies_are_read_where_the_endpoint_takes_no_schema(tmp_path: Path) -> None:
    record = store(tmp_path, avalon_record())
    scripted = replies()
    prose = {"stance": lambda call: "\n".join(f"Player {k.split('_')[1]}: {v}"
                                              for k, v in json.loads(scripted["stance"](call)).items()),
             "deception": lambda call: json.loads(scripted["deception"](call))["claim"].capitalize() + ".",
             "sharing": lambda call: ("Player 5: disclosed\nPlayer 6: not disclosed" if "Player 1 is Merlin."
                                      in call.prompt else "- Player 1: disclosed\n- Player 5: not_disclosed")}
    script = Script(replies=prose)
    spec = "http://127.0.0.1:9/v1#fake?json_schema=false"
    out = judge_game("a1", spec, home=tmp_path, models=ScriptedModels(script, json=False))
    assert all(c.schema is None for c in script.calls)
    assert all(v["unusable"] == 0 for v in out["judged"].values()), out
    judge_game("a1", "local", home=tmp_path, models=ScriptedModels(Script(replies=replies())))
    judged = judged_record(tmp_path / "records", record, model_key(spec))
    assert judged is not None
    assert table(judges()["avalon"].measures({"c": [judged]})) == table(judged_rows(tmp_path, record))


def test_a_second_run_makes_no_call(tmp_path: Path) -> None:
    store(tmp_path, avalon_record())
    judge_game("a1", "local", home=tmp_path, models=ScriptedModels(Script(replies=replies())))
    again = Script(replies=replies())
    out = judge_game("a1", "local", home=tmp_path, models=ScriptedModels(again))
    assert again.calls == []
    assert all(v["asked"] == 0 for v in out["judged"].values())
    assert judgement_path(tmp_path / "records", "a1", "stance", "local").is_file()


def test_an_interrupted_run_continues_without_redoing_what_was_judged(tmp_path: Path) -> None:
    record = store(tmp_path, avalon_record())
    first = Script(replies=replies(), fail_at=8)  # deception's 5, then the third stance question fails
    with pytest.raises(ModelUnavailableError):
        judge_game("a1", "local", home=tmp_path, models=ScriptedModels(first))
    cached = json.loads(judgement_path(tmp_path / "records", "a1", "stance", "local").read_text())
    assert len(cached["answers"]) == 2 and cached["items"] is None
    assert judged_record(tmp_path / "records", record, "local").answers.keys() == {"deception"}
    second = Script(replies=replies())
    out = judge_game("a1", "local", home=tmp_path, models=ScriptedModels(second))
    assert second.modules() == ["stance"] * 5 + ["sharing"] * 2
    assert out["judged"]["stance"] == {"items": 7, "asked": 5, "unusable": 0}
    assert out["judged"]["deception"]["asked"] == 0


def test_a_record_whose_words_changed_or_an_edited_prompt_is_judged_again(tmp_path: Path) -> None:
    store(tmp_path, avalon_record())
    judge_game("a1", "local", home=tmp_path, models=ScriptedModels(Script(replies=replies())))
    context = JudgeContext.model_validate({"stance_prompt": JudgeContext.model_validate({}).stance_prompt + " "})
    edited = Script(replies=replies())
    judge_game("a1", "local", home=tmp_path, models=ScriptedModels(edited), context=context)
    assert edited.modules() == ["stance"] * 7
    from judge_records import AVALON_WORDS

    changed = [w if w[1] != 4 or w[0] != 1 else (1, 4, "Player 6 seems odd to me.", "none", {6: "neither"})
               for w in AVALON_WORDS]
    store(tmp_path, avalon_record(words=changed))
    later = Script(replies=replies(changed))
    judge_game("a1", "local", home=tmp_path, models=ScriptedModels(later))
    assert later.modules().count("stance") == 7 and later.modules().count("deception") == 5


def test_the_summary_show_prints_names_the_judge_model(tmp_path: Path) -> None:
    record = store(tmp_path, avalon_record())
    assert judge_summaries(tmp_path / "records", record) == []
    judge_game("a1", "local", home=tmp_path, models=ScriptedModels(Script(replies=replies())))
    [line] = judge_summaries(tmp_path / "records", record)
    assert line.startswith("Judge (local): round-1 claims") and "round-1 sharing merlin 1/2, percival 1/2" in line


@pytest.mark.parametrize("make, behaviours, message", [
    (None, None, "no game 'a1'"),
    (lambda: avalon_record(status="running"), None, "is not finished (status running)"),
    (lambda: {**avalon_record(), "game": "chess"}, None, "no behaviour is judged in chess"),
    (werewolf_record, ["sharing"], "behaviour 'sharing' is not judged in werewolf games"),
])
def test_bad_input_is_refused_before_any_call(tmp_path: Path, make, behaviours, message) -> None:
    if make is not None:
        record = make()
        store(tmp_path, {**record, "game_id": "a1"})
    script = Script(replies=replies())
    with pytest.raises(JudgeInputError, match=re.escape(message)):
        judge_game("a1", "local", behaviours, home=tmp_path, models=ScriptedModels(script))
    assert script.calls == []
