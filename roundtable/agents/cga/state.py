"""State of the ``cga`` agent graph.

Input and output as every agent kind (`roundtable.agents.protocol.AgentInput`,
`AgentOutput`); the pool is the agent's memory (`roundtable.agents.cga.memory`).

Working channels, written by the nodes of one decision:

- ``recent``: the freshness window (the last K messages, as lines);
- ``informative``: the top-N earlier messages by informativeness (as lines);
- ``refresh``: whether this decision asks its questions afresh (else the
  round's questions, answers, reflection and suggestion in the pool serve);
- ``questions``: the questions asked; ``retrieved``: per question, the
  messages retrieved from memory (lines); ``answers``: ``[{question, answer}]``;
- ``reflection``, ``suggestion``: this decision's (``""``: none);
- ``retrieval_seconds``: the latency of each question's retrieval;
- ``action``, ``words``, ``retry``, ``attempts``, ``raw``, ``problems``,
  ``usage``: as in `roundtable.agents.lga.state.LgaState`;
- ``recheck``, ``reviewed``, ``copied``, ``checks``, ``thoughts``: the checks' channels
  (`roundtable.agents.protocol.CheckChannels`): the Host's note when ``think`` is asked again after a check,
  and the chain of thought of each ``think`` call.
"""

from __future__ import annotations

import operator
from typing import Annotated

from roundtable.agents.protocol import AgentInput, AgentOutput, CheckChannels, DecisionChannels


class CgaState(AgentInput, AgentOutput, DecisionChannels, CheckChannels, total=False):
    """The agent graph's full state (see the module docstring)."""

    recent: list[str]
    informative: list[str]
    refresh: bool
    questions: list[str]
    retrieved: list[list[str]]
    answers: list[dict[str, str]]
    reflection: str
    suggestion: str
    retrieval_seconds: Annotated[list[float], operator.add]
    retry: bool
    attempts: int
