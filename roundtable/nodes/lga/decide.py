"""The decision: the fallback rules of SPEC.md §3.2 applied to what was read, words cleaned, cost summed.

No model call (`roundtable.nodes.decision.final_decision`).
"""

from __future__ import annotations

from langgraph.runtime import Runtime

from roundtable.prompts.context import LgaContext

from ..agent import AgentOutput, agent_output
from ..decision import RAW_SEPARATOR, final_decision
from .state import LgaState
from .turn import Turn

__all__ = ["RAW_SEPARATOR", "decide"]


def decide(state: LgaState, runtime: Runtime[LgaContext]) -> AgentOutput:
    """Build the `Decision` from the answer and words read, and hand back the memory pool.

    Returns:
        ``{"decisions": {request id: Decision dict}, "memory": {player: pool}}``.
        ``decision.usage`` holds ``calls``, ``prompt_tokens``,
        ``completion_tokens``, ``cached_tokens``, ``failures``, ``seconds``
        (summed call latency), ``fallbacks`` (count) and ``modules`` (per module).
    """
    turn = Turn.of(state, runtime)
    decision = final_decision(
        turn.view, turn.request, turn.seed, action=state.get("action"), words=state.get("words"),
        replies=list(state.get("raw") or []), problems=list(state.get("problems") or []),
        usage=list(state.get("usage") or []), checks=list(state.get("checks") or []),
        response_words=turn.options.response_words, attempts=int(state.get("attempts") or 0),
    )
    return agent_output(decision, turn.memory)
