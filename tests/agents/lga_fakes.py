"""Game helpers for the agent tests, and the scripted chat model of `roundtable.testing.scripted` (re-exported
here for the tests and benchmarks that import it from this module)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from roundtable.agents.lga.options import LgaOptions
from roundtable.aids.switch import embedded_values
from roundtable.games import avalon
from roundtable.games.avalon.bots import naive as naive_bot
from roundtable.testing.scripted import (  # noqa: F401 - re-exported
    DEFAULTS,
    FAKE_MODEL,
    Call,
    Reply,
    Script,
    ScriptedChatModel,
    ScriptedModels,
    default_structured,
)

AIDED: dict[str, Any] = embedded_values(LgaOptions) | {
    "aids": "on", "overrule": False, "drop_sentences": False, "dry": False, "merge_plan": False, "merge_summary": False}
"""An lga seat with the aids on, as the tests of the aids know it: the tuned values, each ``auto`` aid switch off
(as it was on the scripted model before the one switch); a test sets one on where it tests it."""

# ------------------------------------------------------------------ games


def play_until(
    predicate: Callable[[avalon.AvalonState, list[avalon.Request]], bool],
    preset: str = "lan6",
    seed: int = 1,
    rules: tuple[str, ...] = (),
    opening: str | None = None,
) -> tuple[avalon.AvalonState, list[avalon.Request]]:
    """Play a game with the naive bots until ``predicate(state, pending)`` holds; ``opening``, when given, is what
    every leader says with its proposal instead of the bot's words.

    Raises:
        AssertionError: the game ended first.
    """
    state = avalon.new_game(avalon.AvalonConfig.build(preset, rules=list(rules)), seed=seed)
    naive = naive_bot.decide
    while not state.is_over:
        requests = avalon.pending(state)
        if predicate(state, requests):
            return state, requests
        decisions = {r.player: naive(avalon.view(state, r.player), r, seed) for r in requests}
        for r in requests:
            if opening is not None and r.kind == "propose_team":
                decisions[r.player] = decisions[r.player].model_copy(update={"utterance": opening})
        state = avalon.apply(state, decisions)
    raise AssertionError("the game ended before the predicate held")


LEADER_OPENING = "I choose Player 1 and Player 5 as the team for the first quest of this game."
"""Player 5's opening words in `final_word_request` and `play_until(opening=...)` (not a bare move, which is never a
copy: `roundtable.detectors.words.bare_move`). lan6, seed 1: 1 Servant, 2 Assassin, 3 Morgana, 4 Servant,
5 Percival, 6 Merlin; Player 5 leads quest 1 on players 1 and 5 (the bots' own words: "I propose players 1 and 5.")."""
LEADER_AGAIN = "I choose Player 1 and Player 5 as the final team for quest 1."
"""A final word nearly copying `LEADER_OPENING`."""


def final_word_request(opening: str = LEADER_OPENING) -> tuple[avalon.AvalonState, avalon.Request]:
    """The leader's final word on quest 1 of a ``lan6`` game of seed 1 (Player 5, who proposed players 1 and 5,
    opening the talk with ``opening``), with the state it is asked in."""
    state, requests = play_until(lambda s, rs: any(r.details.get("final") for r in rs), opening=opening)
    return state, next(r for r in requests if r.details.get("final"))


def speak_request(player: int, opening: str | None = None) -> tuple[avalon.AvalonState, avalon.Request]:
    """The first talk turn of ``player`` in a ``lan6`` game of seed 1, with the state it is asked in (``opening``:
    the leader's words, as `play_until`)."""
    state, requests = play_until(lambda s, rs: any(r.kind == "speak" and r.player == player for r in rs),
                                 opening=opening)
    return state, next(r for r in requests if r.player == player)


def vote_request(player: int) -> tuple[avalon.AvalonState, avalon.Request]:
    """``player``'s first team vote in a ``lan6`` game of seed 1 (on players 1 and 5), with the state."""
    state, requests = play_until(lambda s, rs: any(r.kind == "vote_team" for r in rs))
    return state, next(r for r in requests if r.player == player)


def first(kind: str, round_: int = 1) -> Callable[[avalon.AvalonState, list[avalon.Request]], bool]:
    """Predicate: a request of ``kind`` is pending in round ``round_`` or later."""
    return lambda state, requests: state.round >= round_ and any(r.kind == kind for r in requests)


def lga_input(state: avalon.AvalonState, request: avalon.Request, memory: dict[str, Any] | None = None,
              options: dict[str, Any] | None = None, seed: int = 1) -> dict[str, Any]:
    """The lga graph input for ``request`` in ``state`` (full view; ``memory``: the player's pool) on the scripted
    model, with the aids on (their prompts and the values of the switches tuned for the embedded model,
    `embedded_values`) but the ``auto`` aid switches off, under ``options``."""
    return {
        "view": avalon.view(state, request.player).model_dump(mode="json"),
        "request": request.model_dump(mode="json"),
        "pool": dict(memory or {}),
        "seat": {"kind": "lga", "model": "fake", "options": AIDED | dict(options or {})},
        "seed": seed,
    }


def outcome(request: avalon.Request, values: dict[str, Any]) -> dict[str, Any]:
    """An lga graph's output for ``request`` as ``{"decision": Decision dict, "memory": the player's pool}``."""
    return {"decision": values["decisions"][request.id], "memory": values["memory"][str(request.player)]}


def decide(graph: Any, state: avalon.AvalonState, request: avalon.Request, memory: dict[str, Any] | None = None,
           options: dict[str, Any] | None = None, seed: int = 1) -> tuple[avalon.Decision, dict[str, Any]]:
    """One decision by a compiled lga graph: ``(Decision, the player's new pool)``."""
    out = outcome(request, graph.invoke(lga_input(state, request, memory, options, seed)))
    return avalon.Decision.model_validate(out["decision"]), out["memory"]
