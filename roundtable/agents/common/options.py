"""What several kinds' seat options share: the ``auto`` cost switches and the reply-length cap."""

from __future__ import annotations


def auto_switch(value: bool | str, model: str | None) -> bool:
    """A cost switch's value; ``auto`` is on for the embedded ``local`` model only."""
    if value == "auto":
        return (model or "local").split("?")[0] == "local"
    return bool(value)


def max_tokens_for(words: int) -> int:
    """``max_tokens`` for a reply of at most ``words`` words (about 1.4 tokens a word, plus slack)."""
    return int(words * 1.6) + 16
