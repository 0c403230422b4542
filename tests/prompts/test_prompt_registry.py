"""Prompt registry: every template renders for every role of every preset; context overrides replace file text."""

from __future__ import annotations

import itertools

import jinja2
import pytest

from roundtable.agents.lga.context import PROMPT_FIELDS, LgaContext
from roundtable.agents.lga.turn import Turn
from roundtable.games import avalon
from roundtable.games.protocol import Request
from roundtable.prompts import PromptNotFoundError, registry

CONFIGS = [avalon.AvalonConfig.build(p) for p in ("lan6", "bench5", "play7")] + [
    avalon.AvalonConfig.build("standard", players=n) for n in range(5, 11)
] + [avalon.AvalonConfig.build(roles=["merlin", "percival", "servant", "servant", "servant",
                                      "mordred", "oberon", "assassin"])]
VARIANTS = [
    (),
    ("discussion=before_proposal", "assassination=after_each_quest", "fifth_rejection=leader_assigns",
     "vote_visibility=tally_only"),
    ("discussion=none", "fifth_rejection=auto_approve"),
]


def requests_for(view: avalon.PlayerView) -> list[Request]:
    """One request of every kind and answer shape for ``view.player``."""
    base = {"player": view.player, "round": 2, "attempt": 2}
    everyone = tuple(range(1, view.players + 1))
    pick = {"answer": "pick", "count": 3, "candidates": everyone}
    return [
        Request(id="p", kind="propose_team", phase="proposal", wants_words=True, **pick, **base),
        Request(id="pf", kind="propose_team", phase="proposal", subject=(1, 2, 3), details={"final": True},
                wants_words=True, **pick, **base),
        Request(id="s", kind="speak", phase="discussion", may_pass=True, wants_words=True, **pick, **base),
        Request(id="s2", kind="speak", phase="discussion", answer="words", subject=(1, 2, 3), wants_words=True,
                **base),
        Request(id="c", kind="speak", phase="assassination", answer="words", wants_words=True, audience=(1, 2),
                **base),
        Request(id="v", kind="vote_team", phase="vote_team", answer="yes_no", options=("approve", "reject"),
                unclear=True, subject=(1, 2, 3), **base),
        Request(id="q", kind="quest_card", phase="quest", answer="yes_no", options=("success", "fail"),
                unclear=False, subject=(1, 2), **base),
        Request(id="a", kind="assassinate", phase="assassination", answer="pick", count=1, candidates=(1, 2, 3),
                may_pass=True, wants_words=True, audience=(4, 5), **base),
    ]


def turn_for(view: avalon.PlayerView, request: Request, memory: dict | None = None, aids: str = "auto") -> Turn:
    state = {"view": view.model_dump(mode="json"), "request": request.model_dump(mode="json"),
             "pool": memory or {}, "seat": {"kind": "lga", "model": None, "options": {"aids": aids}}, "seed": 1}
    return Turn.of(state, None)


def render_paper(turn: Turn) -> list[str]:
    """Lan et al.'s templates (the aids off), with the variables the nodes pass."""
    base = turn.base_variables()
    texts = [str(m.content) for m in turn.messages("x")]
    texts.append(turn.context.render("lga/summarize", **turn.paper_variables(ended=True)))
    for scope in ("all", "teammates", "adversaries"):
        texts.append(turn.context.render("lga/analyze", **base, scope=scope, words=100))
    texts.append(turn.context.render("lga/plan", **base))
    for fmt in ("json", "prose"):
        texts.append(turn.context.render("lga/act", **base, instruction=turn.instruction(), choice_help="a choice",
                                         retry_note="", format=fmt))
    for action, direct in (("approve the team", False), ("", True)):
        texts.append(turn.context.render("lga/respond", **base, instruction=turn.instruction(), words=100,
                                         action_text=action, direct=direct, choice_help="a choice", retry_note=""))
    texts.append(turn.context.render("lga/believe", **base, others=[1, 2]))
    return texts


def render_all(turn: Turn) -> list[str]:
    """Every template, with the variables the nodes pass."""
    base = turn.base_variables()
    request = turn.request
    texts = [turn.rules_text(), turn.role_card(), turn.instruction(), base["shared"], base["private"]]
    common = {"instruction": turn.instruction(), "choice_help": "a choice", "words": 50, "retry_note": "",
              "speech": turn.speech()}
    for parts, fmt in itertools.product((["summary"], ["summary", "plan"], ["summary", "analysis", "plan"]),
                                        ("json", "prose")):
        texts.append(turn.context.render("aids/lga/summarize", **base, rounds=[1, 2] if fmt == "json" else [1],
                                         round_public="Host: x", round_private="", words=80, parts=parts,
                                         analysis_words=60, plan_words=40, scope="teammates", scope_players=[1, 2],
                                         format=fmt))
    for scope in ("all", "teammates", "adversaries"):
        texts.append(turn.context.render("aids/lga/analyze", **base, scope=scope, scope_players=[1, 2], words=60,
                                         merge_plan=scope == "all", plan_words=40))
    texts.append(turn.context.render("aids/lga/plan", **base, words=40))
    for fmt, with_words in itertools.product(("json", "prose"), (True, False)):
        texts.append(turn.context.render("aids/lga/act", **base, **common, with_words=with_words, format=fmt,
                                         audience=list(request.audience or []) or None))
    for direct in (True, False):
        texts.append(turn.context.render("aids/lga/respond", **base, **common, action_text="approve the team",
                                         direct=direct, audience=list(request.audience or []) or None))
    for json in (True, False):
        for reason in (True, False):
            texts.append(turn.choice_help(json, reason))
    texts.append(turn.retry_note(1) or "(no retry note for this shape)")
    texts.append(turn.speech())
    for problem in ({"copied": "Player 2"}, {"copied": "Player 1", "yourself": True}, {"thoughts": True},
                    {"named": [1, 2], "team": [3, 4]}, {"named": [1], "team": [], "kill": True},
                    {"exposure": "evil side"}, {"exposure": "merlin names evil"}, {"tactic": True},
                    {"exposure": "names merlin"}, {"exposure": "names seer"},
                    {"vote_out": 1, "vote_reason": "self"}, {"vote_out": 2, "vote_reason": "teammate"},
                    {"vote_out": 3, "vote_reason": "checked_good"}, {"vote_out": 4, "vote_reason": "dead"},
                    {"stance": True, "reason": "side_off_team", "players": []},
                    {"stance": False, "reason": "fifth_team", "players": []},
                    {"stance": True, "reason": "evil_seen", "players": [2]},
                    {"stance": False, "reason": "side_on_team", "players": [1]}):
        texts.append(turn.context.render("checks/words_note", **{"copied": None, "yourself": False, "thoughts": False,
                                                                 "named": [], "team": [], "kill": False,
                                                                 "exposure": None, "tactic": False,
                                                                 "vote_out": None, "vote_reason": None, "me": 1,
                                                                 "stance": None,
                                                                 "reason": None, "players": [], "teams": True,
                                                                 "side": turn.view.side, "game": "avalon"}
                                         | problem))
    for action in ({"players": [1, 2, 3]}, {"passed": True}, {"choice": True}, {"choice": False}):
        texts.append(turn.decided(action) or "(no action for this shape)")
    if request.answer != "words":
        texts.append(turn.context.render(f"extraction/{request.answer}", reply="I pick 2", kind=request.kind,
                                         count=request.count or 0, players=turn.view.players, candidates=[1, 2, 3],
                                         may_pass=True, options=list(request.options)))
    for field in ("players", "player", "reason", "answer", "words", "note"):
        texts.append(turn.context.describe(field, kind=request.kind, count=3, may_pass=True,
                                           options=list(request.options), words=10, name="plan"))
    return texts


@pytest.mark.parametrize("config", CONFIGS, ids=lambda c: f"{c.preset}{c.players}")
@pytest.mark.parametrize("rules", VARIANTS, ids=["official", "lan", "silent"])
def test_every_template_renders_for_every_role(config, rules):
    config = avalon.AvalonConfig(roles=config.roles, rules=config.rules.with_overrides(list(rules)),
                                 preset=config.preset)
    state = avalon.new_game(config, seed=7)
    memory = {"summary": "S", "analysis": "A", "plan": "P", "board": ["Quest 1 (players 1, 2) succeeded."],
              "records": [{"speaker": "Host", "text": "Quest 2 begins.", "round": 2, "phase": "proposal",
                           "vis": "public"}]}
    seen_roles = set()
    for player in state.players:
        view = avalon.view(state, player)
        seen_roles.add(view.role)
        for request in requests_for(view):
            for text in render_all(turn_for(view, request, memory)) + render_paper(
                    turn_for(view, request, memory, aids="off")):
                assert text and "{{" not in text and "{%" not in text and "None" not in text
    assert seen_roles == {r.value for r in config.roles}


def test_role_cards_exist_for_every_role_and_say_goal_and_strategy():
    """The game's card states the role's facts and a strategy only when one is given; the aids' card always has one
    (ours) and, but for Oberon, a voting rule."""
    for role in avalon.Role:
        everyone = [r.value for r in avalon.Role]
        text = registry.render(f"avalon/roles/{role.value}", title=role.title, player=1, role_set=everyone, strategy="")
        assert role.title in text and "Goal:" in text and "Strategy:" not in text and "Voting:" not in text
        custom = registry.render(f"avalon/roles/{role.value}", title=role.title, player=1, role_set=[], strategy="X Y")
        assert "Strategy: X Y" in custom
        aided = registry.render(f"aids/avalon/roles/{role.value}", title=role.title, player=1, role_set=everyone,
                                strategy="")
        assert text.splitlines()[0] in aided and "Strategy:" in aided
        assert ("Voting:" in aided) == (role != avalon.Role.OBERON)


def test_registry_names_and_errors():
    names = registry.names()
    for name in ("avalon/rules", "avalon/narration", "avalon/knowledge", "avalon/team_knowledge", "lga/summarize",
                 "lga/analyze", "lga/plan", "lga/act", "lga/respond", "answers/choice_help", "answers/retry_note",
                 "avalon/decided", "aids/lga/context", "avalon/speech", "checks/words_note", "answers/field",
                 "extraction/pick", "extraction/yes_no"):
        assert name in names
    with pytest.raises(PromptNotFoundError, match="no prompt template"):
        registry.text("lga/nope")
    with pytest.raises(jinja2.UndefinedError):
        registry.render("lga/plan", shared="", private="")  # analysis, plan, words missing
    with pytest.raises(jinja2.exceptions.SecurityError):
        registry.render("x", source="{{ ''.__class__.__mro__[1].__subclasses__() }}")


def test_extraction_templates_have_worked_examples():
    for shape, count in (("pick", 1), ("pick", 3), ("yes_no", None)):
        text = registry.render(f"extraction/{shape}", reply="R", kind="k", count=count, players=6,
                               candidates=[1, 2], may_pass=False, options=["approve", "reject"])
        assert text.count("Reply:") >= 4  # at least three examples and the reply to read


def test_context_fields_default_to_files_and_carry_studio_metadata():
    context = LgaContext()
    schema = LgaContext.model_json_schema()["properties"]
    for field, (template, nodes, _) in PROMPT_FIELDS.items():
        assert getattr(context, field) == registry.text(template)
        assert schema[field]["langgraph_type"] == "prompt"
        assert schema[field]["langgraph_nodes"] == [*nodes, *(f"lga:{n}" for n in nodes), "lga"]
    assert context.temperature == 0.3 and context.extraction_temperature == 0.0


def test_context_overrides_replace_the_file_text():
    context = LgaContext(rules_prompt="Custom rules for {{ players }} players.",
                         role_merlin_prompt="Wizard card {{ title }}.")
    assert context.render("avalon/rules", players=6) == "Custom rules for 6 players."
    assert context.render("avalon/roles/merlin", title="Merlin") == "Wizard card Merlin."


def test_an_agent_reads_its_own_context_from_the_games():
    from roundtable.agents.protocol import agent_context

    assert agent_context(LgaContext, "lga", {"lga": {"plan_prompt": "P"}}).plan_prompt == "P"
    with pytest.raises(ValueError, match="unrelated"):
        agent_context(LgaContext, "lga", {"unrelated": 1})
    assert agent_context(LgaContext, "lga", None) == LgaContext()
    own = LgaContext(temperature=0.5)
    assert agent_context(LgaContext, "lga", own) is own

    class Game:
        lga = own
        breakpoints: list[str] = []

    assert agent_context(LgaContext, "lga", Game()) is own
