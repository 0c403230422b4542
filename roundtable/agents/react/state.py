"""State of the ``react`` agent graph.

Input and output as every agent kind (`roundtable.agents.protocol.AgentInput`, `AgentOutput`); the memory pool
(``pool``) is `roundtable.agents.react.memory`'s. Working channels of one decision, all JSON:

- ``thought``: the last ``think`` reply, the free answer the parser reads (``None`` before ``think``);
- ``retry``: the parser read too few players and ``think`` is asked again; ``attempts``: how often the parser
  has read an answer;
- ``action``, ``utterance``: the answer the parser read and the sentence said (`DecisionChannels`);
- ``raw``, ``problems``, ``usage``: appended by each call (raw replies, fallback reasons, usage records);
- ``checks``: what the agent's own checks found (`Decision.checks`): sentences cut, a summary kept.
"""

from __future__ import annotations

import operator
from typing import Annotated

from roundtable.agents.protocol import AgentInput, AgentOutput, DecisionChannels


class ReactState(AgentInput, AgentOutput, DecisionChannels, total=False):
    """The agent graph's full state (see the module docstring)."""

    thought: str | None
    retry: bool
    attempts: int
    checks: Annotated[list[str], operator.add]
