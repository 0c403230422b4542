"""The team a CodeAct or ReAct leader proposes, from its loop's result, or the documented fallback.

- CodeAct: the team the last successful program printed;
- ReAct: the team of the ``Finish[...]`` step, when legal;
- the final naming of a team after the discussion (``leader_first_and_last``):
  the team already proposed stands (Shi et al.: the discussion follows the
  team; the program's choice is not rewritten by talk);
- **fallback**: when every attempt failed (or ReAct never finished with a legal
  team), no team is read and the fallback rules of docs/games/protocol.md#fallback-rules fill it at random
  (seeded); the failure is recorded in ``Decision.fallback`` and each attempt in ``Decision.checks``.
"""

from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime

from roundtable.agents.codeact.state import CodeActState
from roundtable.agents.codeact.turn import CodeActTurn
from roundtable.games.fallbacks import clean_pick


def answer(state: CodeActState, runtime: Runtime[Any]) -> dict[str, Any]:
    """Set ``action`` to the leader's team, or record why there is none."""
    turn = CodeActTurn.of(state, runtime)
    request = turn.request
    attempts = list(state.get("attempts") or [])
    steps = list(state.get("steps") or [])
    if not attempts and not steps:
        if request.details.get("final") and request.subject:
            return {"action": {"players": list(request.subject)}}
        return {"problems": ["leader: no team was worked out: team from the fallback rules"]}
    if attempts:
        good = [a for a in attempts if a.get("team")]
        if good:
            return {"action": {"players": list(good[-1]["team"])}}
        last = str(attempts[-1].get("error") or "").strip().splitlines()
        why = last[-1][:160] if last else "no usable output"
        return {"problems": [f"codeact: all {len(attempts)} programs failed (last: {why}): team from the fallback "
                             "rules"]}
    finish = next((s for s in reversed(steps) if s.get("team") is not None), None)
    if finish is not None:
        players, problems = clean_pick(finish["team"], request.count or 0, request.candidates)
        if len(players) == request.count and not problems:
            return {"action": {"players": players}}
        return {"problems": [f"react: Finish named no legal team ({'; '.join(problems) or 'too few players'}): "
                             "team from the fallback rules"]}
    return {"problems": [f"react: no Finish in {len(steps)} steps: team from the fallback rules"]}
