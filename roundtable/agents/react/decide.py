"""The decision of a ``react`` agent: `roundtable.agents.common.decision.final_decision` over what the parser read
and the sentence said (the fallback rules of docs/games/protocol.md#fallback-rules, words cleaned, cost summed);
no model call."""

from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime

from roundtable.agents.common.decision import final_decision
from roundtable.agents.protocol import AgentOutput, agent_output
from roundtable.agents.react.state import ReactState
from roundtable.agents.react.turn import ReactTurn


def decide(state: ReactState, runtime: Runtime[Any]) -> AgentOutput:
    """Build the legal `Decision` and hand back the memory pool.

    Returns:
        ``{"decisions": {request id: Decision dict}, "memory": {player: pool}}``; the decision's ``raw`` holds the
        reasoning, the parser's answers and the sentence, ``fallback`` every rule that stepped in, ``usage`` the
        cost of every call of the turn (the summary's included), ``thoughts`` the summary and the reasoning its
        prompts showed or wrote, when a model was asked.
    """
    turn = ReactTurn.of(state, runtime)
    decision = final_decision(
        turn.view, turn.request, turn.seed, action=state.get("action"), utterance=state.get("utterance"),
        replies=list(state.get("raw") or []), problems=list(state.get("problems") or []),
        usage=list(state.get("usage") or []), checks=list(state.get("checks") or []),
        response_words=turn.options.response_words, aids=turn.options.aided, attempts=int(state.get("attempts") or 0),
        thoughts=turn.private_texts(list(state.get("thoughts") or [])) if state.get("raw") else (),
    )
    return agent_output(decision, turn.memory)
