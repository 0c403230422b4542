"""How words said at the table are sampled, for every model-driven kind: llama.cpp's DRY sampler, and a warmer
temperature for words asked for again after a near copy (docs/agents/checks.md#dry-sampling)."""

from __future__ import annotations

from typing import Any

from roundtable.aids.options import CheckOptions

DRY_SAMPLING: tuple[tuple[str, Any], ...] = (
    ("dry_multiplier", 2.0), ("dry_base", 2.0), ("dry_allowed_length", 2), ("dry_penalty_last_n", 32768),
    ("dry_sequence_breakers", ("\n", ":", '"', "*", "Player", "player", *"0123456789")),
)
"""llama.cpp's DRY ("don't repeat yourself") sampler over the last 32,768 tokens (the whole context; this server
refuses -1), prompt included: a token that would extend a sequence already in the context beyond 2 tokens loses
``2 * 2 ** (length - 2)`` logits, so a reply that starts copying an earlier speaker's sentence (or the player's
own earlier words, or the reasoning it has just written in the same reply) turns away from it within a few
words. Sequences break at a newline, colon, quote or asterisk (llama.cpp's defaults), at every digit and at
"Player"/"player", so naming players ("Player 5's team", "players 1 and 5") is never penalized, however often the
same team was named before. Without the "Player" breakers, the space before a player's number extended a
sequence such as "I think Player" said before and was penalized, and a ``cga`` seat on ``lan6`` wrote "Player
Player 5" or "Player.Player 4" in 6 of its first 25 utterances (docs/measurements.md#dry-and-player-names). Sent with
the calls that write words said at the table (seat option ``dry``). With the earlier multiplier 1.0 and allowed
length 3, short formulaic sentences between two player numbers ("I support it. Player 4 is likely ...") came
through, and the words were often asked for again (docs/measurements.md#words-asked-again). Source: llama.cpp
``tools/server/README.md`` (``dry_*`` parameters); the DRY sampler of p-e-w, text-generation-webui PR #5677."""

AGAIN_TEMPERATURE = 0.8
"""Least temperature of words asked for again after a near copy (``lga``'s modules at 0.3 gave a copy back in 38
of 50 near-copy re-asks of the 2026-11-24 games: docs/measurements.md#words-asked-again)."""


def speech_sampling(options: CheckOptions, speaking: bool) -> tuple[tuple[str, Any], ...]:
    """The extra sampler parameters of a call: `DRY_SAMPLING` when its reply holds words said at the table
    (``speaking``) and the seat's ``dry`` option is on (`CheckOptions.uses_dry`; ``auto``: with the aids, since
    other servers may refuse the parameters); else none."""
    return DRY_SAMPLING if speaking and options.uses_dry() else ()


def speech_temperature(temperature: float, again: bool) -> float:
    """``temperature``, raised to `AGAIN_TEMPERATURE` at least for words asked for again after a near copy
    (``again``)."""
    return max(temperature, AGAIN_TEMPERATURE) if again else temperature
