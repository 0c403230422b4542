"""Per-seat, per-side and per-role assignments such as ``good=gpt-4o,evil=local,3=human``.

One syntax serves every option that may differ between seats (the agent kind of
``--agents``, the model of ``--models``, ...): a comma-separated list of
assignments applied in order, later ones overriding earlier ones:

==============  ========================================================
``VALUE``       every seat
``SIDE=VALUE``  every seat of a side, e.g. ``good=...``, ``evil=...``
``ROLE=VALUE``  every seat holding a role, e.g. ``merlin=...``, ``assassin=...``
``ROLE#K=VALUE``  the K-th seat (in seat order) holding a role, or of a side, e.g. ``servant#1=...``: one Servant
``SEAT=VALUE``  one seat, numbered from :data:`SEAT_BASE` (``1`` = "Player 1")
==============  ========================================================

Seats are numbered for users as the game shows them ("Player 1" ... "Player N"),
so ``3=human`` is the third seat; :func:`resolve_assignments` returns a plain
0-based list. Side and role names are matched case-insensitively, with ``-`` and
spaces equivalent to ``_``.

Parsing (:func:`parse_assignments`) needs no game; resolving
(:func:`resolve_assignments`) checks the targets against one game's seats and
raises :class:`ValueError` naming any unknown side/role or out-of-range seat.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

T = TypeVar("T")

SEAT_BASE = 1
"""Number of the first seat in assignment strings (the game shows "Player 1".."Player N")."""

_TARGETED = re.compile(r"^\s*(?P<target>\d+|[A-Za-z][A-Za-z0-9_ -]*?(?:\s*#\s*\d+)?)\s*=(?P<value>.*)$", re.DOTALL)


@dataclass(frozen=True)
class Assignment(Generic[T]):
    """One parsed assignment.

    Attributes:
        value: The parsed value.
        target: ``None`` for every seat, a normalized side or role name (``str``),
            or a user-facing seat number (``int``, counted from :data:`SEAT_BASE`).
        text: The assignment as written, for error messages.
    """

    value: T
    target: str | int | None = None
    text: str = ""


def normalize_name(name: str) -> str:
    """Normalize a side or role name for matching: ``"Loyal-Servant"`` -> ``"loyal_servant"``, ``"Servant # 1"`` ->
    ``"servant#1"``."""
    return re.sub(r"[\s-]+", "_", re.sub(r"\s*#\s*", "#", name.strip())).lower()


def parse_assignments(text: str, parse_value: Callable[[str], T]) -> list[Assignment[T]]:
    """Parse ``"VALUE"`` / ``"TARGET=VALUE"`` assignments separated by commas.

    A part is ``TARGET=VALUE`` when the text before its first ``=`` is a seat
    number or a name (letters, digits, ``_``, ``-``, spaces, starting with a
    letter); otherwise the whole part is a value, so values may themselves
    contain ``=`` (e.g. ``http://h/v1#m?json_schema=false``).

    Args:
        text: The option as given, e.g. ``"local, evil=gpt-4o-mini, 2=human"``.
        parse_value: Parses and validates one value; raises ``ValueError`` on a bad one.

    Returns:
        The assignments in order (later ones override earlier ones when resolved).

    Raises:
        ValueError: Empty text or part, a seat number below :data:`SEAT_BASE`,
            or a value refused by ``parse_value`` (the message quotes the part).
    """
    if not text.strip():
        raise ValueError("empty assignment list: expected VALUE or TARGET=VALUE, comma-separated")
    assignments: list[Assignment[T]] = []
    for position, part in enumerate(text.split(","), start=1):
        part = part.strip()
        if not part:
            raise ValueError(f"empty assignment at position {position} in {text!r}")
        negative = re.match(r"^\s*(-\d+)\s*=", part)
        if negative:
            raise ValueError(
                f"seat {negative.group(1)} in assignment {part!r} does not exist: seats are numbered from {SEAT_BASE}"
            )
        match = _TARGETED.match(part)
        target: str | int | None = None
        raw = part
        if match:
            raw = match["value"].strip()
            name = match["target"]
            if name.isdigit():
                target = int(name)
                if target < SEAT_BASE:
                    raise ValueError(
                        f"seat {target} in assignment {part!r} does not exist: seats are numbered from {SEAT_BASE}"
                    )
            else:
                target = normalize_name(name)
        if not raw:
            raise ValueError(f"assignment {part!r} has no value after '='")
        try:
            value = parse_value(raw)
        except ValueError as error:
            raise ValueError(f"{error} (in assignment {part!r})") from error
        assignments.append(Assignment(value=value, target=target, text=part))
    return assignments


def resolve_assignments(
    assignments: Iterable[Assignment[T]],
    roles: Sequence[str],
    sides: Sequence[str],
    default: T,
    *,
    known_roles: Iterable[str] = (),
) -> list[T]:
    """Apply assignments in order to the seats of one game.

    Args:
        assignments: From :func:`parse_assignments`.
        roles: Role of each seat, 0-based (e.g. ``["merlin", "servant", "assassin", ...]``).
        sides: Side of each seat, 0-based (e.g. ``["good", "good", "evil", ...]``).
        default: Value of every seat no assignment covers.
        known_roles: Role names accepted even when no seat holds them in this game
            (e.g. every Avalon role, so one option string fits several presets).

    Returns:
        One value per seat, 0-based (seat ``SEAT_BASE`` is index 0).

    Raises:
        ValueError: ``roles`` and ``sides`` differ in length, or a target is
            not a side, a role or a seat of this game (the message names it and
            lists the valid ones).
    """
    if len(roles) != len(sides):
        raise ValueError(f"{len(roles)} roles but {len(sides)} sides: one of each per seat")
    seat_roles = [normalize_name(role) for role in roles]
    seat_sides = [normalize_name(side) for side in sides]
    allowed_roles = set(seat_roles) | {normalize_name(role) for role in known_roles}
    values = [default] * len(roles)
    for assignment in assignments:
        for seat in _seats(assignment, seat_roles, seat_sides, allowed_roles):
            values[seat] = assignment.value
    return values


def _seats(
    assignment: Assignment[T],
    seat_roles: list[str],
    seat_sides: list[str],
    allowed_roles: set[str],
) -> list[int]:
    """0-based seats an assignment covers; raises ``ValueError`` for an invalid target."""
    target, count = assignment.target, len(seat_roles)
    if target is None:
        return list(range(count))
    if isinstance(target, int):
        if not SEAT_BASE <= target < SEAT_BASE + count:
            raise ValueError(
                f"seat {target} in assignment {assignment.text!r} is out of range: "
                f"this game has seats {SEAT_BASE}..{SEAT_BASE + count - 1}"
            )
        return [target - SEAT_BASE]
    name, hash_, k = target.partition("#")
    if name in seat_sides:
        seats = [i for i, side in enumerate(seat_sides) if side == name]
    elif name in allowed_roles:
        seats = [i for i, role in enumerate(seat_roles) if role == name]
    else:
        seats = None
    if seats is not None and hash_:
        if not k.isdigit() or not 1 <= int(k) <= len(seats):
            raise ValueError(f"{target!r} in assignment {assignment.text!r}: this game has {len(seats)} "
                             f"{name} seat{'s' if len(seats) != 1 else ''} (#1..#{len(seats)})")
        return [seats[int(k) - 1]]
    if seats is not None:
        return seats
    raise ValueError(
        f"unknown side or role {target!r} in assignment {assignment.text!r}; "
        f"sides: {', '.join(sorted(set(seat_sides)))}; roles: {', '.join(sorted(allowed_roles))}"
    )
