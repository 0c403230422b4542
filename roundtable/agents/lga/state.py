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
- ``recheck``, ``reviewed``, ``copied``, ``checks``, ``thoughts``: the channels of the agent's own checks
  (`roundtable.agents.protocol.CheckChannels`): the Host's note for asking the step that spoke (or voted)
  once more (`roundtable.agents.lga.review`, `roundtable.agents.lga.vote_check`), and so on.
"""

from __future__ import annotations

from roundtable.agents.protocol import AgentInput, AgentOutput, CheckChannels, DecisionChannels


class LgaState(AgentInput, AgentOutput, DecisionChannels, CheckChannels, total=False):
    """The agent graph's full state (see the module docstring)."""

    retry: bool
    attempts: int
