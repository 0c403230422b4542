"""State of the ``codeact`` and ``cot`` agent graphs.

Input and output as every agent kind (`roundtable.agents.protocol.AgentInput`,
`AgentOutput`). Working channels of one decision, all JSON (the sandbox worker
itself is never in the state):

- ``facts``: the leader's facts, as dicts (`roundtable.agents.codeact.facts`);
- ``program``: the program the last ``write``/``debug`` produced (``None``: its reply held none);
- ``attempts``: every program run: ``{program, output, error, seconds, restarted, team}``
  (``team``: the players its output named, when usable), oldest first;
- ``steps``: the ReAct leader's ``{thought, action, observation}`` steps;
- ``action``, ``words``: the answer and the words read so far;
- ``raw``, ``problems``, ``usage``: appended by each call (raw replies, fallback reasons, usage records);
- ``recheck``, ``reviewed``, ``copied``, ``checks``, ``thoughts``: the checks' channels
  (`roundtable.agents.protocol.CheckChannels`): the Host's note when ``think`` is asked again after a check, and
  the reasoning of each ``think`` call.
"""

from __future__ import annotations

import operator
from typing import Annotated, Any

from roundtable.agents.protocol import AgentInput, AgentOutput, CheckChannels, DecisionChannels


class CodeActState(AgentInput, AgentOutput, DecisionChannels, CheckChannels, total=False):
    """The agent graph's full state (see the module docstring)."""

    facts: list[dict[str, Any]]
    program: str | None
    attempts: Annotated[list[dict[str, Any]], operator.add]
    steps: Annotated[list[dict[str, Any]], operator.add]
