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
Unreadable choices fall back to the first questions of the set. With the aids on, the choice and the own questions
are one call, and an own question that repeats a listed one is dropped; with them off, as Xu et al. (Appendix A.5),
one call selects and the next asks the model's own questions after the selected ones, and every own question is
asked.
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


def _ask(models: ModelProvider, turn: CgaTurn, history: str, asked: list[str], candidates: list[str], count: int,
         own: int) -> tuple[list[str], list[str], list[str], list[Any]]:
    """One question call: ``count`` of ``candidates`` chosen after ``asked`` and ``own`` questions of the model's
    own; ``(asked + the chosen, the own questions, [raw], [usage])``."""
    structured = turn.structured(models)
    prompt = turn.context.render(
        turn.prompt("questions"), history=history, round_name=turn.round_name, round=turn.request.round,
        me=turn.view.player, role_title=turn.role_title, asked=asked, candidates=candidates, count=count, own=own,
        format="json" if structured else "prose")
    model = turn.model(models, turn.temperature("question_temperature"), 12 + 30 * own)
    if structured:
        parsed, raw, usage = call_structured(model, turn.messages(prompt),
                                             selection_schema(count, len(candidates), own), "questions")
        chosen = (parsed or {}).get("chosen")
        mine = list((parsed or {}).get("own") or [])
    else:
        raw, usage = call_text(model, turn.messages(prompt), "questions")
        line = _CHOSEN.search(raw)
        chosen = [int(n) for n in re.findall(r"\d+", line.group(1))] if line else None
        mine = [m.strip() for m in _OWN.findall(raw)][:own]
    return asked + chosen_questions(candidates, chosen, count), mine, [raw], [usage]


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
        history = turn.history(state.get("recent") or [], state.get("informative") or [])
        if opts.aided or not count or not opts.own_questions:  # one call
            picked, own, raws, usages = _ask(models, turn, history, asked, candidates, count, opts.own_questions)
        else:  # Xu et al. (Appendix A.5): one call selects the questions, the next asks its own after them
            picked, _, raws, usages = _ask(models, turn, history, asked, candidates, count, 0)
            picked, own, more_raws, more_usages = _ask(models, turn, history, picked, [], 0, opts.own_questions)
            raws, usages = raws + more_raws, usages + more_usages
        known = {_key(q) for q in asked + candidates}
        for question in (" ".join(q.split())[:QUESTION_CHARS] for q in own):
            if not question:
                continue
            if opts.aided and _key(question) in known:  # the aids: a small model copies listed questions as its own
                continue
            picked.append(question)
            known.add(_key(question))
        return {"questions": picked, "raw": raws, "usage": usages}

    return questions
