"""The decision: the fallback rules of SPEC.md §3.2 applied to what was read, words cleaned, cost summed.

No model call. Whatever the replies were, the decision returned passes
`check_decision`; every rule that had to step in is named in
`Decision.fallback`, and the raw replies are kept in `Decision.raw`.
"""

from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime

from roundtable.games.avalon import Decision, IllegalActionError, check_team
from roundtable.games.avalon.fallbacks import (
    checked,
    choose_card,
    choose_target,
    choose_team,
    choose_vote,
    default_words,
    join_reasons,
    sanitize_utterance,
)
from roundtable.tools.extraction import action_kind
from roundtable.tools.model_calls import total_usage

from .reading import is_forced
from .turn import Turn

RAW_SEPARATOR = "\n---\n"


def decide(state: dict[str, Any], runtime: Runtime[Any]) -> dict[str, Any]:
    """Build the `Decision` (as a dict) from the action and words read, and hand back the memory.

    Returns:
        ``{"decision": Decision dict, "memory": memory}``. ``decision.usage``
        holds ``calls``, ``prompt_tokens``, ``completion_tokens``,
        ``cached_tokens``, ``failures``, ``seconds`` (summed call latency) and ``fallbacks`` (count).
    """
    turn = Turn.of(state, runtime)
    request, view = turn.request, turn.view
    action = dict(state.get("action") or {})
    reasons: list[str | None] = list(state.get("problems") or [])
    fields: dict[str, Any] = {}
    kind = action_kind(request)
    if kind == "team":
        team = tuple(action.get("team") or ())
        try:
            check_team(team, request.team_size, request.candidates)
        except IllegalActionError:
            choice = choose_team(request, action.get("team"), turn.seed, retries_left=0,
                                 attempt=int(state.get("attempts") or 0))
            team = choice.team or ()
            reasons.append(choice.fallback)
        fields["team"] = team
    elif kind == "vote":
        fields["approve"], reason = choose_vote(action.get("approve"))
        reasons.append(reason)
    elif kind == "quest_card":
        fields["success"], reason = choose_card(request, True if is_forced(request) else action.get("success"))
        reasons.append(reason)
    elif kind == "target":
        fields["target"], reason = choose_target(request, action.get("target"), turn.seed,
                                                 passed=bool(action.get("passed")))
        reasons.append(reason)
    if request.wants_words:
        words, reason = sanitize_utterance(state.get("words"), view.player, turn.options.response_words)
        reasons.append(reason)
        if not words:
            words = default_words(view, request, fields.get("team"))
            reasons.append("no usable words: plain words used")
        fields["utterance"] = words
    replies = list(state.get("raw") or [])
    raw = RAW_SEPARATOR.join(replies) if replies else None  # an empty reply is kept as ""

    fallback = join_reasons(reasons)
    count = len(fallback.split("; ")) if fallback else 0
    decision = Decision(
        request_id=request.id, player=request.player, kind=request.kind, raw=raw, fallback=fallback,
        usage=total_usage(state.get("usage") or [], fallbacks=count), **fields,
    )
    decision = checked(request, decision, turn.seed)
    return {"decision": decision.model_dump(mode="json"), "memory": turn.memory}
