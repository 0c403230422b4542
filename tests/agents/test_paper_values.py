"""Each kind as its paper designed it on every model but the embedded one (docs/agents/paper-values.md): the
switches tuned for the 1.5B model take the paper's values for a hosted model, and the docs' table says so."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from lga_fakes import Script, ScriptedModels, lga_input, vote_request

from roundtable.agents.cga.options import CgaOptions
from roundtable.agents.codeact.options import CodeActOptions, CotOptions
from roundtable.agents.lga.graph import build_lga_graph
from roundtable.agents.lga.options import LgaOptions
from roundtable.agents.react.options import ReactOptions
from roundtable.aids.switch import embedded_values
from roundtable.games.errors import ConfigurationError

KINDS = {"lga": LgaOptions, "cga": CgaOptions, "react": ReactOptions, "cot": CotOptions, "codeact": CodeActOptions}
HOSTED = ("gpt-4o", "http://127.0.0.1:8000/v1#meta-llama/Llama-3.1-8B-Instruct")
DOC = Path(__file__).resolve().parents[2] / "docs" / "agents" / "paper-values.md"


@pytest.mark.parametrize("kind", sorted(KINDS))
@pytest.mark.parametrize("model", HOSTED)
def test_a_seat_on_a_hosted_model_gets_the_papers_values(kind, model):
    options = KINDS[kind].parse({}, model)
    assert KINDS[kind].PAPER, f"{kind} lists its paper values"
    for key, value in KINDS[kind].PAPER.items():
        assert getattr(options, key) == value, key
    assert options.word_checks == () and options.vote_check == "off" and not options.knowledge_note


@pytest.mark.parametrize("kind", sorted(KINDS))
@pytest.mark.parametrize("model", [None, "local", "local?timeout=60", "http://127.0.0.1:8080/v1#qwen2.5-coder-1.5b-instruct",
                                   "http://127.0.0.1:8000/v1#llama-3.1-8b?small=true"])
def test_the_embedded_model_keeps_the_values_tuned_for_it(kind, model):
    tuned = embedded_values(KINDS[kind])
    options = KINDS[kind].parse({key: "auto" for key in list(tuned)[:1]}, model)
    assert {key: getattr(options, key) for key in tuned} == tuned
    assert any(tuned[key] != value for key, value in KINDS[kind].PAPER.items()), "a tuned value differs"


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_one_switch_turns_every_aid_off_or_on_whatever_the_model(kind):
    cls = KINDS[kind]
    off = cls.parse({"aids": "off"}, "local")
    assert off.aids == "off" and {key: getattr(off, key) for key in cls.PAPER} == dict(cls.PAPER)
    assert not off.overrules() and not off.drops_sentences() and not off.uses_dry()
    on = cls.parse({"aids": "on"}, "gpt-4o")
    assert on.aids == "on" and {key: getattr(on, key) for key in cls.PAPER} == embedded_values(cls)
    assert on.overrules() and on.drops_sentences() and on.uses_dry()
    assert cls.parse({}, "http://127.0.0.1:8000/v1#llama-3.1-8b?small=false").aids == "off"


def test_aids_on_and_off_from_the_command_line_arrive_as_flags_and_mean_on_and_off():
    """``--agent-option aids=off`` is read as the flag False: it must switch the aids off, not fall back to auto."""
    assert LgaOptions.parse({"aids": False}, "local").aids == "off"
    assert not LgaOptions.parse({"aids": False}, "local").overrules()
    assert LgaOptions.parse({"aids": True}, "gpt-4o").aids == "on"


def test_a_bad_aids_value_is_refused_before_any_call():
    with pytest.raises(ConfigurationError, match="aids"):
        LgaOptions.parse({"aids": "sometimes"}, "local")


def test_a_value_given_is_kept_for_any_model_and_auto_is_the_papers():
    assert LgaOptions.parse({"analysis_words": 40, "word_checks": "copy"}, "gpt-4o").analysis_words == 40
    assert LgaOptions.parse({"word_checks": "copy"}, "gpt-4o").word_checks == ("copy",)
    assert LgaOptions.parse({"analysis_words": "auto"}, "gpt-4o").analysis_words == 100
    assert LgaOptions.parse({"analysis_words": "auto"}, "local").analysis_words == 20
    assert CgaOptions.parse({"fixed_questions": True}, "gpt-4o").fixed_questions


def test_an_lga_seat_on_a_hosted_model_plays_lan_et_als_design():
    """Analysis of up to 100 words, a vote answered alone (no reason first), no Host note of what the player knows."""
    state, request = vote_request(1)
    inp = lga_input(state, request)
    inp["seat"] = {"kind": "lga", "model": "http://127.0.0.1:9/v1#gpt-4o", "options": {}}
    script = Script()
    build_lga_graph(ScriptedModels(script)).compile().invoke(inp)
    assert script.modules() == ["analyze", "plan", "act"], "analysis and plan one call each"
    analyze, _, act = script.calls
    assert "no more than 100 words" in analyze.prompt
    schema = act.schema if isinstance(act.schema, dict) else act.schema.model_json_schema()
    assert "reason" not in schema["properties"], "no reason before the vote"
    assert "so without other evidence your side wants it" not in act.prompt, "no team lines"


def _doc_rows() -> list[tuple[str, str, str, str]]:
    text = DOC.read_text().split("## Switches with a paper value", 1)[1].split("\n## ", 1)[0]
    rows = []
    for line in text.splitlines():
        cells = [c.strip() for c in re.split(r"(?<!\\)\|", line.strip())[1:-1]]
        if len(cells) == 5 and not cells[0].startswith(("kind", "---")):
            rows.append((cells[0], cells[1].strip("`"), cells[2].replace("\\|", "|"), cells[3].replace("\\|", "|")))
    return rows


def _shown(value) -> str:
    if isinstance(value, bool):
        return f"`{str(value).lower()}`"
    if isinstance(value, tuple):
        return f"`{'|'.join(value)}`" if value else ("`none`" if value == () else "none")
    return f"`{value}`" if isinstance(value, str) else str(value)


def test_the_docs_table_lists_every_switch_with_its_paper_and_embedded_values():
    rows = _doc_rows()
    listed = set()
    for kinds, key, paper, local in rows:
        names = list(KINDS) if kinds == "every model-driven kind" else re.findall(r"`(\w+)`", kinds)
        for kind in names:
            cls = KINDS[kind]
            assert key in cls.PAPER, (kind, key)
            assert paper in (_shown(cls.PAPER[key]), "none" if cls.PAPER[key] == () else ""), (kind, key, paper)
            assert local == _shown(embedded_values(cls)[key]), (kind, key, local)
            listed.add((kind, key))
    assert listed == {(kind, key) for kind, cls in KINDS.items() for key in cls.PAPER}
