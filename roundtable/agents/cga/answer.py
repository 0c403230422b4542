"""Completeness (Xu et al. 2023; docs/agents/cga.md#the-modules): retrieval per question, the answers, and the
reflection.

- ``retrieve`` (no model call): for each question, the top T messages of the
  agent's memory by embedding similarity (`roundtable.agents.cga.memory.MemoryIndex`);
- ``answer``: each question answered in at most two sentences, one call per
  question (the paper), or, with ``merge_answers``, every answer and the
  reflection in one structured call;
- ``reflect``: "As the <role>, I observed that ...", from the questions and answers.
"""

from __future__ import annotations

import re
from typing import Any

from langgraph.runtime import Runtime
from pydantic import Field, create_model

from roundtable.agents.cga.memory import MemoryIndex
from roundtable.agents.cga.state import CgaState
from roundtable.agents.cga.turn import CgaTurn
from roundtable.agents.common.extraction import CHARS_PER_WORD, schema_tokens
from roundtable.agents.common.model_calls import ModelProvider, call_structured, call_text
from roundtable.agents.common.text import clean_text, split_sections
from roundtable.tools.embeddings import embedder

_ANSWER_LINE = re.compile(r"^\W*a(\d+)\s*[:.)]\s*(.*)$", re.IGNORECASE)


def retrieve(state: CgaState, runtime: Runtime[Any]) -> dict[str, Any]:
    """For each question, the top T messages of memory by embedding similarity (option ``retrieved``, default 5).

    Returns:
        ``retrieved`` (per question, the messages, most similar first) and ``retrieval_seconds`` (per question).
    """
    turn = CgaTurn.of(state, runtime)
    index = MemoryIndex(turn.memory_key(), embedder(turn.options.embeddings))
    found, seconds = index.retrieve(turn.memory.get("messages") or [], state.get("questions") or [],
                                    turn.options.retrieved)
    return {"retrieved": found, "retrieval_seconds": seconds}


ANSWER_KEY = "answer_to_question_"
"""The key of each answer in the JSON reply, followed by the question's number (1-based)."""


def answers_schema(count: int, words: int, reflection_words: int) -> Any:
    """``{"answer_to_question_1": bounded string, ..., "answer_to_question_<count>": ..., "reflection": bounded
    string}``.

    One key per question, not a list: the bound cuts an answer mid-sentence, and a 1.5B model writing a list went
    on with the cut sentence in the next item, shifting every later answer from its question; a key naming the
    next question makes it start that answer (docs/measurements.md#cga-games).
    """
    fields: dict[str, Any] = {f"{ANSWER_KEY}{i}": (str, Field(max_length=words * CHARS_PER_WORD))
                              for i in range(1, count + 1)}
    fields["reflection"] = (str, Field(max_length=reflection_words * CHARS_PER_WORD))
    return create_model("Answers", **fields)


def numbered(questions: list[str], retrieved: list[list[str]]) -> tuple[list[str], list[dict[str, Any]]]:
    """The retrieved messages listed once (in order of first retrieval), and each question with the numbers
    (1-based) of its own: ``(messages, [{"question", "refs"}])``."""
    messages: list[str] = []
    items = []
    for question, found in zip(questions, retrieved, strict=False):  # retrieved may run longer
        refs = []
        for line in found:
            if line not in messages:
                messages.append(line)
            refs.append(messages.index(line) + 1)
        items.append({"question": question, "refs": refs})
    return messages, items


def read_answers(text: str, count: int) -> list[str]:
    """``A1: ...`` lines of a prose reply, as ``count`` answers (missing ones ``""``)."""
    out = [""] * count
    for line in text.splitlines():
        if (m := _ANSWER_LINE.match(line)) and 1 <= int(m.group(1)) <= count:
            out[int(m.group(1)) - 1] = m.group(2).strip()
    return out


def make_answer(models: ModelProvider):
    """The ``answer`` node over ``models``."""

    def answer(state: CgaState, runtime: Runtime[Any]) -> dict[str, Any]:
        turn = CgaTurn.of(state, runtime, models)
        opts = turn.options
        questions = list(state.get("questions") or [])
        retrieved = list(state.get("retrieved") or []) + [[]] * len(questions)
        history = turn.history(state.get("recent") or [], state.get("informative") or [])
        common = {"history": history, "round_name": turn.round_name, "round": turn.request.round,
                  "me": turn.view.player, "role_title": turn.role_title}
        temperature = turn.temperature("temperature")
        if turn.options.merges_answers():
            structured = turn.structured(models)
            messages, items = numbered(questions, retrieved)
            prompt = turn.context.render(
                "aids/cga/answers", **common, messages=messages, items=items,  # merging is an aid: no paper prompt
                words=opts.answer_words, reflection_words=opts.reflection_words,
                format="json" if structured else "prose")
            words = opts.answer_words * len(questions) + opts.reflection_words
            model = turn.model(models, temperature, words + 20,
                               tokens=schema_tokens(words, len(questions) + 1) if structured else None)
            if structured:
                parsed, raw, usage = call_structured(
                    model, turn.messages(prompt), answers_schema(len(questions), opts.answer_words,
                                                                 opts.reflection_words), "answer")
                said = [str((parsed or {}).get(f"{ANSWER_KEY}{i}") or "") for i in range(1, len(questions) + 1)]
                reflection = str((parsed or {}).get("reflection") or "")
            else:
                raw, usage = call_text(model, turn.messages(prompt), "answer")
                said = read_answers(raw, len(questions))
                reflection = split_sections(raw, ["answers", "reflection"])["reflection"]
            answers = [{"question": q, "answer": clean_text(a, opts.answer_words)}
                       for q, a in zip(questions, said, strict=False)]
            return {"answers": answers, "reflection": clean_text(reflection, opts.reflection_words),
                    "raw": [raw], "usage": [usage]}
        answers, raws, usages = [], [], []
        model = turn.model(models, temperature, opts.answer_words)
        for question, found in zip(questions, retrieved, strict=False):  # retrieved is padded
            prompt = turn.context.render(turn.prompt("answer"), **common, question=question, retrieved=found,
                                         words=opts.answer_words)
            raw, usage = call_text(model, turn.messages(prompt), "answer")
            answers.append({"question": question, "answer": clean_text(raw, opts.answer_words)})
            raws.append(raw)
            usages.append(usage)
        return {"answers": answers, "raw": raws, "usage": usages}

    return answer


def make_reflect(models: ModelProvider):
    """The ``reflect`` node over ``models``."""

    def reflect(state: CgaState, runtime: Runtime[Any]) -> dict[str, Any]:
        turn = CgaTurn.of(state, runtime, models)
        opts = turn.options
        prompt = turn.context.render(
            turn.prompt("reflect"), history=turn.history(state.get("recent") or [], state.get("informative") or []),
            round_name=turn.round_name, round=turn.request.round, me=turn.view.player,
            answers=list(state.get("answers") or []),
            role_title=turn.role_title, words=opts.reflection_words)
        model = turn.model(models, turn.temperature("temperature"), opts.reflection_words)
        raw, usage = call_text(model, turn.messages(prompt), "reflect")
        return {"reflection": clean_text(raw, opts.reflection_words), "raw": [raw], "usage": [usage]}

    return reflect
