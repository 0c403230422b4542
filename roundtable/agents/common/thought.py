"""One chain-of-thought call that reasons in prose, then answers: ``codeact``'s and ``cot``'s ``think`` step and
``cga``'s.

A JSON object ``{"thought", <answer>, "words"}`` where the endpoint takes JSON
schemas (the answer fields are those of
`roundtable.agents.common.extraction.answer_schema`), else prose with
``Thought:``, ``Choice:`` and ``Words:`` lines.
"""

from __future__ import annotations

import re
from typing import Any

from pydantic import BaseModel, Field, create_model

from roundtable.agents.common.extraction import (
    CHARS_PER_WORD,
    answer_from_schema,
    answer_from_text,
    answer_schema,
    bounded_words,
    read_labelled,
)
from roundtable.agents.common.model_calls import call_structured, call_text
from roundtable.agents.common.text import split_sections
from roundtable.games.protocol import Request

ANSWER_WORDS = 24
LAYOUT_WORDS = 24
"""Room for a thought reply's keys, quotes and labels (``{"thought": ...``, ``Words:``), in words of budget:
without it a reply whose fields are filled to their bounds, as a small model fills them, is cut before its words."""
_THOUGHT_LINE = re.compile(r"^\W*thought\s*:.*$", re.IGNORECASE | re.MULTILINE)
_ANY_LABEL = re.compile(r"^\W*(thought|choice|words)\s*:", re.IGNORECASE | re.MULTILINE)
_WORDS_LINE = re.compile(r"^\W*words\s*:", re.IGNORECASE | re.MULTILINE)
_THOUGHT_LABEL = re.compile(r"^\W*thought\s*:\s*", re.IGNORECASE)


def think_schema(request: Request, players: int, thought_words: int, words: int | None, ask_choice: bool,
                 describe: Any) -> type[BaseModel]:
    """``thought`` first, then the answer fields (when a choice is asked) and ``words`` (when asked)."""
    shaped = request if ask_choice else request.model_copy(update={"answer": "words"})
    base = answer_schema(shaped, players, words, describe=describe)
    fields: dict[str, Any] = {"thought": (str, Field(max_length=thought_words * CHARS_PER_WORD,
                                                     description="your step-by-step reasoning"))}
    fields |= {name: (info.annotation, info) for name, info in base.model_fields.items()}
    return create_model(f"Thought{base.__name__}", **fields)


def think_budget(opts: Any, with_words: bool, ask_choice: bool) -> int:
    """Words a thought call may take: ``opts.thought_words`` and `LAYOUT_WORDS`, plus ``opts.response_words`` and
    `ANSWER_WORDS` when words and a choice are asked."""
    return (opts.thought_words + LAYOUT_WORDS + (opts.response_words if with_words else 0)
            + (ANSWER_WORDS if ask_choice else 0))


def ask_thought(model: Any, messages: Any, request: Request, players: int, opts: Any, with_words: bool,
                ask_choice: bool, structured: bool,
                describe: Any) -> tuple[dict[str, Any], str | None, str, str, dict[str, Any]]:
    """One chain-of-thought call (module ``think``) and what it answered.

    Args:
        model: the chat model (temperature and token budget set).
        messages: the prompt.
        request: the request answered.
        players: the table's size.
        opts: options with ``thought_words`` and ``response_words``.
        with_words: whether words are asked.
        ask_choice: whether a choice is asked.
        structured: the endpoint takes JSON schemas (`think_schema`), else prose with ``Thought:``,
            ``Choice:`` and ``Words:`` lines.
        describe: the game's player describer for the schema.

    Returns:
        ``(action, words, thought, raw, usage)``: the action read (``{}`` when none was read or asked), the words
        (``None`` when not asked or not given), the reasoning (`prose_thought` of a prose reply), the raw reply
        and the call's usage record.
    """
    if structured:
        schema = think_schema(request, players, opts.thought_words,
                              opts.response_words if with_words else None, ask_choice, describe)
        parsed, raw, usage = call_structured(model, messages, schema, "think")
        action = answer_from_schema(request, parsed) if ask_choice else {}
        words = bounded_words(parsed.get("words"), opts.response_words) if parsed is not None and with_words else None
        return action, words, str((parsed or {}).get("thought") or ""), raw, usage
    raw, usage = call_text(model, messages, "think")
    choice, said = read_labelled(_THOUGHT_LINE.sub("", raw))
    action = answer_from_text(request, choice) if ask_choice and choice else {}
    return action, said if with_words else None, prose_thought(raw, with_words), raw, usage


def prose_thought(raw: str, with_words: bool) -> str:
    """The reasoning of a prose reply, never what is read as its words (`read_labelled`): the text before its
    ``Choice:`` and ``Words:`` lines (a ``Thought:`` label dropped); only the ``Thought:`` line when words were
    asked and no ``Words:`` label came (the other lines are then the words); ``""`` for a reply with no label."""
    if not _ANY_LABEL.search(raw):
        return ""
    if with_words and not _WORDS_LINE.search(raw):
        line = _THOUGHT_LINE.search(raw)
        return _THOUGHT_LABEL.sub("", line.group(0)).strip() if line else ""
    return " ".join(split_sections(raw, ["thought", "choice", "words"])["thought"].split())
