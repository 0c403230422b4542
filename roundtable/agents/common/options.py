"""What several kinds' seat options share: the reply-length cap. The aids' switch and the papers' values are in
`roundtable.aids.switch`."""

from __future__ import annotations


def max_tokens_for(words: int) -> int:
    """``max_tokens`` for a reply of at most ``words`` words (about 1.4 tokens a word, plus slack)."""
    return int(words * 1.6) + 16
