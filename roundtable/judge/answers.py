"""One question to the judge model and how its reply is read (docs/judge.md#asking-the-model).

Every question (`Item`) asks for a few named fields, each answered with one of a fixed set of words (a stance
per named player, a claimed role, whether a fact was disclosed). Where the endpoint allows it the call is
schema-constrained (`roundtable.agents.common.model_calls.call_structured`), so the model can only write one of
those words; otherwise the reply is prose and `read_answer` finds the words in it. Calls name the behaviour as
their module in the call's metadata, so a scripted test model answers by behaviour.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import BaseMessage
from pydantic import BaseModel, Field, create_model

from roundtable.agents.common.model_calls import call_structured, call_text

Answer = dict[str, str]
"""A judgement: ``{field: chosen word}``, e.g. ``{"player_2": "trust", "player_5": "neither"}``."""


@dataclass(frozen=True)
class Item:
    """One question for the judge model about one record.

    Attributes:
        key: stable within its record and behaviour: ``u17`` for the utterance at event 17, ``p5`` for player 5.
        variables: the behaviour template's variables for this question.
        fields: the answer's fields (``claim``; ``player_2``, ``player_5``).
        choices: the words each field may take, in the order the prompt lists them.
        aliases: other ways a prose reply may write a choice, ``{alias: choice}`` (``loyal servant``: ``servant``).
    """

    key: str
    variables: Mapping[str, Any]
    fields: tuple[str, ...]
    choices: tuple[str, ...]
    aliases: Mapping[str, str] = field(default_factory=dict)


def answer_schema(item: Item) -> type[BaseModel]:
    """The pydantic model of ``item``'s answer: one required field per `Item.fields`, each one of its
    `Item.choices` (a JSON-schema ``enum``, so a constrained decoder writes nothing else)."""
    choice: Any = Literal.__getitem__(tuple(item.choices))  # Literal["trust", "distrust", "neither"]
    return create_model("JudgeAnswer", **{name: (choice, Field(...)) for name in item.fields})  # type: ignore[call-overload]


def _word(text: str) -> str:
    """``text`` as a choice is written: lower case, words joined by ``_``."""
    return re.sub(r"[\s-]+", "_", text.strip().strip("\"'.").lower())


def _pick(text: str, item: Item) -> str | None:
    """The choice ``text`` states: the word itself, an alias, or the first choice or alias found in it as a
    whole word (longer ones first, so ``distrust`` is not read as ``trust``)."""
    word = _word(text)
    if word in item.choices:
        return word
    names = {_word(alias): choice for alias, choice in item.aliases.items()} | {c: c for c in item.choices}
    if word in names:
        return names[word]
    spaced = " " + re.sub(r"[^a-z0-9]+", " ", text.lower()) + " "
    best: tuple[int, str] | None = None
    for name in sorted(names, key=len, reverse=True):
        found = spaced.find(" " + name.replace("_", " ") + " ")
        if found >= 0 and (best is None or found < best[0]):
            best = (found, names[name])
    return best[1] if best else None


def read_answer(text: str, item: Item) -> Answer | None:
    """``item``'s answer in a prose or JSON reply, or ``None`` when some field cannot be read.

    A JSON object anywhere in the reply is read first (keys as the fields, values as choices or aliases). Else,
    with one field, the first choice the reply names; with several (``player_N``), for each the choice on the
    line that names ``Player N`` (or starts with ``N:``).
    """
    start, end = text.find("{"), text.rfind("}")
    if 0 <= start < end:
        try:
            data = json.loads(text[start:end + 1])
        except ValueError:
            data = None
        if isinstance(data, dict):
            values = {str(k).lower(): str(v) for k, v in data.items()}
            picked = {f: _pick(values[f], item) if f in values else None for f in item.fields}
            if all(picked.values()):
                return {f: str(v) for f, v in picked.items()}
    if len(item.fields) == 1:
        choice = _pick(text, item)
        return {item.fields[0]: choice} if choice else None
    answer: Answer = {}
    for name in item.fields:
        number = name.rsplit("_", 1)[-1]
        line = next((line for line in text.splitlines() if re.search(
            rf"(\bplayer[\s_#]*{number}\b|^\s*[-*]?\s*{number}\s*[:=-])", line, re.IGNORECASE)), None)
        choice = _pick(re.sub(rf"player[\s_#]*{number}\b", " ", line, flags=re.IGNORECASE), item) if line else None
        if choice is None:
            return None
        answer[name] = choice
    return answer


def ask(model: BaseChatModel, messages: Sequence[BaseMessage], item: Item, module: str,
        structured: bool) -> tuple[Answer | None, str, dict[str, Any]]:
    """Ask ``item`` once.

    Args:
        model: the judge's chat model (temperature 0).
        messages: the rendered prompt.
        item: the question.
        module: the behaviour's name, written in the call's metadata.
        structured: ask for schema-constrained output (`answer_schema`); else read the prose reply.

    Returns:
        ``(answer or None when unusable, raw reply text, usage record)`` (usage: `call_text`'s).

    Raises:
        Connection-type errors and `roundtable.models.ModelUnavailableError`: the endpoint is gone (the
        judgements made before stay cached).
    """
    if structured:
        parsed, raw, usage = call_structured(model, messages, answer_schema(item), module)
        answer = {f: str(parsed[f]) for f in item.fields} if parsed is not None else read_answer(raw, item)
    else:
        raw, usage = call_text(model, messages, module)
        answer = read_answer(raw, item)
    return answer, raw, usage
