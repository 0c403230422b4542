"""Tournaments: entrants rotated through every role place of a game (docs/tournaments.md).

An experiment with a ``[tournament]`` table seats its entrants instead of ``agents``, ``models`` and
``agent_options``::

    [tournament]
    seed = 0                                   # the rotation's seed (default 0)
    resamples = 1000                           # the leaderboard's bootstrap resamples (default 1000)

    [[tournament.entrants]]
    name = "naive"
    agent = "naive"

    [[tournament.entrants]]
    name = "bench"
    agent = "naive"
    options = { flavour = "avalonbench" }

    [[tournament.entrants]]
    name = "gpt"
    agent = "lga"
    model = "http://127.0.0.1:8000/v1#Qwen2.5-7B-Instruct"

**Role places.** A game's role set, counted with its repeats, is its list of role places in the game's role order,
a repeated role numbered as the ``ROLE#K`` assignments number it: ``bench5`` has ``merlin``, ``servant#1``,
``servant#2``, ``assassin``, ``minion``. The game's seeded deal puts the roles on the seats (a new shuffle of seat
numbers every game); the place ``servant#2`` is the second seat, in seat order, dealt a Servant.

**Rotation.** The games of a condition are cut into blocks of as many games as there are entrants (``m``). Each
block draws from ``tournament.seed`` an order of the entrants and a shuffle of the places' offsets
(`block_order`), and game ``g`` of the block gives place ``j`` to the entrant at position ``(offset[j] + g) mod m``
of that order. So within every block each entrant takes every role place exactly once, and over a condition of
``k`` blocks each entrant holds each role place ``k`` times, each role ``k`` times its count, and each side ``k``
times its seat count: the side a game favours favours nobody.
Seat numbers are not rotated but shuffled: they come from the game's deal, so an entrant holds each seat equally
often in expectation, not exactly (the deal is the game's, seeded by the game seed, and the first leader too).
With fewer entrants than seats an entrant holds several places in a game, sometimes on both sides; with more, each
game seats ``N`` of them. The draws change between blocks so that who sits with whom, and on which side, changes
too (without the shuffled offsets, three entrants on ``bench5`` would fill the three good places in every game).

A tournament that cannot rotate evenly (a condition whose games are not a whole number of blocks) and an entrant
that would not start (unknown kind, a kind that does not play the game, a model spec or options that do not check,
two entrants that would play alike) are refused before any game. Source of the design: Kaggle Game Arena's
Werewolf board rotates every model through the roles (https://www.kaggle.com/blog/game-arena-werewolf).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from roundtable.agents.protocol import AgentKind
from roundtable.games.errors import ConfigurationError
from roundtable.games.protocol import GameRules
from roundtable.games.rng import rng_for
from roundtable.graphs.setup import check_seat
from roundtable.metrics.ratings import RESAMPLES, seat_label

ENTRANT_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,39}$")
"""An entrant's name: the leaderboard's row label."""

OptionValue = str | bool | int | float


class Entrant(BaseModel):
    """One entrant: a ``name`` (unique in the tournament), the ``agent`` kind, its ``model`` spec (``local``, a
    hosted name or ``BASE_URL#MODEL``; none: the game's default model where the kind plays one) and ``options``
    (the kind's seat options, ``{key: value}``, as ``--agent-option`` gives them)."""

    model_config = ConfigDict(extra="forbid")

    name: str
    agent: str
    model: str | None = None
    options: dict[str, OptionValue] = Field(default_factory=dict)

    @field_validator("name")
    @classmethod
    def _name(cls, value: str) -> str:
        if not ENTRANT_NAME.match(value):
            raise ValueError(f"{value!r} is not an entrant name: 1 to 40 letters, digits, '_', '.' or '-', starting "
                             "with a letter or digit")
        return value

    def seat(self) -> dict[str, Any]:
        """The entrant's seat spec before the game checks it: ``{"kind", "model", "options"}``."""
        return {"kind": self.agent, "model": self.model, "options": dict(self.options)}


class Tournament(BaseModel):
    """An experiment's ``[tournament]`` table: ``entrants`` (at least two, names unique), ``seed`` (the seed of
    the draws of the rotation's blocks, `block_order`; 0 or more, default 0) and ``resamples`` (the bootstrap
    resamples of its leaderboard's intervals, `roundtable.metrics.ratings.RESAMPLES` by default)."""

    model_config = ConfigDict(extra="forbid")

    entrants: list[Entrant] = Field(min_length=2)
    seed: int = Field(0, ge=0)
    resamples: int = Field(RESAMPLES, ge=1, le=100_000)

    @model_validator(mode="after")
    def _unique(self) -> Tournament:
        names = Counter(e.name for e in self.entrants)
        twice = sorted(n for n, count in names.items() if count > 1)
        if twice:
            raise ValueError(f"entrants: names must be unique; repeated: {', '.join(twice)}")
        return self

    @property
    def names(self) -> list[str]:
        """The entrants' names, in the configuration's order."""
        return [e.name for e in self.entrants]

    def uneven(self, games: int) -> str | None:
        """Why ``games`` games cannot rotate the entrants evenly, with the game counts that would; ``None`` when
        they can (a whole number of blocks of ``len(entrants)`` games)."""
        m = len(self.entrants)
        if games % m == 0:
            return None
        below, above = games // m * m, (games // m + 1) * m
        could = f"{below} or {above}" if below else f"{above}"
        return (f"{games} games cannot rotate {m} entrants evenly: each entrant takes every role place once in each "
                f"block of {m} games; play a multiple of {m} games ({could})")


def places(rules: GameRules, config: dict[str, Any]) -> list[tuple[str, int]]:
    """The role places of a game of ``config`` (see the module docstring): ``[(role, K)]`` in the game's role
    order, ``K`` counting a role's repeats from 1. The same for every seed (only the seats change)."""
    counts = Counter(role for role, _ in rules.seats(rules.new_game(rules.config(config), 0)))
    order = {role: i for i, role in enumerate(rules.roles)}
    return [(role, k) for role in sorted(counts, key=lambda r: (order.get(r, len(order)), r))
            for k in range(1, counts[role] + 1)]


def place_label(place: tuple[str, int], places_of_game: list[tuple[str, int]]) -> str:
    """``servant#2`` for a repeated role, ``merlin`` for one dealt once."""
    role, k = place
    return f"{role}#{k}" if sum(1 for r, _ in places_of_game if r == role) > 1 else role


def block_order(tournament: Tournament, block: int, count: int) -> tuple[list[int], list[int]]:
    """Block ``block``'s draw from ``tournament.seed``: an order of the entrants (indices into ``entrants``) and
    an offset for each of the ``count`` role places (a shuffle of ``0..count-1``); the same on every machine and
    every run (`roundtable.games.rng.rng_for`)."""
    rng = rng_for(tournament.seed, "tournament", block)
    order, offsets = list(range(len(tournament.entrants))), list(range(count))
    rng.shuffle(order)
    rng.shuffle(offsets)
    return order, offsets


def place_entrants(tournament: Tournament, index: int, count: int) -> list[int]:
    """The entrant (index into ``entrants``) of each of ``count`` role places in game ``index`` (0-based, in seed
    order) of a condition: game ``g = index mod m`` of its block gives place ``j`` the entrant at position
    ``(offset[j] + g) mod m`` of the block's order (`block_order`), so that over the block's ``m`` games each place
    meets every entrant once."""
    m = len(tournament.entrants)
    order, offsets = block_order(tournament, index // m, count)
    return [order[(offsets[j] + index) % m] for j in range(count)]


def seat_entrants(tournament: Tournament, rules: GameRules, config: dict[str, Any], seed: int,
                  index: int) -> list[str]:
    """The entrant's name at each seat (players 1..N) of a condition's game ``index`` on ``seed``: the rotation
    gives each role place an entrant (`place_entrants`), and the game's deal on ``seed`` puts the places on
    seats."""
    of_game = places(rules, config)
    chosen = place_entrants(tournament, index, len(of_game))
    by_place = {place: tournament.entrants[e].name for place, e in zip(of_game, chosen, strict=True)}
    seen: Counter[str] = Counter()
    out = []
    for role, _ in rules.seats(rules.new_game(rules.config(config), seed)):
        seen[role] += 1
        out.append(by_place[(role, seen[role])])
    return out


def tournament_seats(checked: Mapping[str, dict[str, Any]], names: list[str]) -> list[dict[str, Any]]:
    """The ``seats`` input of a game whose seats hold the entrants ``names`` (players in order), each seat its
    entrant's checked seat spec (``checked``: `check_entrants`)."""
    return [{**checked[name], "options": dict(checked[name]["options"])} for name in names]


def check_entrants(tournament: Tournament, rules: GameRules, kinds: Mapping[str, AgentKind],
                   default_model: str | None) -> dict[str, dict[str, Any]]:
    """Every entrant's seat, checked as the game's setup checks a seat (`roundtable.graphs.setup.check_seat`).

    Returns:
        ``{entrant name: {"kind", "model", "options"}}``, the model filled in where the kind plays one.

    Raises:
        ConfigurationError: ``entrants[NAME]: ...``: an unknown kind, a kind that does not play the game, a model
            spec or options that do not check; or two entrants whose seats would be the same (the leaderboard
            could not tell them apart).
    """
    checked: dict[str, dict[str, Any]] = {}
    for entrant in tournament.entrants:
        try:
            checked[entrant.name] = check_seat(entrant.seat(), 1, rules, kinds, default_model)
        except ConfigurationError as error:
            # check_seat speaks of a seat ("of player 1"): an entrant plays many
            message = re.sub(r" (of|for) player 1\b", "", str(error))
            raise ConfigurationError(f"entrants[{entrant.name}]: {message}") from None
    seen: dict[str, str] = {}
    for name, seat in checked.items():
        key = seat_label(seat)
        if key in seen:
            raise ConfigurationError(f"entrants[{name}]: plays exactly as entrants[{seen[key]}] ({key}); two "
                                     "entrants must differ in kind, model or options")
        seen[key] = name
    return checked

