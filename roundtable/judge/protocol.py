"""What a game gives the judge: its behaviours, the words its prompts use, its tables and figures (`GameJudge`),
declared under the ``roundtable.judges`` entry points (docs/judge.md#behaviours).

A game without a declared judge has no behaviour to judge, and ``roundtable judge`` refuses its records.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Literal

from roundtable.judge.answers import Answer, Item
from roundtable.judge.transcript import Transcript
from roundtable.metrics.tables import Measure
from roundtable.plugins import load_plugins


@dataclass(frozen=True)
class Behaviour:
    """One behaviour the judge labels, a node of the judge graph.

    Attributes:
        name: its name (``deception``, ``stance``, ``sharing``, ``camouflage``): the graph node, the module its
            model calls name, the cache file's prefix.
        template: its prompt template (``judge/deception``); the system prompt ``judge/system`` comes first.
        description: one line on what it asks (the prompt field's description in Studio).
        items: ``items(transcript) -> [Item]``: the questions it asks of one record.
    """

    name: str
    template: str
    description: str
    items: Callable[[Transcript], list[Item]]


@dataclass(frozen=True)
class Judged:
    """One record with its judgements.

    Attributes:
        transcript: what the judge read.
        answers: ``{behaviour: {item key: Answer or None}}``, only behaviours judged completely.
    """

    transcript: Transcript
    answers: Mapping[str, Mapping[str, Answer | None]]


@dataclass(frozen=True)
class Figure:
    """One table of a report's social-behaviour section, and its plot.

    Attributes:
        name: the plot's file stem and the table's id (``deception`` -> ``judge_deception.png``).
        title: the section's heading.
        shape: ``bars`` (one bar per metric per group), ``heatmap`` (one speaker x target matrix per metric,
            groups ``speaker>target``), ``lines`` (a metric per round, groups ``speaker>target@round``), or
            ``table`` (no plot).
        metrics: the `Measure.metric` values shown.
        group_by: the `Measure.group_by` of its rows.
        text: a paragraph saying what it shows.
    """

    name: str
    title: str
    shape: Literal["bars", "heatmap", "lines", "table"]
    metrics: tuple[str, ...]
    group_by: str
    text: str


@dataclass(frozen=True)
class GameJudge:
    """What the judge knows of one game.

    Attributes:
        name: the game's name (a key of `roundtable.games.GAMES`).
        round_field: the utterance field that holds the round (``round``, ``day``).
        terms: variables every prompt of the game gets (``game`` title, ``round_name``, ``roles``:
            ``[{"name", "title", "side"}]``, ``sides``).
        behaviours: the behaviours judged, in the order the graph runs them.
        measures: ``measures({condition: [Judged]}) -> [Measure]``: the report's rows.
        figures: the report's tables and plots over those rows.
        summary: ``summary(Judged) -> str``: one line for ``roundtable show``.
        groups: the order of the groups the rows are by (roles or sides), for tables and plots.
        facts: ``facts(record) -> {name: value}`` (JSON-ready): what the game's questions and tables read of a
            record beyond its words (`roundtable.judge.transcript.Transcript.facts`: the truth a claim is held
            to, such as the cards a government held in a game whose deception is about cards); ``None``: none.
    """

    name: str
    round_field: str
    terms: Mapping[str, Any]
    behaviours: Mapping[str, Behaviour]
    measures: Callable[[Mapping[str, Sequence[Judged]]], list[Measure]]
    figures: tuple[Figure, ...]
    summary: Callable[[Judged], str]
    groups: tuple[str, ...] = ()
    facts: Callable[[Mapping[str, Any]], dict[str, Any]] | None = None


@lru_cache(maxsize=1)
def judges() -> dict[str, GameJudge]:
    """Every game's `GameJudge`, by game name (the ``roundtable.judges`` entry points).

    Raises:
        PluginError: a declared judge that does not load or names another game.
    """
    return load_plugins("roundtable.judges", GameJudge)


def behaviour_names() -> list[str]:
    """Every behaviour any game declares, each once, in declaration order (the judge graph's nodes)."""
    names: list[str] = []
    for judge in judges().values():
        names += [name for name in judge.behaviours if name not in names]
    return names
