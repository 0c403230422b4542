"""The Avalon game graph: the shared game graph (`roundtable.graphs.game`) over Avalon's rules.

::

    START -> setup -> reveal -> apply -> proposal -> naive|random|lga -> apply -> discussion -> ... -> game_over -> END

``graph`` is compiled without a checkpointer for ``langgraph.json``; the CLI
compiles `build_avalon_graph()` with SQLite (`roundtable.play.runner`).
"""

from __future__ import annotations

from typing import Any

from roundtable.games.avalon import RULES
from roundtable.graphs.game import GameBuilder, build_game_graph


def build_avalon_graph(**kwargs: Any) -> GameBuilder:
    """The uncompiled Avalon game graph (`build_game_graph` over Avalon's `RULES`; ``kwargs``: ``kinds``,
    ``models``)."""
    return build_game_graph(RULES, **kwargs)


graph = build_avalon_graph().compile()
graph.name = "avalon"
