"""What every game's immutable state shares: seats, copy-with-events, and its JSON snapshot without the log."""

from __future__ import annotations

from dataclasses import Field, fields, replace
from enum import Enum
from typing import TYPE_CHECKING, Any, ClassVar, Protocol

from roundtable.games.protocol import Event


class Restorable(Protocol):
    """A game state class whose instances snapshot themselves and which restores one (`LoggedState` subclasses)."""

    def snapshot(self) -> dict[str, Any]:
        """The state without its event log, JSON-ready."""
        ...

    @classmethod
    def restore(cls, snapshot: dict[str, Any], events: list[Event] | tuple[Event, ...]) -> Any:
        """The state of ``snapshot`` with the event log ``events``."""
        ...


def _plain(value: Any) -> Any:
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    if hasattr(value, "to_dict"):
        return value.to_dict()
    return value


class LoggedState:
    """A mixin for a frozen dataclass with ``roles`` (one per seat, 1-based players) and ``events`` (the log)."""

    roles: tuple[Any, ...]
    events: tuple[Event, ...]
    if TYPE_CHECKING:  # every subclass is a dataclass (what `replace` and `fields` need)
        __dataclass_fields__: ClassVar[dict[str, Field[Any]]]

    @property
    def players(self) -> tuple[int, ...]:
        """All player numbers, ``(1, ..., N)``."""
        return tuple(range(1, len(self.roles) + 1))

    def role_of(self, player: int) -> Any:
        """Role of ``player`` (1-based)."""
        return self.roles[player - 1]

    def evolve(self, new_events: list[Event] | tuple[Event, ...] = (), **changes: Any) -> Any:
        """Copy with ``changes`` applied and ``new_events`` appended to the log."""
        return replace(self, events=self.events + tuple(new_events), **changes)

    def snapshot(self) -> dict[str, Any]:
        """JSON-ready snapshot of every field but the event log (the largest part, kept apart): enums as
        their values, tuples as lists, the configuration as its dict."""
        return {f.name: _plain(getattr(self, f.name)) for f in fields(self) if f.name != "events"}


def state_fields(state_class: type[Restorable]) -> dict[str, Any]:
    """The `roundtable.games.protocol.GameRules` fields that every game whose state is a `LoggedState`
    (with ``phase``, an enum, and roles with a ``side``) fills alike: ``phase``, ``events``, ``seats``
    (``[(role, side), ...]`` by seat), ``snapshot`` and ``restore`` (``state_class.restore(snapshot, events)``)."""
    return {
        "phase": lambda state: state.phase.value,
        "events": lambda state: state.events,
        "seats": lambda state: [(r.value, r.side.value) for r in state.roles],
        "snapshot": state_class.snapshot,
        "restore": lambda snapshot, events: state_class.restore(snapshot, events),
    }
