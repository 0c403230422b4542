"""Each game's own part of the play-quality measures (docs/measures.md#play-quality), declared under the entry-point
group ``roundtable.quality`` (a plugin game declares its own, as the judges and report parts are declared), so the
measures tell no game apart: a game without a part gets the measures every game shares."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from roundtable.metrics.quality.result import PlayQuality
from roundtable.plugins import load_plugins


@dataclass(frozen=True)
class QualityPart:
    """One game's part of the play-quality measures.

    Attributes:
        name: the game's name (a key of `roundtable.games.GAMES`; the entry point's name).
        count: ``count(record, quality)``: counts the game's own measures of one game record (with its ``roles``)
            into ``quality``, raising ``KeyError``/``ValueError`` on a record without roles or with an unknown role.
    """

    name: str
    count: Callable[[dict[str, Any], PlayQuality], None]


@lru_cache(maxsize=1)
def quality_parts() -> dict[str, QualityPart]:
    """Every game's `QualityPart`, by game name (the ``roundtable.quality`` entry points).

    Raises:
        PluginError: a declared part that does not load, is not a `QualityPart` or names another game.
    """
    return load_plugins("roundtable.quality", QualityPart)
