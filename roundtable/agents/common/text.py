"""Cleaning a model's prose: one paragraph of at most so many words, and a reply's labelled parts.

Shared by every model-driven kind that keeps notes (``lga``'s summary, analysis and plan; ``cga``'s answers and
reflection).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

_LABEL = re.compile(r"^\W*(summary|analysis|plan|answer)\s*:\s*", re.IGNORECASE)
_SPECIAL = re.compile(r"<\|[^|>]{1,40}\|>")
_MARKDOWN = re.compile(r"[*#`]+|^\s*(?:[-•]|\d+\.)\s+", re.MULTILINE)


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
