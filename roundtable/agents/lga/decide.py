"""The decision: the fallback rules of docs/games/protocol.md#fallback-rules applied to what was read, words cleaned,
cost summed.

No model call (`roundtable.agents.common.decision.final_decision`). A `prepare_round`
notice gets no decision: the cost of the notes written for it waits in the
memory pool (``carried_usage``) and is summed into the player's next decision,
as it was when the notes were written before that decision.
"""

from __future__ import annotations

from langgraph.runtime import Runtime

from roundtable.agents.common.decision import RAW_SEPARATOR, final_decision
from roundtable.agents.lga.context import LgaContext
from roundtable.agents.lga.state import LgaState
from roundtable.agents.lga.turn import Turn
from roundtable.agents.protocol import AgentOutput, agent_output
from roundtable.games.protocol import PREPARE_ROUND

__all__ = ["CARRIED", "RAW_SEPARATOR", "decide"]

CARRIED = "carried_usage"
"""The memory pool's key for the usage records of notes written for a `prepare_round` notice."""


def decide(state: LgaState, runtime: Runtime[LgaContext]) -> AgentOutput:
    """Build the `Decision` from the answer and words read, and hand back the memory pool.

    Returns:
        ``{"decisions": {request id: Decision dict}, "memory": {player: pool}}``; for a
        `prepare_round` notice only ``{"memory": {player: pool}}``, the pool's ``carried_usage``
        holding the per-call usage records of the notes written for it.
        ``decision.usage`` holds ``calls``, ``prompt_tokens``,
        ``completion_tokens``, ``cached_tokens``, ``failures``, ``seconds``
        (summed call latency), ``fallbacks`` (count) and ``modules`` (per module). ``decision.thoughts``:
        the notes the decision's prompts showed (summary, analysis, plan), when a model was asked.
    """
    turn = Turn.of(state, runtime)
    pool = dict(turn.memory)
    usage = list(pool.pop(CARRIED, None) or []) + list(state.get("usage") or [])
    if turn.request.kind == PREPARE_ROUND:
        return {"memory": {str(turn.view.player): {**pool, CARRIED: usage} if usage else pool}}
    decision = final_decision(
        turn.view, turn.request, turn.seed, action=state.get("action"), utterance=state.get("utterance"),
        replies=list(state.get("raw") or []), problems=list(state.get("problems") or []),
        usage=usage, checks=list(state.get("checks") or []),
        response_words=turn.options.response_words, aids=turn.options.aided, attempts=int(state.get("attempts") or 0),
        thoughts=turn.notes() if state.get("raw") else (),
    )
    return agent_output(decision, pool)
