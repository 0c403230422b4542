"""The decision: the fallback rules of docs/games/protocol.md#fallback-rules over what was read, and the memory kept for
the next one.

No model call (`roundtable.agents.common.decision.final_decision`). The pool keeps
the round's questions, answers, reflection and suggestion (reused under
``refresh=round``) and, when there is a reflection, the (reflection, response)
pair that joins the experience pool after the game
(`roundtable.agents.cga.experience.record_game`). A decision that asked no questions (a forced one, or the
belief probe at game over) leaves the round's notes as they were, so the probe reads the last reflection; the
probe, no move of the game, adds no experience either.
"""

from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime

from roundtable.agents.cga.state import CgaState
from roundtable.agents.cga.suggest import current_reflection, private_texts
from roundtable.agents.cga.turn import CgaTurn
from roundtable.agents.common.decision import final_decision
from roundtable.agents.protocol import AgentOutput, agent_output
from roundtable.games.protocol import BELIEF, Decision, Request


def response_text(request: Request, decision: Decision) -> str:
    """What the agent did and said, as an experience's response (``Choice: ... Words: ...``)."""
    parts = []
    if request.answer == "pick":
        parts.append(f"I chose players {', '.join(map(str, decision.players))}." if decision.players else "I passed.")
    elif request.answer == "yes_no" and decision.choice is not None:
        parts.append(f"I answered {request.word(decision.choice)}.")
    if decision.utterance:
        parts.append(f'I said: "{decision.utterance}"')
    return f"{request.kind.replace('_', ' ').capitalize()}: {' '.join(parts)}"


def decide(state: CgaState, runtime: Runtime[Any]) -> AgentOutput:
    """Build the `Decision` and hand back the memory pool.

    Returns:
        ``{"decisions": {request id: Decision dict}, "memory": {player: pool}}``; ``decision.usage`` holds the
        calls, tokens and seconds per module (``modules``) and ``retrieval_seconds`` (per question);
        ``decision.thoughts`` the reflection, the answers and the chains of thought behind it, when a model was
        asked (`roundtable.agents.cga.suggest.private_texts`).
    """
    turn = CgaTurn.of(state, runtime)
    decision = final_decision(
        turn.view, turn.request, turn.seed, action=state.get("action"), utterance=state.get("utterance"),
        replies=list(state.get("raw") or []), problems=list(state.get("problems") or []),
        usage=list(state.get("usage") or []), checks=list(state.get("checks") or []),
        response_words=turn.options.response_words, aids=turn.options.aided, attempts=int(state.get("attempts") or 0),
        thoughts=private_texts(state) if state.get("raw") else (),
    )
    seconds = list(state.get("retrieval_seconds") or [])
    if seconds:
        decision = decision.model_copy(update={"usage": decision.usage | {"retrieval_seconds": seconds}})
    pool: dict[str, Any] = dict(turn.memory)
    probe = turn.request.kind == BELIEF
    if state.get("refresh") and not probe and not turn.request.forced:
        pool.update(refreshed=turn.refresh_key, questions=list(state.get("questions") or []),
                    answers=list(state.get("answers") or []), reflection=str(state.get("reflection") or ""),
                    suggestion=str(state.get("suggestion") or ""))
    reflection = current_reflection(state)
    if reflection and not turn.request.forced and not probe:
        pool["experience"] = [*(pool.get("experience") or []),
                              {"reflection": reflection, "response": response_text(turn.request, decision),
                               "round": turn.view.round}]
    return agent_output(decision, pool)
