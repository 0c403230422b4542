"""Reading the shipped published figures (docs/published.md) and resolving an experiment's references to them.

The figures are TOML files of this package (`roundtable.experiments.published.model`), read once with
``importlib.resources`` so that they are found in an installed package as in the source tree.
"""

from __future__ import annotations

import tomllib
from functools import cache
from importlib.resources import files

from pydantic import ValidationError

from roundtable.experiments.published.model import Paper, PublishedFigure, PublishedFile


class PublishedDataError(ValueError):
    """A shipped file of published figures that does not load or validate; the message names the file."""


class UnknownPublishedError(ValueError):
    """A reference that names no shipped figure; the message names it and the papers' keys."""


@cache
def published_files() -> dict[str, PublishedFile]:
    """Every shipped paper's file, by paper key, in file-name order.

    Raises:
        PublishedDataError: a file that is not TOML or breaks the model, or two files with one key or one id.
    """
    out: dict[str, PublishedFile] = {}
    seen: set[str] = set()
    folder = files(__package__ or "roundtable.experiments.published")
    for entry in sorted((e for e in folder.iterdir() if e.name.endswith(".toml")), key=lambda e: e.name):
        try:
            data = PublishedFile.model_validate(tomllib.loads(entry.read_text(encoding="utf-8")))
        except (tomllib.TOMLDecodeError, ValidationError) as error:
            raise PublishedDataError(f"published figures {entry.name}: {error}") from None
        if data.paper.key in out:
            raise PublishedDataError(f"published figures {entry.name}: paper key {data.paper.key!r} used twice")
        again = seen & {f.id for f in data.figures}
        if again:
            raise PublishedDataError(f"published figures {entry.name}: ids used twice: {', '.join(sorted(again))}")
        seen |= {f.id for f in data.figures}
        out[data.paper.key] = data
    return out


def published_figures() -> dict[str, PublishedFigure]:
    """Every shipped figure by id, papers in file-name order and figures in file order."""
    return {f.id: f for data in published_files().values() for f in data.figures}


def paper_of(figure: PublishedFigure) -> Paper:
    """The paper ``figure`` comes from (the first part of its id)."""
    return published_files()[figure.id.split(".")[0]].paper


def matches(reference: str, figure_id: str) -> bool:
    """Whether ``reference`` names ``figure_id``: the id itself, or a leading run of its dotted parts
    (``light2023.baseline`` names ``light2023.baseline.good-win-rate``, ``light2023.base`` does not)."""
    return figure_id == reference or figure_id.startswith(reference + ".")


def select(references: list[str]) -> list[PublishedFigure]:
    """The figures ``references`` name, each once, in the order of the shipped data.

    Raises:
        UnknownPublishedError: a reference that names no shipped figure.
    """
    figures = published_figures()
    for reference in references:
        if not any(matches(reference, i) for i in figures):
            raise UnknownPublishedError(
                f"unknown published figure {reference!r}: no shipped figure has this id or starts with it; ids "
                f"start with {', '.join(published_files())} (docs/published.md)")
    return [f for i, f in figures.items() if any(matches(r, i) for r in references)]
