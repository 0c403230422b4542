"""The Avalon game graph: the shared game graph (`roundtable.graphs.game`) over Avalon's rules.

::

    START -> setup -> reveal -> apply -> proposal -> naive|random|lga -> apply -> discussion -> ... -> game_over -> END

``graph`` is compiled without a checkpointer for ``langgraph.json``; the CLI
compiles `build_avalon_graph()` with SQLite (`roundtable.runner`).
"""

from __future__ import annotations

from roundtable.games.avalon import RULES

from .game import build_game_graph, compile_game_graph


def build_avalon_graph(**kwargs):  # type: ignore[no-untyped-def]
    """The uncompiled Avalon game graph (`build_game_graph` over Avalon's `RULES`; ``kwargs``: ``kinds``, ``models``)."""
    return build_game_graph(RULES, **kwargs)


graph = compile_game_graph(build_avalon_graph())
graph.name = "avalon"
