"""Games and agent kinds as plugins: the records declared under a Python entry-point group.

A package adds a game by declaring ``[project.entry-points."roundtable.games"]
mygame = "mypackage.rules:RULES"`` (a `roundtable.games.protocol.GameRules`),
and an agent kind by ``[project.entry-points."roundtable.agents"] mykind =
"mypackage.kind:KIND"`` (a `roundtable.agents.protocol.AgentKind`); this
project declares its own the same way (``pyproject.toml``). See
[the architecture page](../docs/architecture.md#plugins).
"""

from __future__ import annotations

from importlib.metadata import entry_points
from typing import TypeVar

T = TypeVar("T")


class PluginError(RuntimeError):
    """An entry point that does not load, or whose record is not of the group's type or has another name."""


def load_plugins(group: str, record: type[T]) -> dict[str, T]:
    """Every record declared under the entry-point ``group``, by name, in name order.

    Args:
        group: ``roundtable.games`` or ``roundtable.agents``.
        record: the type each entry point must resolve to (its ``name`` attribute must equal the entry
            point's name).

    Returns:
        ``{name: record}``.

    Raises:
        PluginError: an entry point of the wrong type or name, or a name declared twice by different records.
    """
    found: dict[str, T] = {}
    for point in sorted(entry_points(group=group), key=lambda p: p.name):
        value = point.load()
        if not isinstance(value, record):
            raise PluginError(f"entry point {point.name!r} of {group} ({point.value}) is not a {record.__name__}")
        name = getattr(value, "name", point.name)
        if name != point.name:
            raise PluginError(f"entry point {point.name!r} of {group} ({point.value}) declares "
                              f"{name!r}: the names must agree")
        if point.name in found and found[point.name] is not value:
            raise PluginError(f"{group} {point.name!r} is declared twice")
        found[point.name] = value
    return found
