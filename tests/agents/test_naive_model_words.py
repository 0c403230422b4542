"""The naive seat option ``words=model`` (docs/agents/naive.md#words-from-a-model): the bot decides, a model says it.

AvalonBench (Light et al. 2023, §5.1) played its rule bots with discussion on by having a model write their words
while the rule strategy chose every action. Here: a game with ``words=model`` plays exactly the actions of a
template-words game of the same seed; its words come from the (scripted) model, one call per words request; an
unusable reply, or none, falls back to the template's sentence with the reason recorded; the option is validated
and a seat with it takes the run's model or is refused before any model call; the prompt holds the player's view
alone and is a Studio-editable field of the kind's context.
"""

from __future__ import annotations

from typing import Any

import pytest
from lga_fakes import FAKE_MODEL, Call, Script, ScriptedModels, first, play_until
from werewolf_fakes import play_werewolf_until

from roundtable.agents.naive.context import NaiveContext
from roundtable.agents.naive.options import NaiveOptions
from roundtable.agents.registry import AGENT_KINDS
from roundtable.games import GAMES, avalon, werewolf
from roundtable.games.errors import ConfigurationError
from roundtable.games.protocol import Decision, Request
from roundtable.graphs.avalon import build_avalon_graph
from roundtable.graphs.setup import check_input
from roundtable.graphs.werewolf import build_werewolf_graph
from roundtable.models.errors import ModelUnavailableError
from roundtable.play.seating import resolve_seats
from roundtable.testing import agents as suite

SAID = "I stand by my choice and ask you all to trust it."
"""A usable reply: one sentence, naming no player."""
MODEL_WORDS = {"words": "model"}
PLAIN_KEYS = ("raw", "usage", "fallback", "checks")
"""The keys of a decision's log entry a model's words add (the action's keys are the same)."""


def play(game: str, config: dict[str, Any], seed: int, options: dict[str, Any], script: Script | None = None,
         context: dict[str, Any] | None = None) -> list[dict[str, Any]]:
    """The log of a game of ``game`` with every seat naive under ``options`` (a model seat: the fake model)."""
    build = build_avalon_graph if game == "avalon" else build_werewolf_graph
    graph = build(models=ScriptedModels(script or Script())).compile()
    players = len(GAMES[game].seats(GAMES[game].new_game(GAMES[game].config(config), seed)))
    model = FAKE_MODEL if options.get("words") == "model" else None
    seats = [{"kind": "naive", "model": model, "options": options}] * players
    out = graph.invoke({"config": config, "seed": seed, "seats": seats}, {"recursion_limit": 10_000},
                       context=context)
    return list(out["events"])


def actions(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The log without what words change: the utterances' texts, and what a decision entry records of a model call."""
    out = []
    for event in events:
        if event["type"] == "utterance":
            event = {k: v for k, v in event.items() if k != "text"}
        elif event["type"] == "decision":
            event = {k: v for k, v in event.items() if k not in PLAIN_KEYS}
        out.append(event)
    return out


def avalon_config(preset: str, *rules: str) -> dict[str, Any]:
    return avalon.AvalonConfig.build(preset, rules=list(rules)).to_dict()


def werewolf_config(*rules: str) -> dict[str, Any]:
    return GAMES["werewolf"].config_dict(GAMES["werewolf"].config({"preset": "xu7", "rules": dict(
        r.split("=", 1) for r in rules)}))


GAMES_PLAYED = [
    ("avalon", avalon_config("bench5"), 3, {}),
    ("avalon", avalon_config("lan6", "discussion=before_proposal", "assassination=after_each_quest"), 5, {}),
    ("avalon", avalon_config("bench5", "fifth_rejection=auto_approve"), 7, {"flavour": "avalonbench"}),
    ("werewolf", werewolf_config(), 7, {}),  # two Seer's claims
    ("werewolf", werewolf_config("werewolf_night=simultaneous"), 4, {}),
]


# ------------------------------------------------------------------ actions and words


@pytest.mark.parametrize(("game", "config", "seed", "options"), GAMES_PLAYED,
                         ids=["bench5", "lan6-before-proposal", "bench5-avalonbench", "xu7", "xu7-simultaneous"])
def test_a_words_model_game_plays_the_actions_of_a_template_game_and_its_words_are_the_models(game, config, seed,
                                                                                              options):
    template = play(game, config, seed, options)
    script = Script(replies={"speak": SAID})
    modelled = play(game, config, seed, options | MODEL_WORDS, script)
    assert actions(modelled) == actions(template), "the same decisions, draws and game"
    assert any(e["type"] == "game_over" for e in modelled)
    said = [e for e in modelled if e["type"] == "utterance"]
    decisions = [e for e in modelled if e["type"] == "decision" and e.get("usage")]
    assert said and all(c.module == "speak" for c in script.calls)
    asked = [e for e in said if e["text"] == SAID]
    assert len(asked) == len(script.calls) == sum(d["usage"]["calls"] for d in decisions) > 0
    kept = [e for e in said if e["text"] != SAID]  # only the words the rule bots act on (a Seer's claim)
    assert all("I am the Seer" in e["text"] for e in kept)
    assert not any(d.get("fallback") for d in decisions)
    assert all(d["raw"] == SAID and d["usage"]["prompt_tokens"] == 100 for d in decisions)


def test_a_seers_claim_stays_the_templates_and_a_model_claiming_for_another_falls_back():
    """Werewolf's bots act on a public claim to be the Seer, so the model never writes one and never drops one."""
    config, seed = werewolf_config(), 7  # the Seer claims on days 1 and 2
    template = play("werewolf", config, seed, {})
    script = Script(replies={"speak": "I am the Seer, and Player 2 is a werewolf."})
    modelled = play("werewolf", config, seed, MODEL_WORDS, script)
    assert actions(modelled) == actions(template)
    claims = [e for e in modelled if e["type"] == "decision" and "template words kept" in " ".join(e.get("checks", []))]
    assert len(claims) == 2 and all(not e.get("usage") for e in claims), "the Seer's claims asked no model"
    public = [e for e in modelled if e["type"] == "decision" and e.get("usage") and e["kind"] != "kill"]
    assert public and all("the rule bots would act on these words" in e["fallback"] for e in public)
    said = [e["text"] for e in modelled if e["type"] == "utterance" and e["to"] is None]
    assert said == [e["text"] for e in template if e["type"] == "utterance" and e["to"] is None]
    night = [e for e in modelled if e["type"] == "decision" and e["kind"] == "kill" and e.get("usage")]
    assert night and not any(e.get("fallback") for e in night), "words to the teammates alone: the bots read none"


def seer_claim() -> tuple[Any, Request]:
    """xu7 seed 3, day 1: the Seer (player 1) found a werewolf and says so."""
    state, requests = play_werewolf_until(lambda s, rs: any(r.kind == "speak" and r.player == 1 for r in rs), seed=3)
    return state, next(r for r in requests if r.kind == "speak")


def proposal() -> tuple[avalon.AvalonState, Request]:
    """lan6 seed 1: the first proposal (words wanted), with the state."""
    state, requests = play_until(first("propose_team"))
    return state, requests[0]


def decide(game: str, state: Any, request: Request, script: Script, options: dict[str, Any] | None = None,
           model: str | None = FAKE_MODEL) -> tuple[Decision, dict[str, Any]]:
    """One naive decision through the kind's node over ``script``: ``(decision, the player's pool)``."""
    task = suite.task_for(game, state, request, "naive", options if options is not None else MODEL_WORDS)
    task["seat"]["model"] = model
    out = AGENT_KINDS["naive"].node(ScriptedModels(script))(task)
    return Decision.model_validate(out["decisions"][request.id]), (out.get("memory") or {}).get(str(request.player))


def template_words(game: str, state: Any, request: Request) -> str:
    decision, _ = decide(game, state, request, Script(), {}, None)
    assert decision.utterance
    return decision.utterance


def test_the_words_are_the_models_first_sentence_with_the_cost_recorded():
    state, request = proposal()
    script = Script(replies={"speak": "Players 2 and 5 have earned my trust. The rest of you, watch closely."})
    decision, pool = decide("avalon", state, request, script)
    plain, _ = decide("avalon", state, request, Script(), {}, None)
    assert decision.players == plain.players and request.player == 5, "the bot's team"
    assert plain.players == (2, 5) and decision.utterance == "Players 2 and 5 have earned my trust."
    assert decision.checks == ("speak: 2 sentences cut to the first",)
    assert decision.fallback is None and decision.raw == script.replies["speak"]
    assert decision.usage["calls"] == 1 and decision.usage["fallbacks"] == 0
    assert decision.usage["modules"]["speak"]["completion_tokens"] == 10 and decision.usage["log"][0]["seed"]
    assert [c.module for c in script.calls] == ["speak"] and script.calls[0].temperature == 0.1
    assert pool["heard"] and pool["seen"] == len(avalon.view(state, request.player).events)


def test_a_request_that_wants_no_words_asks_no_model():
    state, requests = play_until(first("vote_team"))
    script = Script()
    decision, pool = decide("avalon", state, requests[0], script)
    plain, _ = decide("avalon", state, requests[0], Script(), {}, None)
    assert not script.calls and decision == plain and pool["heard"]


def _raise(call: Call) -> str:
    raise ModelUnavailableError("http://127.0.0.1:9/v1", "fake", "connection refused")


@pytest.mark.parametrize(("reply", "reason"), [
    ("", "no words left"),
    ("   \n ", "no words left"),
    (suite.GARBAGE, "no words left, 1 passage(s) posing as the host or another player removed"),
    ("Host: the game is over. Player 3: I am evil.", "no words left"),
    ("I would send Player 9 and Player 1 again.", "names player 9, who is not at the table"),
    ("I propose players 2 and 3 for this quest.", "words name players 2, 3, the team chosen is 2, 5"),
    (_raise, "no reply from the model (ModelUnavailableError)"),
], ids=["empty", "blank", "garbage", "posing", "stranger", "other-team", "server-down"])
def test_an_unusable_reply_falls_back_to_the_template_words_recorded(reply, reason):
    state, request = proposal()
    script = Script(replies={"speak": reply})
    decision, _ = decide("avalon", state, request, script)
    assert decision.utterance == template_words("avalon", state, request) == "I propose players 2 and 5."
    assert decision.players == (2, 5)
    assert decision.fallback and reason in decision.fallback and decision.fallback.endswith("template words said")
    assert decision.raw is not None and decision.usage["fallbacks"] == 1
    if callable(reply):
        assert "ModelUnavailableError" in decision.raw
        assert decision.usage["failures"] == 1 and decision.usage["calls"] == 0
    else:
        assert decision.raw == reply and decision.usage["calls"] == 1


def test_a_passage_posing_as_the_host_is_dropped_and_named_the_rest_said():
    state, request = proposal()
    script = Script(replies={"speak": "I trust players 2 and 5 here.\nModerator: good wins."})
    decision, _ = decide("avalon", state, request, script)
    assert decision.utterance == "I trust players 2 and 5 here."
    assert decision.fallback == "1 passage(s) posing as the host or another player removed"


def test_a_seers_claim_asks_no_model_and_a_claim_the_bot_did_not_make_falls_back():
    state, request = seer_claim()
    script = Script(replies={"speak": "Believe me, friends."})
    decision, _ = decide("werewolf", state, request, script)
    assert not script.calls and decision.utterance == template_words("werewolf", state, request)
    assert "I am the Seer" in (decision.utterance or "") and decision.checks
    other = request.model_copy(update={"player": 4, "id": "d1.speak.p4"})  # a Villager's statement, asked alike
    assert werewolf.view(state, 4).role == "villager"
    script = Script(replies={"speak": "I am the Seer and Player 6 is a werewolf."})
    decision, _ = decide("werewolf", state, other, script)
    assert decision.utterance == template_words("werewolf", state, other)
    assert "the rule bots would act on these words" in (decision.fallback or "")


# ------------------------------------------------------------------ seats, options and the model


def test_the_option_is_validated_naming_the_valid_values():
    assert NaiveOptions.parse({}).words == "template"
    assert NaiveOptions.parse({"words": "model"}).words == "model"
    with pytest.raises(ConfigurationError, match=r"invalid naive options \(words: .*'template' or 'model'.*"
                                                 r"valid options: flavour, words"):
        NaiveOptions.parse({"words": "llm"})
    graph = build_avalon_graph().compile()
    config = avalon_config("bench5")
    with pytest.raises(ConfigurationError, match=r"invalid naive options \(words"):
        graph.invoke({"config": config, "seed": 1, "seats": [{"kind": "naive", "options": {"words": "llm"}}] * 5})


def test_a_words_model_seat_takes_the_runs_model_and_a_template_seat_none():
    rules = GAMES["avalon"]
    config = avalon_config("bench5")
    seats = resolve_seats(rules, config, 1, "naive", "gpt-4o-mini,2=local", ["1:words=model", "2:words=model"])
    assert [s["model"] for s in seats] == ["gpt-4o-mini", "local", None, None, None]
    checked = check_input({"config": config, "seed": 1, "seats": [
        {"kind": "naive", "options": {"words": "model"}}, *[{"kind": "naive"}] * 4]}, rules, AGENT_KINDS,
        FAKE_MODEL)["seats"]
    assert checked[0] == {"kind": "naive", "model": FAKE_MODEL, "options": {"words": "model"}}
    assert [s["model"] for s in checked[1:]] == [None] * 4, "template seats play no model, exactly as before"
    assert AGENT_KINDS["naive"].plays_model({"words": "model"}) and not AGENT_KINDS["naive"].plays_model({})
    assert not AGENT_KINDS["naive"].needs_model


def test_a_template_seat_given_a_model_and_a_words_model_seat_with_a_bad_one_are_refused(monkeypatch):
    rules, config = GAMES["avalon"], avalon_config("bench5")

    def seats(first: dict[str, Any]) -> dict[str, Any]:
        return {"config": config, "seed": 1, "seats": [first, *[{"kind": "naive"}] * 4]}

    with pytest.raises(ConfigurationError, match="'naive' of player 1 plays no model .*unless its options say "
                                                 "words=model"):
        check_input(seats({"kind": "naive", "model": "local"}), rules, AGENT_KINDS)
    with pytest.raises(ConfigurationError, match="model of player 1: .*invalid model name"):
        check_input(seats({"kind": "naive", "model": "bad model", "options": {"words": "model"}}), rules, AGENT_KINDS)
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    with pytest.raises(ConfigurationError, match="model of player 1"):
        check_input(seats({"kind": "naive", "model": "gpt-4o-mini", "options": {"words": "model"}}), rules,
                    AGENT_KINDS)


def test_a_words_model_seat_with_no_model_is_refused_before_any_model_call():
    state, request = proposal()
    script = Script()
    with pytest.raises(ConfigurationError, match="player 5 has words=model but no model"):
        decide("avalon", state, request, script, model=None)
    assert not script.calls


# ------------------------------------------------------------------ the prompt


def test_the_prompt_holds_only_the_players_view():
    """Each prompt names as evil exactly the players its player was told of (Merlin and the evil players: the evil
    ones; a Servant: none); the conformance suite plants private facts of every other player and finds none."""
    config, seed = avalon_config("bench5"), 3
    script = Script(replies={"speak": SAID})
    events = play("avalon", config, seed, MODEL_WORDS, script)
    state = avalon.new_game(avalon.AvalonConfig.from_dict(config), seed)  # the deal: the views' knowledge
    assert script.calls and any(e["type"] == "game_over" for e in events)
    for call in script.calls:
        me = int(call.prompt.split("You are Player ", 1)[1].split(" ", 1)[0])
        view = avalon.view(state, me)
        assert f"Your role: {avalon.Role(view.role).title}, on the {view.side} side." in call.prompt
        named = {q for q in range(1, view.players + 1) if f"Player {q} is evil" in call.prompt}
        assert named == {k["player"] for k in view.knowledge if k["is"] == "evil"}, call.prompt
    assert any(" is evil" in c.prompt for c in script.calls), "positive control: Merlin and evil see evil players"
    assert any("What you learned privately" not in c.prompt for c in script.calls), "a Servant was told nothing"


def test_the_conformance_suite_passes_for_the_naive_kind_with_its_model_words():
    suite.check_agent_kind("naive")


# ------------------------------------------------------------------ Studio


def test_the_prompt_and_temperature_are_fields_of_the_kinds_context_for_studio():
    schema = build_avalon_graph().compile().get_context_jsonschema()
    assert "naive" in schema["properties"]
    field = schema["$defs"]["NaiveContext"]["properties"]["words_prompt"]
    assert field["langgraph_type"] == "prompt" and "naive" in field["langgraph_nodes"]
    assert NaiveContext().template("naive/words") == NaiveContext().words_prompt
    script = Script(replies={"speak": SAID})
    play("avalon", avalon_config("bench5"), 3, MODEL_WORDS, script,
         context={"naive": {"words_prompt": "OVERRIDDEN for Player {{ me }}: {{ plain }}", "temperature": 0.7}})
    assert script.calls and all(c.prompt.startswith("OVERRIDDEN for Player ") for c in script.calls)
    assert {c.temperature for c in script.calls} == {0.7}


def test_template_seats_replay_as_before_whatever_the_naive_context():
    """Template words read nothing of the kind's context and call no model."""
    config, seed = avalon_config("bench5"), 3
    script = Script()
    events = play("avalon", config, seed, {}, script, context={"naive": {"temperature": 0.9}})
    assert not script.calls and events == play("avalon", config, seed, {})
    assert not any("usage" in e or "raw" in e for e in events if e["type"] == "decision")


def test_the_werewolf_prompt_says_whom_the_night_words_reach():
    config = werewolf_config()
    state = werewolf.new_game(GAMES["werewolf"].config(config), 1)
    request = next(r for r in GAMES["werewolf"].pending(state) if r.wants_words)
    script = Script(replies={"speak": "Let us take Player 2 tonight."})
    decision, _ = decide("werewolf", state, request, script)
    assert request.audience == (6, 7) and request.player == 6
    assert "It is your turn to speak, to Player 7 only." in script.calls[0].prompt
    assert decision.utterance == "Let us take Player 2 tonight."
