"""The finite action space and the observation vector of the PettingZoo environments (docs/envs.md#action-spaces).

One ``Discrete`` space per table of ``n`` players, the same for every agent and every request kind; the mask of a
request allows only its legal answers:

==========================  =============================================================
index                       the answer
==========================  =============================================================
``YES`` (0)                 a ``yes_no`` request's first word (``approve``, ``success``, ``ja``)
``NO`` (1)                  its second word (``reject``, ``fail``, ``nein``)
``PASS`` (2)                a ``pick`` naming nobody, where passing is allowed
``TEXT`` (3)                a ``words`` request: talk (the words: `RoundtableAEC.say`, else the game's plain words)
``WAIT`` (4)                nothing is asked of the agent now (the parallel environment's agents not asked)
``PICKS`` (5) on            a ``pick``: one index per set of players, by size 1 .. `max_pick`, each size's sets in
                            lexicographic order (`itertools.combinations` of the seats)
==========================  =============================================================

The observation vector (`encode`, floats in [0, 1]) is game-neutral, read from the request and the view's
protocol fields: the player's seat, its side (one of the game's sides), the request's answer shape, the round and
attempt (scaled), the request's subject and candidates (per seat), and the knowledge the player was dealt (per
seat: named at all). The observation text (the game's table) is in ``infos[agent]["text"]``.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache, lru_cache
from itertools import combinations
from typing import Any

import numpy as np

from roundtable.games.protocol import PlayerView, Request

YES, NO, PASS, TEXT, WAIT = 0, 1, 2, 3, 4
PICKS = 5
SHAPES = ("pick", "yes_no", "words")
SHAPE_INDEX = {shape: i for i, shape in enumerate(SHAPES)}
ROUNDS = 10.0
"""The round and attempt are divided by this (Avalon's 5 quests and 5 proposals, Werewolf's 10 days)."""


def max_pick(players: int) -> int:
    """The largest pick the space offers: ``players // 2 + 1`` (Avalon's largest team, 5 of 10, fits)."""
    return players // 2 + 1


@cache
def pick_sets(players: int) -> tuple[tuple[int, ...], ...]:
    """Every set of players a pick index names, in index order (index ``PICKS + i`` is set ``i``)."""
    seats = range(1, players + 1)
    return tuple(s for size in range(1, max_pick(players) + 1) for s in combinations(seats, size))


@cache
def pick_index(players: int) -> dict[tuple[int, ...], int]:
    """``{sorted set of players: action index}``."""
    return {s: PICKS + i for i, s in enumerate(pick_sets(players))}


def actions(players: int) -> int:
    """The size of the action space of a table of ``players``."""
    return PICKS + len(pick_sets(players))


def mask(players: int, request: Request | None) -> np.ndarray:
    """The legal actions of ``request`` (``None``: only `WAIT`), as 0/1 ``int8`` of length `actions` (a new array
    each call: a copy of the one kept for requests of the same shape).

    Raises:
        ValueError: a pick larger than `max_pick`.
    """
    if request is None:
        return _mask(players, None, (), None, (), False).copy()
    if request.answer == "pick" and (request.count or 0) > max_pick(players):
        raise ValueError(f"{request.kind} picks {request.count} players; the action space offers at most "
                         f"{max_pick(players)}")
    return _mask(players, request.answer, request.allowed, request.count, request.candidates,
                 request.may_pass).copy()


@lru_cache(maxsize=4096)
def _mask(players: int, answer: str | None, allowed: tuple[bool, ...], count: int | None,
          candidates: tuple[int, ...], may_pass: bool) -> np.ndarray:
    """`mask` of a request of these fields (``answer`` ``None``: nothing asked), kept read-only."""
    legal = np.zeros(actions(players), dtype=np.int8)
    if answer is None:
        legal[WAIT] = 1
    elif answer == "yes_no":
        for choice in allowed:
            legal[YES if choice else NO] = 1
    elif answer == "pick":
        size = count or 0
        index = pick_index(players)
        for chosen in combinations(sorted(candidates), size):
            legal[index[chosen]] = 1
        if may_pass:
            legal[PASS] = 1
    else:
        legal[TEXT] = 1
    legal.flags.writeable = False
    return legal


def features(players: int, sides: tuple[str, ...]) -> int:
    """The length of the observation vector of a table of ``players`` whose game has ``sides``."""
    return players + len(sides) + len(SHAPES) + 2 + 3 * players


def encode(view: PlayerView, request: Request | None, sides: tuple[str, ...]) -> np.ndarray:
    """The game-neutral observation vector of ``view`` with ``request`` in hand (module docstring), ``float32`` of
    length `features`."""
    return encode_fields(view.players, view.player, view.side, known_players(view.knowledge), view.round, request,
                         sides)


def known_players(knowledge: Sequence[dict[str, Any]]) -> tuple[int, ...]:
    """The players a view's ``knowledge`` names (its entries' ``player``, where it is a seat number), in order."""
    return tuple(k["player"] for k in knowledge if isinstance(k.get("player"), int))


def encode_fields(players: int, player: int, side: str, known: Sequence[int], round_: int, request: Request | None,
                  sides: tuple[str, ...]) -> np.ndarray:
    """`encode` from the fields it reads: the table's ``players``, the ``player``'s seat (1-based) and ``side``, the
    players its dealt knowledge names (``known``, `known_players`), the ``round_`` its view is in and the request in
    hand; ``float32`` of length `features`. The environments call it without building the view."""
    return with_request(seat_vector(players, player, side, known, sides), players, round_, request, sides)


def seat_vector(players: int, player: int, side: str, known: Sequence[int], sides: tuple[str, ...]) -> np.ndarray:
    """The part of `encode`'s vector a player keeps all game (its seat, its side, the players its dealt knowledge
    names), the rest zero: ``float32`` of length `features` (a new array)."""
    n = players
    out = np.zeros(features(n, sides), dtype=np.float32)
    out[player - 1] = 1.0
    if side in sides:
        out[n + sides.index(side)] = 1.0
    at = n + len(sides) + len(SHAPES) + 2 + 2 * n
    for p in known:
        if 1 <= p <= n:
            out[at + p - 1] = 1.0
    return out


def with_request(seat: np.ndarray, players: int, round_: int, request: Request | None,
                 sides: tuple[str, ...]) -> np.ndarray:
    """`encode`'s vector: a copy of ``seat`` (`seat_vector`) with the request's part (its answer shape, the round
    and attempt, its subject and candidates) filled in, ``float32``."""
    n = players
    out = seat.copy()
    at = n + len(sides)
    if request is not None:
        out[at + SHAPE_INDEX.get(request.answer, 0)] = 1.0
    at += len(SHAPES)
    out[at] = min(round_ / ROUNDS, 1.0)
    out[at + 1] = min((request.attempt if request is not None else 1) / ROUNDS, 1.0)
    if request is not None:
        at += 2
        for p in request.subject:
            out[at + p - 1] = 1.0
        at += n
        for p in request.candidates:
            out[at + p - 1] = 1.0
    return out
