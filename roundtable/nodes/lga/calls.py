"""Model access for the ``lga`` nodes: which chat model, at which temperature, with what length cap."""

from __future__ import annotations

import re
from collections.abc import Sequence

from langchain_core.language_models import BaseChatModel

from roundtable.tools.model_calls import ModelProvider

from .options import max_tokens_for
from .turn import Turn

_LABEL = re.compile(r"^\W*(summary|analysis|plan|answer)\s*:\s*", re.IGNORECASE)
_SPECIAL = re.compile(r"<\|[^|>]{1,40}\|>")
_MARKDOWN = re.compile(r"[*#`]+|^\s*(?:[-•]|\d+\.)\s+", re.MULTILINE)


def agent_model(models: ModelProvider, turn: Turn, words: int) -> BaseChatModel:
    """The seat's model at the agent-module temperature, capped for a reply of ``words`` words, on the player's slot."""
    return models.chat(turn.seat.model, turn.temperature, max_tokens_for(words), slot=turn.slot)


def extractor_model(models: ModelProvider, turn: Turn) -> BaseChatModel:
    """The seat's model at the extraction temperature (0), for short answers."""
    return models.chat(turn.seat.model, turn.extraction_temperature, 48, slot=turn.slot)


def uses_json_schema(models: ModelProvider, turn: Turn) -> bool:
    """Whether to ask for schema-constrained output: the seat option, or the endpoint's support (``auto``)."""
    option = turn.options.structured
    if option == "auto":
        return models.json_schema(turn.seat.model)
    return bool(option)


def clean_text(text: str, max_words: int) -> str:
    """A module's note (summary, analysis, plan) as one paragraph of at most ``max_words`` words.

    Chat-template tokens, markdown marks and list bullets, and a leading
    ``Summary:``-style label are removed.
    """
    text = _LABEL.sub("", _MARKDOWN.sub("", _SPECIAL.sub(" ", text or "")).strip())
    words = text.split()
    return " ".join(words[:max_words])


def split_sections(text: str, labels: Sequence[str]) -> dict[str, str]:
    """A reply written in labelled parts, e.g. ``"Summary: ... Analysis: ... Plan: ..."``, as ``{label: text}``.

    A label counts at the start of a line (markdown marks before it allowed),
    case-insensitively. Text before the first label belongs to ``labels[0]``;
    a label missing from the reply maps to ``""``.

    Args:
        text: the reply.
        labels: lower-case labels, in the order asked for.
    """
    pattern = re.compile(r"(?:^|\n)[^\w\n]*(" + "|".join(map(re.escape, labels)) + r")[^\w\n]*:[\s*]*",
                         re.IGNORECASE)
    out = dict.fromkeys(labels, "")
    current, position = labels[0], 0
    for match in pattern.finditer(text or ""):
        out[current] = f"{out[current]} {text[position:match.start()]}".strip()
        current, position = match.group(1).lower(), match.end()
    out[current] = f"{out[current]} {(text or '')[position:]}".strip()
    return out
