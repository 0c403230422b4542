"""Finished game records as matches between entrants: who sat on which side, who won, what each seat cost.

A record (`roundtable.store.records.build_record`) gives each player's role and side in its ``role`` log entries,
the winning side in ``winner`` (``None``: a draw), the seats' specs in ``seats`` and each player's model usage in
``usage``. An entrant is named by the caller (a tournament's plan names the entrant at each seat,
`roundtable.experiments.tournament`), or else by its seat spec as one line (`seat_label`): ``naive``,
``naive[flavour=avalonbench]``, ``lga@local``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from roundtable.games import LEGACY_GAME
from roundtable.store.records import USAGE_FIELDS


class MatchError(ValueError):
    """Records that cannot be rated together; the message says which and why."""


@dataclass(frozen=True)
class Seat:
    """One seat of a match: its ``player`` number, ``entrant``, ``role``, ``side``, the seat's spec as one line
    (``spec``, `seat_label`) and model ``usage`` (`roundtable.store.records.USAGE_FIELDS` plus ``decisions`` and
    ``fallbacks``, as the record's per-player usage)."""

    player: int
    entrant: str
    role: str
    side: str
    spec: str = ""
    usage: Mapping[str, float] = field(default_factory=dict)


@dataclass(frozen=True)
class Match:
    """One finished game: ``key`` (its order among matches: the game id, then where it came from), the ``game``
    (``avalon``, ``werewolf``), its ``seats`` in player order, and the ``winner`` side (``None``: a draw)."""

    key: str
    game: str
    seats: tuple[Seat, ...]
    winner: str | None

    @property
    def sides(self) -> list[str]:
        """The sides seated, sorted."""
        return sorted({s.side for s in self.seats})


def seat_label(seat: Mapping[str, Any]) -> str:
    """A seat spec as one line, the same for the same kind, model and options (options sorted):
    ``naive``, ``naive[flavour=avalonbench]``, ``lga@local``, ``lga@local[learn=false]``."""
    options = seat.get("options") or {}
    inside = ",".join(f"{k}={_text(options[k])}" for k in sorted(options))
    model = f"@{seat['model']}" if seat.get("model") else ""
    return f"{seat.get('kind')}{model}{f'[{inside}]' if inside else ''}"


def _text(value: Any) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


def record_match(record: Mapping[str, Any], entrants: Sequence[str] | None = None, where: str = "") -> Match:
    """The match of one finished ``record``.

    Args:
        record: a finished game record.
        entrants: the entrant at each seat (players 1..N); ``None``: each seat's `seat_label`.
        where: where the record came from, appended to the match's ``key`` (records of several directories may
            share game ids).

    Raises:
        MatchError: the record is not finished, or its seats, roles or entrants do not match its players.
    """
    game_id = str(record.get("game_id"))
    if record.get("status") != "finished":
        raise MatchError(f"game {game_id} is not finished (status {record.get('status')!r})")
    dealt = {int(e["player"]): (str(e["role"]), str(e["side"])) for e in record.get("events") or []
             if e.get("type") == "role"}
    seats = record.get("seats") or []
    if not seats or sorted(dealt) != list(range(1, len(seats) + 1)):
        raise MatchError(f"game {game_id}: {len(seats)} seats but roles dealt to players {sorted(dealt)}")
    names = list(entrants) if entrants is not None else [seat_label(s) for s in seats]
    if len(names) != len(seats):
        raise MatchError(f"game {game_id}: {len(names)} entrants named for {len(seats)} seats")
    usage = record.get("usage") or {}
    return Match(
        key=f"{game_id}{' ' + where if where else ''}",
        game=str(record.get("game") or LEGACY_GAME),
        seats=tuple(Seat(player, names[player - 1], *dealt[player], seat_label(seats[player - 1]),
                         {k: float(v) for k, v in (usage.get(str(player)) or {}).items() if k in (*USAGE_FIELDS,
                          "decisions", "fallbacks")})
                    for player in range(1, len(seats) + 1)),
        winner=record.get("winner"),
    )


def sorted_matches(matches: Iterable[Match]) -> list[Match]:
    """``matches`` in key order (the order the online ratings take them in), checked to be of one game, each
    entrant with one seat spec throughout.

    Raises:
        MatchError: matches of several games, two matches with the same key, or an entrant that played as two
            different seat specs (two entrants under one name).
    """
    out = sorted(matches, key=lambda m: m.key)
    games = sorted({m.game for m in out})
    if len(games) > 1:
        raise MatchError(f"records of several games ({', '.join(games)}): rate one game at a time")
    twice = sorted({a.key for a, b in zip(out, out[1:], strict=False) if a.key == b.key})
    if twice:
        raise MatchError(f"the same game twice: {', '.join(twice)}")
    specs: dict[str, tuple[str, str]] = {}
    for match in out:
        for seat in match.seats:
            first = specs.setdefault(seat.entrant, (seat.spec, match.key))
            if first[0] != seat.spec:
                raise MatchError(f"entrant {seat.entrant!r} plays as {first[0]} in game {first[1]} but as {seat.spec} "
                                 f"in game {match.key}: one name for two entrants; rename one")
    return out
