"""Whom words state to hold a hidden role, leaving out those who claimed it at the table: the part of a game's
exposure aid (`roundtable.aids.games.GameAids.exposure`) and of the dropped sentences' kept trust
(`roundtable.aids.review.kept_trust`) that every game shares."""

from __future__ import annotations

import re
from collections.abc import Iterable

from roundtable.detectors.exposure import claims_role, named_role_holders


def hidden_holders(words: str, role_word: str, me: int, heard: Iterable[tuple[str, str]],
                   leader: int | None = None) -> tuple[int, ...]:
    """The players other than ``me`` that ``words`` state hold the role ``role_word``
    (`roundtable.detectors.exposure.named_role_holders`, "the leader" standing for ``leader``), leaving out
    those who claimed it at the table in what the player ``heard`` (``(speaker, text)``:
    `roundtable.detectors.exposure.claims_role`), in order of mention (``()``: none)."""
    named = [player for player in named_role_holders(words, role_word, leader) if player != me]
    if not named:
        return ()
    claimed = {int(number.group()) for speaker, text in heard
               if (number := re.search(r"\d+", speaker)) and claims_role(text, role_word)}
    return tuple(player for player in named if player not in claimed)
