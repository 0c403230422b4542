"""Each game's own part of the play-quality measures (docs/measures.md#play-quality), declared under the entry-point
group ``roundtable.quality`` (a plugin game declares its own, as the judges and report parts are declared), so the
measures tell no game apart: a game without a part gets the measures every game shares."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from roundtable.metrics.quality.result import LABELS, PlayQuality
from roundtable.plugins import load_plugins


@dataclass(frozen=True)
class QualityPart:
    """One game's part of the play-quality measures.

    Attributes:
        name: the game's name (a key of `roundtable.games.GAMES`; the entry point's name).
        count: ``count(record, quality)``: counts the game's own measures of one game record (with its ``roles``)
            into ``quality``, raising ``KeyError``/``ValueError`` on a record without roles or with an unknown role.
        labels: the game's own names of the shared measures (``{"merlin_exposed": "Merlin exposed"}``), where
            `roundtable.metrics.quality.result.LABELS` names them for every game; ``""``: a measure the game never
            counts, left out of its lines.
    """

    name: str
    count: Callable[[dict[str, Any], PlayQuality], None]
    labels: Mapping[str, str] = field(default_factory=dict)


@lru_cache(maxsize=1)
def quality_parts() -> dict[str, QualityPart]:
    """Every game's `QualityPart`, by game name (the ``roundtable.quality`` entry points).

    Raises:
        PluginError: a declared part that does not load, is not a `QualityPart` or names another game.
    """
    return load_plugins("roundtable.quality", QualityPart)


def measure_label(game: str, measure: str) -> str:
    """How ``game``'s lines name ``measure``: its part's label (`QualityPart.labels`), else the shared one
    (`roundtable.metrics.quality.result.LABELS`); ``""``: the game never counts it."""
    part = quality_parts().get(game)
    return part.labels.get(measure, LABELS[measure]) if part is not None else LABELS[measure]
