"""The ReAct leader (Yao et al. 2023; the baseline of Shi et al. 2023): thought, action, observation, in text.

Each ``react`` step asks the model for a ``Thought:`` and an ``Action:``:
``Check[players]`` observes the leader's facts that name those players (a
lookup in its own memory, the environment of this ReAct loop);
``Finish[players]`` proposes the team. After ``react_steps`` steps the last
one must finish. Temperature: the prose one (0.7).
"""

from __future__ import annotations

import re
from typing import Any

from langgraph.runtime import Runtime

from roundtable.agents.codeact.facts import fact_players
from roundtable.agents.codeact.options import CodeActOptions
from roundtable.agents.codeact.state import CodeActState
from roundtable.agents.codeact.turn import CodeActTurn
from roundtable.agents.common.extraction import parse_players
from roundtable.agents.common.model_calls import ModelProvider, call_text

_THOUGHT = re.compile(r"thought\s*:\s*(.*?)(?=\n\s*\W*action\s*:|$)", re.IGNORECASE | re.DOTALL)
_ACTION = re.compile(r"\b(check|finish)\s*\[([^\]]*)\]", re.IGNORECASE)
STEP_WORDS = 60


def read_step(reply: str) -> tuple[str, str | None, list[int]]:
    """``(thought, action name or None, players)`` from a ReAct reply; the first action counts."""
    thought = _THOUGHT.search(reply or "")
    action = _ACTION.search(reply or "")
    text = (thought.group(1) if thought else reply or "").strip()[:400]
    if action is None:
        return text, None, []
    return text, action.group(1).lower(), [p for p in parse_players(action.group(2)) or [] if p]


def make_react(models: ModelProvider):
    """The ``react`` node over ``models``: one step (one call) per visit."""

    def react(state: CodeActState, runtime: Runtime[Any]) -> dict[str, Any]:
        turn = CodeActTurn.of(state, runtime)
        opts = turn.options
        assert isinstance(opts, CodeActOptions)
        steps = list(state.get("steps") or [])
        facts = state.get("facts") or []
        request = turn.request
        prompt = turn.context.render(
            turn.prompt("react"), memory=turn.memory_text(), me=turn.view.player, round=request.round,
            count=request.count, players=turn.view.players, steps=steps, last=len(steps) + 1 >= opts.react_steps)
        raw, usage = call_text(turn.text_model(models, STEP_WORDS), turn.messages(prompt), "react")
        thought, action, players = read_step(raw)
        step: dict[str, Any] = {"thought": thought, "action": "none", "observation": "", "team": None}
        if action == "finish":
            step.update(action=f"Finish[{', '.join(map(str, players))}]", team=players)
        elif action == "check":
            lines = [turn.facts_text([f]).lstrip("- ").strip() for f in facts if fact_players(f) & set(players)]
            step.update(action=f"Check[{', '.join(map(str, players))}]",
                        observation=turn.context.render("codeact/observation", players=players, lines=lines))
        else:
            step["observation"] = "No action read: write Check[players] or Finish[players]."
        return {"steps": [step], "raw": [raw], "usage": [usage]}

    return react
