"""Chain of thought (the ``cot`` kind, and the ``codeact`` kind outside team selection): reason in prose, then answer.

One call at the prose temperature (0.7), its prompt the global memory and the Host's question (template
``codeact/think`` with the aids off: Shi et al.'s moderator's notes where they word one, Table 1 and §2.3, and a
JSON holding the reasoning and the answer, §2.2; ``aids/codeact/think`` with them on): a JSON object
``{"thought", <answer>, "words"}`` where the endpoint takes JSON schemas (the answer fields are those of
`roundtable.agents.common.extraction.answer_schema`), else prose with ``Thought:``,
``Choice:`` and ``Words:`` lines. When a program (or the ReAct loop) has
already chosen the team, the call only reasons and says the words. A call that writes words is sampled with the
DRY sampler where the seat's ``dry`` is on.

With the aids' checks on, the answer is marked ``unchecked`` and the graph's ``aids`` step checks it
(`roundtable.agents.codeact.aids`, docs/agents/checks.md): a team vote against what the player knows, or words
that copy what it heard or its own reasoning (`private_texts`), name another team than the one chosen or give it
away, are asked for once more by this step with the Host's note (the action kept and stated when only the words
failed); the second answer is kept. Each call's reasoning is kept in ``thoughts`` (`Decision.thoughts`).
"""

from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime

from roundtable.agents.codeact.state import CodeActState
from roundtable.agents.codeact.turn import CodeActTurn
from roundtable.agents.common.extraction import needs_answer
from roundtable.agents.common.model_calls import ModelProvider
from roundtable.agents.common.thought import ask_thought, think_budget


def private_texts(state: CodeActState) -> list[str]:
    """The private reasoning behind the decision in hand: the ReAct leader's thoughts and every chain of thought
    written so far (`Decision.thoughts`; a program and its output are not among them)."""
    steps = [str(step.get("thought") or "") for step in state.get("steps") or []]
    return [text for text in (*steps, *(state.get("thoughts") or [])) if text]


def paper_host(turn: CodeActTurn) -> str:
    """The Host's instruction for a request Shi et al. word no moderator's note for (``""`` for a leader's selection
    and the talk about a nominated team, Table 1 and §2.3)."""
    request = turn.request
    about_team = request.kind == "speak" and bool(request.subject) and request.audience is None
    worded = (request.kind == "propose_team" and not request.subject) or about_team
    return "" if worded else turn.table.instruction()


def make_think(models: ModelProvider):
    """The ``think`` node over ``models``."""

    def think(state: CodeActState, runtime: Runtime[Any]) -> dict[str, Any]:
        turn = CodeActTurn.of(state, runtime)
        request, opts = turn.request, turn.options
        decided = state.get("action")
        ask_choice = needs_answer(request) and not decided
        with_words = request.wants_words
        structured = turn.structured(models)
        if opts.aided:
            variables: dict[str, Any] = dict(
                instruction="\n".join(p for p in (turn.table.instruction(), state.get("recheck")) if p),
                thought_words=opts.thought_words)
        else:
            variables = dict(host=paper_host(turn), kind=request.kind, me=turn.view.player, count=request.count or 0,
                             team=list(request.subject), note=state.get("recheck") or "")
        prompt = turn.context.render(
            turn.prompt("think"), memory=turn.memory_text(), decided=turn.table.decided(decided) if decided else "",
            choice_help=turn.table.choice_help(structured) if ask_choice else "", with_words=with_words,
            speech=turn.table.speech(), format="json" if structured else "prose", **variables)
        model = turn.text_model(models, think_budget(opts, with_words, ask_choice), speaking=with_words,
                                again=bool(state.get("copied")))
        action, words, thought, raw, usage = ask_thought(model, turn.messages(prompt), request, turn.view.players,
                                                         opts, with_words, ask_choice, structured,
                                                         turn.context.describe)
        update: dict[str, Any] = {"raw": [raw], "usage": [usage], "utterance": words, "recheck": None,
                                  "copied": False, "thoughts": [thought] if thought else []}
        if ask_choice:
            update["action"] = action or None
        if opts.checks_answers():
            update |= {"unchecked": "think", "chose": ask_choice}  # the aids step checks it next (codeact.aids)
        return update

    return think
