"""The game conformance suite, as PettingZoo's ``api_test`` is for environments: every rules module
(`roundtable.games.protocol.GameRules`) passes it for every configuration it offers (`GameRules.configurations`).

It plays through the protocol only (``pending`` / ``apply`` / ``view`` / ``result``), with a uniformly random
legal answer to every request drawn from the request itself, so it knows nothing of any game's rules:

- random legal play reaches a result within a bound, every legal answer accepted (`check_random_play`);
- an illegal answer of each shape is refused with a message, and leaves the state as it was
  (`check_illegal_answers`);
- views: a private fact planted for one player reaches that player's view and no other's, and no view carries
  the seed (`check_private_facts`);
- a seeded game replays identically, and a game restored from its snapshot and log mid-way ends exactly as the
  uninterrupted one; restored from its snapshot alone (no log, as the game graph routes), it is in the same
  phase, waits for the same requests and has the same result, at every step (`check_replay_and_resume`);
- the board (`GameRules.board`) is drawn at every step from the whole log, the public record and each seat's
  visible log, and a private entry for another seat added to a seat's log changes nothing (`check_board`).

`check_game(rules)` runs them all; each check raises `AssertionError` naming what failed. A game package's own
test suite calls it (see docs/architecture.md#plugins).
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from roundtable.games.board import Board
from roundtable.games.errors import IllegalActionError
from roundtable.games.protocol import Decision, GameRules, Request, can_see, check_decision

STEP_LIMIT = 3000
"""Steps (``apply`` calls) a randomly played game must end within."""
SEED = 987_654_321_987
"""A seed long enough that its digits in a view would be no accident."""
SEEDS = (0, 1, SEED)
"""The seeds every configuration is played with."""


def legal_answer(request: Request, rng: random.Random) -> Decision:
    """A uniformly random legal answer to ``request``, built from the request alone (a pass one time in five
    where passing is allowed)."""
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


def play(rules: GameRules, config: dict[str, Any], seed: int, *, stop_after: int | None = None) -> tuple[Any, int]:
    """Random legal play from the deal of ``config`` with ``seed``.

    Returns:
        ``(final or stopped state, steps taken)``.

    Raises:
        AssertionError: the game is not over after `STEP_LIMIT` steps.
    """
    return play_from(rules, rules.new_game(rules.config(config), seed), random.Random(seed), stop_after=stop_after)


def play_from(rules: GameRules, state: Any, rng: random.Random, *, stop_after: int | None = None) -> tuple[Any, int]:
    """Random legal play from ``state`` with ``rng`` (see `play`); at every step, the state restored from its
    snapshot alone routes as the state itself (`routes_alike`)."""
    for step in range(STEP_LIMIT):
        routes_alike(rules, state)
        if rules.result(state) is not None or (stop_after is not None and step == stop_after):
            return state, step
        requests = rules.pending(state)
        answers = {r.player: legal_answer(r, rng) for r in requests}
        for request in requests:
            check_decision(request, answers[request.player])
        state = rules.apply(state, answers)
    raise AssertionError(f"{rules.name} game not over after {STEP_LIMIT} steps")


def routes_alike(rules: GameRules, state: Any) -> None:
    """``state`` restored from its snapshot without its log (as the game graph restores it to route) is in the
    same phase, waits for the same requests and has the same result.

    Raises:
        AssertionError: naming what differs.
    """
    bare = rules.restore(rules.snapshot(state), ())
    assert rules.phase(bare) == rules.phase(state), "restored without its log, the game is in another phase"
    assert rules.result(bare) == rules.result(state), "restored without its log, the game has another result"
    assert rules.pending(bare) == rules.pending(state), "restored without its log, the game waits for other requests"


@contextmanager
def refused(what: str) -> Iterator[list[IllegalActionError]]:
    """Assert that the block raises `IllegalActionError` (``what``: the answer that should be refused); yields a
    list that then holds the error."""
    caught: list[IllegalActionError] = []
    try:
        yield caught
    except IllegalActionError as error:
        caught.append(error)
        return
    raise AssertionError(f"{what} was accepted")


def check_random_play(rules: GameRules, config: dict[str, Any], seed: int) -> None:
    """Random legal play reaches a result with a reason; a finished game waits for nothing and refuses any answer."""
    final, steps = play(rules, config, seed)
    result = rules.result(final)
    assert result is not None and result.reason and steps > 0, "the game ends with a reason"
    assert rules.pending(final) == [], "a finished game waits for nothing"
    assert rules.phase(final) not in rules.phases, "a finished game is in no phase"
    with refused("an answer to a finished game"):
        rules.apply(final, {})


def illegal_answers(request: Request) -> list[Decision]:
    """Answers that break ``request``: the wrong player or id, and per answer shape a wrong answer."""
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


def check_illegal_answers(rules: GameRules, config: dict[str, Any], seed: int = 5, steps: int = 200) -> set[str]:
    """Every illegal answer of `illegal_answers`, and a missing answer, is refused with a message and changes
    nothing, over ``steps`` steps of random play.

    Returns:
        The answer shapes met (``pick``, ``yes_no``, ``words``).
    """
    rng = random.Random(seed)
    state = rules.new_game(rules.config(config), seed)
    shapes_seen: set[str] = set()
    for _ in range(steps):
        if rules.result(state) is not None:
            break
        requests = rules.pending(state)
        answers = {r.player: legal_answer(r, rng) for r in requests}
        before = rules.snapshot(state), list(rules.events(state))
        for request in requests:
            shapes_seen.add(request.answer)
            for bad in illegal_answers(request):
                with refused(f"{bad!r} for {request.id}") as caught:
                    rules.apply(state, answers | {request.player: bad})
                assert str(caught[0]).strip(), "the refusal says which rule"
        assert (rules.snapshot(state), list(rules.events(state))) == before, "a refusal changes nothing"
        if len(requests) > 1:
            with refused("a missing answer"):
                rules.apply(state, dict(list(answers.items())[1:]))
        state = rules.apply(state, answers)
    return shapes_seen


def check_private_facts(rules: GameRules, config: dict[str, Any]) -> None:
    """A private fact planted for each player mid-game reaches that player's view and no other's; no view carries
    the seed or an event its player may not see; a player not at the table has no view."""
    state, _ = play(rules, config, SEED, stop_after=12)
    players = len(rules.seats(state))
    planted = [{"type": "note", "to": [p], "text": f"SENTINEL-{p}-"} for p in range(1, players + 1)]
    state = rules.restore(rules.snapshot(state), list(rules.events(state)) + planted)
    for p in range(1, players + 1):
        view = rules.view(state, p)
        text = view.model_dump_json()
        assert f"SENTINEL-{p}-" in text, f"player {p} does not see its own private fact"
        leaked = [q for q in range(1, players + 1) if q != p and f"SENTINEL-{q}-" in text]
        assert not leaked, f"player {p} sees the private facts of {leaked}"
        assert str(SEED) not in text, "the seed reproduces the deal"
        assert all(can_see(e, p) for e in view.events), f"player {p}'s view holds an event not for it"
    try:
        rules.view(state, players + 1)
    except ValueError:
        return
    raise AssertionError("a player not at the table has a view")


def check_replay_and_resume(rules: GameRules, config: dict[str, Any], seed: int = 3) -> None:
    """A seeded game replays identically; one restored from its snapshot and log mid-way ends as the uninterrupted
    one; a configuration survives its dict."""
    first, _ = play(rules, config, seed)
    again, _ = play(rules, config, seed)
    assert rules.events(first) == rules.events(again) and rules.snapshot(first) == rules.snapshot(again), (
        "a seeded game replays identically")
    rng = random.Random(seed)
    middle, _ = play_from(rules, rules.new_game(rules.config(config), seed), rng, stop_after=8)
    saved = rng.getstate()
    straight, _ = play_from(rules, middle, rng)
    rng.setstate(saved)
    restored = rules.restore(rules.snapshot(middle), list(rules.events(middle)))
    assert rules.pending(restored) == rules.pending(middle), "a restored game waits for what it waited for"
    resumed, _ = play_from(rules, restored, rng)
    assert rules.events(resumed) == rules.events(straight) and rules.result(resumed) == rules.result(straight), (
        "a restored game ends as the uninterrupted one")
    assert rules.config(rules.config_dict(rules.config(config))) == rules.config(config), (
        "a configuration survives its dict")


def check_board(rules: GameRules, config: dict[str, Any], seed: int = 7) -> None:
    """At every step of random play, the board (`GameRules.board`) of the whole log, of the public record and of
    each seat's visible log is a `Board`; adding to a seat's log a private entry for another seat (one the game does
    not know, as `check_private_facts` plants) leaves its board as it was and puts none of its words on it."""
    rng = random.Random(seed)
    state = rules.new_game(rules.config(config), seed)
    players = len(rules.seats(state))
    for step in range(STEP_LIMIT):
        events = list(rules.events(state))
        logs = [events, [e for e in events if e.get("to") is None]]
        logs += [[e for e in events if can_see(e, p)] for p in range(1, players + 1)]
        for log in logs:
            assert isinstance(rules.board(log, players), Board), f"step {step}: the board is not a Board"
        p = step % players + 1  # one seat a step, in turn
        other = p % players + 1
        planted = {"type": "note", "to": [other], "text": f"SENTINEL-{other}-"}
        board = rules.board(logs[p + 1] + [planted], players)
        assert board == rules.board(logs[p + 1], players), f"step {step}: another seat's private entry moves the board"
        assert f"SENTINEL-{other}-" not in board.model_dump_json(), f"step {step}: a private entry's words on the board"
        if rules.result(state) is not None:
            return
        requests = rules.pending(state)
        state = rules.apply(state, {r.player: legal_answer(r, rng) for r in requests})
    raise AssertionError(f"{rules.name} game not over after {STEP_LIMIT} steps")


def check_game(rules: GameRules) -> None:
    """The whole suite for every configuration the game offers.

    Raises:
        AssertionError: naming the configuration and what failed.
    """
    shapes: set[str] = set()
    for config in rules.configurations():
        try:
            for seed in SEEDS:
                check_random_play(rules, config, seed)
            shapes |= check_illegal_answers(rules, config)
            check_private_facts(rules, config)
            check_replay_and_resume(rules, config)
            check_board(rules, config)
        except AssertionError as error:
            raise AssertionError(f"{rules.name} {config}: {error}") from error
    assert {"pick", "yes_no", "words"} >= shapes and shapes, f"{rules.name} asks no known answer shape"
