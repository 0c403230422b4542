"""The game conformance suite: every rules module (`roundtable.games.GAMES`) passes it, for every configuration
it offers (`GameRules.configurations`), as PettingZoo's API test does for environments.

It plays through the protocol only (`pending` / `apply` / `view` / `result`), with a
uniformly random legal answer to every request drawn from the request itself, so it
knows nothing of any game's rules:

- random legal play reaches a result within a bound, every legal answer accepted;
- an illegal answer of each shape is refused with a message, and leaves the state as it was;
- views: a private fact planted for one player reaches that player's view and no other's,
  and no view carries the seed;
- a seeded game replays identically, and a game restored from its snapshot and log mid-way
  ends exactly as the uninterrupted one.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from roundtable.games import GAMES
from roundtable.games.errors import IllegalActionError
from roundtable.games.protocol import Decision, GameRules, Request, can_see, check_decision

CASES = [(name, config) for name, rules in GAMES.items() for config in rules.configurations()]
IDS = [f"{name}-{i}" for i, (name, _) in enumerate(CASES)]
STEP_LIMIT = 3000
SEED = 987_654_321_987


def legal_answer(request: Request, rng: random.Random) -> Decision:
    """A uniformly random legal answer to ``request``, built from the request alone."""
    fields: dict[str, Any] = {}
    if request.answer == "pick":
        if request.may_pass and rng.random() < 0.2:
            fields["players"] = None
        else:
            fields["players"] = tuple(rng.sample(list(request.candidates), request.count or 0))
    elif request.answer == "yes_no":
        fields["choice"] = rng.choice(request.allowed)
    if request.wants_words:
        fields["utterance"] = f"words of player {request.player}"
    return Decision.to(request, **fields)


def play(rules: GameRules, config: dict[str, Any], seed: int, *, stop_after: int | None = None):
    """Random legal play from the deal; returns ``(final or stopped state, steps taken)``."""
    return play_from(rules, rules.new_game(rules.config(config), seed), random.Random(seed), stop_after=stop_after)


def play_from(rules: GameRules, state: Any, rng: random.Random, *, stop_after: int | None = None):
    """Random legal play from ``state`` with ``rng``; returns ``(final or stopped state, steps taken)``."""
    for step in range(STEP_LIMIT):
        if rules.result(state) is not None or (stop_after is not None and step == stop_after):
            return state, step
        requests = rules.pending(state)
        answers = {r.player: legal_answer(r, rng) for r in requests}
        for request in requests:
            check_decision(request, answers[request.player])
        state = rules.apply(state, answers)
    raise AssertionError(f"{rules.name} game not over after {STEP_LIMIT} steps")


@pytest.mark.parametrize(("game", "config"), CASES, ids=IDS)
@pytest.mark.parametrize("seed", [0, 1, SEED])
def test_random_legal_play_reaches_a_result(game, config, seed):
    rules = GAMES[game]
    final, steps = play(rules, config, seed)
    result = rules.result(final)
    assert result is not None and result.reason and steps > 0
    assert rules.pending(final) == [], "a finished game waits for nothing"
    assert rules.phase(final) not in rules.phases
    with pytest.raises(IllegalActionError):
        rules.apply(final, {})


def illegal_answers(request: Request) -> list[Decision]:
    """Answers that break ``request``: the wrong player or id, and per shape a wrong answer."""
    bad = [Decision(request_id=request.id + ".x", player=request.player, kind=request.kind),
           Decision(request_id=request.id, player=request.player % 50 + 1, kind=request.kind)]
    if request.answer == "pick":
        outside = max(request.candidates) + 1
        bad.append(Decision.to(request, players=(outside,) + tuple(request.candidates[: (request.count or 1) - 1])))
        bad.append(Decision.to(request, players=tuple(request.candidates[: (request.count or 0) + 1])))
        if not request.may_pass:
            bad.append(Decision.to(request))
    elif request.answer == "yes_no":
        bad.append(Decision.to(request))
        if len(request.allowed) == 1:
            bad.append(Decision.to(request, choice=not request.allowed[0]))
    return bad


@pytest.mark.parametrize(("game", "config"), CASES[:6], ids=IDS[:6])
def test_illegal_answers_are_refused_with_a_message_and_change_nothing(game, config):
    rules = GAMES[game]
    rng = random.Random(5)
    state = rules.new_game(rules.config(config), 5)
    shapes_seen = set()
    for _ in range(200):
        if rules.result(state) is not None:
            break
        requests = rules.pending(state)
        answers = {r.player: legal_answer(r, rng) for r in requests}
        before = rules.snapshot(state), list(rules.events(state))
        for request in requests:
            shapes_seen.add(request.answer)
            for bad in illegal_answers(request):
                with pytest.raises(IllegalActionError) as refused:
                    rules.apply(state, answers | {request.player: bad})
                assert str(refused.value).strip(), "the refusal says which rule"
        assert (rules.snapshot(state), list(rules.events(state))) == before, "a refusal changes nothing"
        if len(requests) > 1:
            with pytest.raises(IllegalActionError):  # an answer missing
                rules.apply(state, dict(list(answers.items())[1:]))
        state = rules.apply(state, answers)
    assert {"pick", "yes_no", "words"} <= shapes_seen


@pytest.mark.parametrize(("game", "config"), CASES, ids=IDS)
def test_a_private_fact_reaches_only_its_player(game, config):
    rules = GAMES[game]
    state, _ = play(rules, config, SEED, stop_after=12)
    players = len(rules.seats(state))
    planted = [{"type": "note", "to": [p], "text": f"SENTINEL-{p}-"} for p in range(1, players + 1)]
    state = rules.restore(rules.snapshot(state), list(rules.events(state)) + planted)
    for p in range(1, players + 1):
        view = rules.view(state, p)
        text = view.model_dump_json()
        assert f"SENTINEL-{p}-" in text
        leaked = [q for q in range(1, players + 1) if q != p and f"SENTINEL-{q}-" in text]
        assert not leaked, f"player {p} sees the private facts of {leaked}"
        assert str(SEED) not in text, "the seed reproduces the deal"
        assert all(can_see(e, p) for e in view.events)
    with pytest.raises(ValueError):
        rules.view(state, players + 1)


@pytest.mark.parametrize(("game", "config"), CASES, ids=IDS)
def test_a_seeded_game_replays_identically_and_resumes_from_its_snapshot(game, config):
    rules = GAMES[game]
    first, _ = play(rules, config, 3)
    again, _ = play(rules, config, 3)
    assert rules.events(first) == rules.events(again) and rules.snapshot(first) == rules.snapshot(again)
    rng = random.Random(3)
    middle, _ = play_from(rules, rules.new_game(rules.config(config), 3), rng, stop_after=8)
    saved = rng.getstate()
    straight, _ = play_from(rules, middle, rng)
    rng.setstate(saved)
    restored = rules.restore(rules.snapshot(middle), list(rules.events(middle)))
    assert rules.pending(restored) == rules.pending(middle)
    resumed, _ = play_from(rules, restored, rng)
    assert rules.events(resumed) == rules.events(straight) and rules.result(resumed) == rules.result(straight)
    assert rules.config(rules.config_dict(rules.config(config))) == rules.config(config)
