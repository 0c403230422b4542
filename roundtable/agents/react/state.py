"""State of the ``react`` agent graph.

Input and output as every agent kind (`roundtable.agents.protocol.AgentInput`, `AgentOutput`); the memory pool
(``pool``) is `roundtable.agents.react.memory`'s. Working channels of one decision, all JSON:

- ``thought``: the last ``think`` reply, the free answer the parser reads (``None`` before ``think``);
- ``retry``: the parser read too few players and ``think`` is asked again; ``named``: the players it read then;
  ``attempts``: how often the parser has read an answer;
- ``action``, ``utterance``: the answer the parser read and the sentence said (`DecisionChannels`);
- ``raw``, ``problems``, ``usage``: appended by each call (raw replies, fallback reasons, usage records);
- ``recheck``, ``reviewed``, ``copied``, ``checks``, ``thoughts``: the checks' channels
  (`roundtable.agents.protocol.CheckChannels`): the Host's note when ``think`` or ``speak`` is asked again after a
  check; what the agent's own checks found (`Decision.checks`: sentences cut, a summary kept, the checks of
  docs/agents/checks.md); each ``think`` reply's reasoning.
"""

from __future__ import annotations

from roundtable.agents.protocol import AgentInput, AgentOutput, CheckChannels, DecisionChannels


class ReactState(AgentInput, AgentOutput, DecisionChannels, CheckChannels, total=False):
    """The agent graph's full state (see the module docstring)."""

    thought: str | None
    retry: bool
    named: list[int]
    attempts: int
