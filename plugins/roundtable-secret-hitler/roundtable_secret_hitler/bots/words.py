"""Short templated words for the Secret Hitler rule bot: one plain sentence for the talk after a nomination."""

from __future__ import annotations

from roundtable.games.protocol import Request
from roundtable_secret_hitler.view import SecretHitlerView


def words_for(view: SecretHitlerView, request: Request, ja: bool) -> str:
    """One plain sentence for a ``speak`` request: the President stands by the nominee; anyone else says how it
    means to vote on the government named (``ja``), which is all the bot says (no claim of a role or a card)."""
    if view.chancellor is None:
        return "I have nothing to add yet."
    if view.player == view.president:
        return f"I nominated Player {view.chancellor} as Chancellor; please vote ja."
    if view.player == view.chancellor:
        return f"I will govern well with Player {view.president}; please vote ja."
    word = "ja" if ja else "nein"
    return f"I will vote {word} on Player {view.president} and Player {view.chancellor}."
