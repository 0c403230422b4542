"""The Werewolf game graph: the shared game graph (`roundtable.graphs.game`) over Werewolf's rules.

The rules: docs/games/werewolf.md.

::

    START -> setup -> werewolves -(Send per request)-> naive|random|human|cga -> apply -> werewolves | guard
          -> ... -> witch -> seer -> dawn -> day_talk -> ... -> day_vote -(Send per living player)-> ...
          -> last_words -> ... -> game_over -> END

One node per phase: the night's ``werewolves``, ``guard``, ``witch`` and
``seer``, then ``dawn``, ``day_talk``, ``day_vote``, ``last_words`` and
``game_over``. The day's elimination votes fan out with ``Send`` and run at
once; so do the werewolves' kill votes under ``werewolf_night=simultaneous``,
while under ``sequential`` (the ``xu7`` default) ``werewolves`` asks one
werewolf at a time and runs again after each vote, until all have voted
(docs/games/werewolf.md#werewolf_night). ``graph`` is compiled without a
checkpointer for ``langgraph.json``; the CLI compiles `build_werewolf_graph()`
with SQLite (`roundtable.play.runner`).
"""

from __future__ import annotations

from typing import Any

from roundtable.games.werewolf import RULES
from roundtable.graphs.game import GameBuilder, build_game_graph


def build_werewolf_graph(**kwargs: Any) -> GameBuilder:
    """The uncompiled Werewolf game graph (`build_game_graph` over Werewolf's `RULES`; ``kwargs``: ``kinds``,
    ``models``)."""
    return build_game_graph(RULES, **kwargs)


graph = build_werewolf_graph().compile()
graph.name = "werewolf"
