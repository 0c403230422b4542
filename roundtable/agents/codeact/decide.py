"""The decision of a ``codeact``/``cot`` agent: `roundtable.agents.common.decision.final_decision` plus its program
attempts.

Each program attempt is summarized in ``Decision.checks`` (``"program 1: NameError: ..."``,
``"program 2: team 1, 4"``), so the game record shows the self-debug loop, followed by what the checks of the
answer found (docs/agents/checks.md); ``Decision.thoughts`` holds the reasoning behind it (the ReAct leader's
thoughts, the chains of thought; not the programs).
"""

from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime

from roundtable.agents.codeact.state import CodeActState
from roundtable.agents.codeact.think import private_texts
from roundtable.agents.codeact.turn import CodeActTurn
from roundtable.agents.common.decision import final_decision
from roundtable.agents.protocol import AgentOutput, agent_output


def attempt_checks(attempts: list[dict[str, Any]], steps: list[dict[str, Any]]) -> list[str]:
    """One line per program run (its team, or the last line of its error) and per ReAct step (its action)."""
    lines = []
    for i, attempt in enumerate(attempts, start=1):
        if attempt.get("team"):
            lines.append(f"program {i}: team {', '.join(map(str, attempt['team']))}")
        else:
            error = str(attempt.get("error") or "").strip().splitlines()
            lines.append(f"program {i}: {error[-1][:160] if error else 'failed'}")
    lines += [f"react {i}: {s.get('action')}" for i, s in enumerate(steps, start=1)]
    return lines


def decide(state: CodeActState, runtime: Runtime[Any]) -> AgentOutput:
    """Build the legal `Decision` and hand back the memory pool.

    Returns:
        ``{"decisions": {request id: Decision dict}, "memory": {player: pool}}``.
    """
    turn = CodeActTurn.of(state, runtime)
    decision = final_decision(
        turn.view, turn.request, turn.seed, action=state.get("action"), utterance=state.get("utterance"),
        replies=list(state.get("raw") or []), problems=list(state.get("problems") or []),
        usage=list(state.get("usage") or []),
        checks=[*attempt_checks(list(state.get("attempts") or []), list(state.get("steps") or [])),
                *(state.get("checks") or [])],
        response_words=turn.options.response_words, aids=turn.options.aided, thoughts=private_texts(state),
    )
    return agent_output(decision, turn.memory)
