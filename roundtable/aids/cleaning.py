"""Words cleaning, an aid: what a small model's words lose before the table hears them, beyond the protocol's
cleaning (docs/games/protocol.md#cleaning-words, docs/agents/aids.md).

The protocol (`roundtable.games.fallbacks.table_words`) removes chat-template tokens and lines posing as the host
or another player and caps the words at the game's limit, for every model. With the aids on, `clean_words` also
removes transcript markup copied from the prompt (``(suggests 5, 6)``), unwraps words quoted as said (``I say,
'I support it.'``), drops a first fragment that begins in lower case mid-sentence (a thought run on into the words,
`roundtable.detectors.words.run_on_fragment`), transliterates the Cyrillic letters of an English word finished in
Cyrillic (``Servант``: ``Servant``) and cuts words that slip into another script (Cyrillic, Chinese, Japanese,
Korean) back to the last whole sentence before the slip.
"""

from __future__ import annotations

import re

from anyascii import anyascii

from roundtable.detectors.words import run_on_fragment
from roundtable.games.fallbacks import cap_words, posing_reason, table_lines

_SAY_WRAPPER = re.compile(r"^\W*i\s+(?:would\s+|will\s+|'d\s+)?say\s*[,:]?\s*([\"'‘“])", re.IGNORECASE)
"""Words wrapped as a quotation of themselves, ``I say, 'I support the team.'`` (the 1.5B model's reading of "in the
first person"): the wrapper and its closing quote go."""
_CLOSING = {'"': '"', "'": "'", "‘": "’", "“": "”"}
_CYRILLIC = re.compile(r"[\u0400-\u04ff]+")
_MIXED_WORD = re.compile(r"\w*(?:[A-Za-z][\u0400-\u04ff]|[\u0400-\u04ff][A-Za-z])\w*")
"""A word of Latin letters with Cyrillic ones in it: the embedded model (Qwen) finishing an English word in Cyrillic
("the Loyal Servант of Arthur", "Player 2, who is the Seер"; how often: docs/games/protocol.md#cleaning-words).
Its Cyrillic letters are transliterated (anyascii), which gives the English word back ("Servant", "Seer")."""
_OTHER_SCRIPT = re.compile(r"[\u0400-\u04ff\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uff00-\uffef]")
"""Cyrillic, Chinese, Japanese or Korean characters left once mixed words are mended: where the embedded model
slips out of English mid-sentence ("... is crucial to防止"), the words stop."""
_LAST_END = re.compile(r".*[.!?]", re.DOTALL)
_TRANSCRIPT_MARKUP = re.compile(r"[\[(]\s*suggest(?:s|ed)?\b[^\])]*[\])]", re.IGNORECASE)
"""Transcript markup a model copies from its prompt, e.g. "[suggests players 5, 6]"."""


def _unwrapped(line: str) -> str:
    wrapped = _SAY_WRAPPER.match(line)
    return line[wrapped.end():].rstrip().removesuffix(_CLOSING[wrapped.group(1)]) if wrapped else line


def clean_words(text: str | None, speaker: int, max_words: int) -> tuple[str, str | None]:
    """A small model's words cleaned before they reach the table (see the module docstring), then the protocol's
    cleaning and the word limit.

    Args:
        text: the raw words (``None`` or empty gives an empty result).
        speaker: the speaking player's number.
        max_words: the word cap (>= 1).

    Returns:
        ``(clean text, reason or None)``: a reason when lines were removed for posing as someone else (a cap
        alone is no fallback).
    """
    if not text:
        return "", None
    text = "\n".join(_unwrapped(line) for line in _TRANSCRIPT_MARKUP.sub(" ", text).splitlines())
    joined, removed = table_lines(text, speaker)
    joined = _unwrapped(joined)
    joined = joined[len(run_on_fragment(joined) or ""):]
    joined = _MIXED_WORD.sub(lambda word: _CYRILLIC.sub(lambda run: anyascii(run.group(0)), word.group(0)), joined)
    slip = _OTHER_SCRIPT.search(joined)
    if slip:
        whole = _LAST_END.match(joined[: slip.start()])
        joined = whole.group(0) if whole else joined[: slip.start()].rstrip() + ("..." if slip.start() else "")
    return cap_words(joined, max_words), posing_reason(removed)

