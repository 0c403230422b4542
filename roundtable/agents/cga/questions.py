"""Question selection (Xu et al. 2023; docs/agents/cga.md#questions): choose questions of the role's set, and ask some
of one's own.

With ``fixed_questions`` (the embedded model's default), the questions always asked (``asked`` part of the set:
name, role and objective; guesses at roles; by day whether one's role is exposed) come first and the model chooses
``questions`` more from the shared and the role's sets; without it (Xu et al., every other model's default), the
model chooses ``questions`` of them all. It writes ``own_questions`` of its own, in the same call at the question
temperature. Without ``choose_questions`` (the embedded model's default), or when ``questions`` takes every
candidate, the first ``questions`` candidates are asked with no choice; with no own question either, the node
makes no call (docs/agents/cga.md#questions: the embedded model chose the listed order and copied listed
questions as its own).
Unreadable choices fall back to the first questions of the set; an own question that repeats a listed one is
dropped.
"""

from __future__ import annotations

import re
from typing import Annotated, Any

from langgraph.runtime import Runtime
from pydantic import Field, create_model

from roundtable.agents.cga.state import CgaState
from roundtable.agents.cga.turn import CgaTurn
from roundtable.agents.common.model_calls import ModelProvider, call_structured, call_text

QUESTION_CHARS = 160
_CHOSEN = re.compile(r"^\W*chosen\s*:\s*(.*)$", re.IGNORECASE | re.MULTILINE)
_OWN = re.compile(r"^\W*own(?:\s*\d+)?\s*:\s*(.+)$", re.IGNORECASE | re.MULTILINE)


def selection_schema(count: int, candidates: int, own: int) -> Any:
    """``{"chosen": [count numbers in 1..candidates], "own": [own questions]}`` (no ``chosen`` when ``count`` is 0)."""
    number = Annotated[int, Field(ge=1, le=max(candidates, 1))]
    fields: dict[str, Any] = {"chosen": (list[number], Field(min_length=count, max_length=count))} if count else {}
    if own:
        fields["own"] = (list[Annotated[str, Field(max_length=QUESTION_CHARS)]], Field(min_length=own, max_length=own))
    return create_model("ChosenQuestions", **fields)


def chosen_questions(candidates: list[str], chosen: list[int] | None, count: int) -> list[str]:
    """The chosen candidates (1-based numbers; duplicates and numbers out of range dropped), filled up to ``count``
    with the first candidates not chosen."""
    picked: list[str] = []
    for number in chosen or []:
        if 1 <= number <= len(candidates) and candidates[number - 1] not in picked:
            picked.append(candidates[number - 1])
    for question in candidates:
        if len(picked) >= count:
            break
        if question not in picked:
            picked.append(question)
    return picked[:count]


def _key(question: str) -> str:
    return re.sub(r"[^a-z0-9]+", " ", question.lower()).strip()


def make_questions(models: ModelProvider):
    """The ``questions`` node over ``models``."""

    def questions(state: CgaState, runtime: Runtime[Any]) -> dict[str, Any]:
        turn = CgaTurn.of(state, runtime, models)
        opts = turn.options
        asked = turn.questions_of("asked") if opts.fixed_questions else []
        candidates = ([] if opts.fixed_questions else turn.questions_of("asked")) + turn.questions_of("shared") \
            + turn.questions_of("role")
        count = min(opts.questions, len(candidates))
        if not opts.choose_questions or count == len(candidates):  # no choice left to the model
            asked, candidates, count = asked + candidates[:count], [], 0
        if not count and not opts.own_questions:
            return {"questions": asked}
        structured = turn.structured(models)
        prompt = turn.context.render(
            "cga/questions", history=turn.history(state.get("recent") or [], state.get("informative") or []),
            round_name=turn.round_name, round=turn.request.round, asked=asked, candidates=candidates, count=count,
            own=opts.own_questions, format="json" if structured else "prose")
        model = turn.model(models, turn.temperature("question_temperature"), 12 + 30 * opts.own_questions)
        if structured:
            parsed, raw, usage = call_structured(model, turn.messages(prompt),
                                                 selection_schema(count, len(candidates), opts.own_questions),
                                                 "questions")
            chosen = (parsed or {}).get("chosen")
            own = list((parsed or {}).get("own") or [])
        else:
            raw, usage = call_text(model, turn.messages(prompt), "questions")
            line = _CHOSEN.search(raw)
            chosen = [int(n) for n in re.findall(r"\d+", line.group(1))] if line else None
            own = [m.strip() for m in _OWN.findall(raw)][: opts.own_questions]
        picked = asked + chosen_questions(candidates, chosen, count)
        known = {_key(q) for q in asked + candidates}
        for question in (" ".join(q.split())[:QUESTION_CHARS] for q in own):
            if question and _key(question) not in known:  # a small model copies listed questions as its own
                picked.append(question)
                known.add(_key(question))
        return {"questions": picked, "raw": [raw], "usage": [usage]}

    return questions
