"""The decision: the fallback rules of SPEC.md §3.2 applied to what was read, words cleaned, cost summed.

No model call. Whatever the replies were, the decision returned passes
`check_decision`; every rule that had to step in is named in
`Decision.fallback`, and the raw replies are kept in `Decision.raw`.
"""

from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime

from roundtable.prompts.context import LgaContext

from roundtable.games import GAMES
from roundtable.games.fallbacks import checked, choose_pick, choose_yes_no, join_reasons, sanitize_utterance
from roundtable.games.protocol import Decision
from roundtable.tools.model_calls import total_usage

from ..agent import AgentOutput, agent_output
from .state import LgaState
from .turn import Turn

RAW_SEPARATOR = "\n---\n"


def decide(state: LgaState, runtime: Runtime[LgaContext]) -> AgentOutput:
    """Build the `Decision` from the answer and words read, and hand back the memory pool.

    Returns:
        ``{"decisions": {request id: Decision dict}, "memory": {player: pool}}``.
        ``decision.usage`` holds ``calls``, ``prompt_tokens``,
        ``completion_tokens``, ``cached_tokens``, ``failures``, ``seconds``
        (summed call latency), ``fallbacks`` (count) and ``modules`` (per module).
    """
    turn = Turn.of(state, runtime)
    request, view = turn.request, turn.view
    action = dict(state.get("action") or {})
    reasons: list[str | None] = list(state.get("problems") or [])
    fields: dict[str, Any] = {}
    if request.answer == "pick":
        choice = choose_pick(request, action.get("players"), turn.seed, passed=bool(action.get("passed")),
                             attempt=int(state.get("attempts") or 0))
        fields["players"] = choice.players
        reasons.append(choice.fallback)
    elif request.answer == "yes_no":
        fields["choice"], reason = choose_yes_no(request, action.get("choice"))
        reasons.append(reason)
    if request.wants_words:
        words, reason = sanitize_utterance(state.get("words"), view.player, turn.options.response_words)
        reasons.append(reason)
        if not words:
            words = GAMES[view.game].plain_words(view, request, Decision.to(request, **fields))
            reasons.append("no usable words: plain words used")
        fields["utterance"] = words
    replies = list(state.get("raw") or [])
    raw = RAW_SEPARATOR.join(replies) if replies else None  # an empty reply is kept as ""

    fallback = join_reasons(reasons)
    count = len(fallback.split("; ")) if fallback else 0
    decision = Decision.to(request, raw=raw, fallback=fallback, checks=tuple(state.get("checks") or ()),
                           usage=total_usage(state.get("usage") or [], fallbacks=count), **fields)
    return agent_output(checked(request, decision, turn.seed), turn.memory)
