"""State of the ``lga`` agent graph.

Input (one decision, `roundtable.agents.protocol.AgentInput`): ``view`` (the
player's view as a dict; it may carry only the events not delivered before,
see ``PlayerView.first_event``), ``request`` (`Request` dict), ``pool`` (the
agent's memory pool after its previous decision, ``{}`` at first; see
`roundtable.agents.lga.memory`), ``seat`` (`SeatSpec` dict) and ``seed``.

Output (`roundtable.agents.protocol.AgentOutput`, merged by the game graph):
``decisions`` (``{request id: Decision dict}``) and ``memory`` (``{player: pool}``).

Working channels, written by the nodes of one decision:

- ``action``: the answer read so far (``players`` (+ ``passed``) or
  ``choice``), ``None`` before the act step;
- ``words``: the words read so far (``None``: none yet);
- ``retry``: too few players were named and the step that asked will ask again;
- ``attempts``: how many times the answer has been asked for;
- ``raw``, ``problems``, ``usage``: appended by each call: raw reply texts,
  problems found in them (fallback reasons), per-call usage records;
- ``recheck``: the Host's note for asking the step that spoke once more (its
  words would spoil the game, `roundtable.agents.lga.review`), ``reviewed``:
  that re-ask has been made, ``copied``: the words asked for again nearly copied an utterance (the re-ask is
  sampled to turn away from it), ``checks``: what the checks found (`Decision.checks`).
"""

from __future__ import annotations

import operator
from typing import Annotated

from roundtable.agents.protocol import AgentInput, AgentOutput, DecisionChannels


class LgaState(AgentInput, AgentOutput, DecisionChannels, total=False):
    """The agent graph's full state (see the module docstring)."""

    retry: bool
    attempts: int
    recheck: str | None
    reviewed: bool
    copied: bool
    checks: Annotated[list[str], operator.add]
