"""The token budget of a chain-of-thought call (`roundtable.agents.codeact.think`, shared by cot, codeact and cga)."""

from __future__ import annotations

import json

import pytest

from roundtable.agents.codeact.options import CodeActOptions
from roundtable.agents.common.options import max_tokens_for
from roundtable.agents.common.thought import think_budget, think_schema
from roundtable.games import avalon
from roundtable.games.avalon.bots import naive as naive_bot

CHARS_PER_TOKEN = 3.0
"""Characters a token in the replies cut at the length limit in a Werewolf game on the embedded model (3.0 to 3.6:
JSON layout, player numbers and the odd non-English token)."""


def _filled(schema) -> dict:
    """A reply with every bounded string field filled to its bound (as a 1.5B model fills them)."""
    reply = {}
    for name, info in schema.model_fields.items():
        bound = next((m.max_length for m in info.metadata if getattr(m, "max_length", None)), None)
        reply[name] = ("word " * 400)[:bound] if bound and info.annotation is str else 3
    return reply


def _requests() -> dict[str, avalon.Request]:
    """One request of each kind of a bot game of ``lan6`` with discussion."""
    state = avalon.new_game(avalon.AvalonConfig.build(preset="lan6"), 1)
    found: dict[str, avalon.Request] = {}
    while not state.is_over:
        requests = avalon.pending(state)
        found |= {r.kind: r for r in requests if r.kind not in found}
        state = avalon.apply(state, {r.player: naive_bot.decide(avalon.view(state, r.player), r, 1)
                                     for r in requests})
    return found


@pytest.mark.parametrize("kind, with_words", [(kind, words) for kind in ("propose_team", "vote_team", "quest_card")
                                               for words in (True, False)] + [("speak", True)])
def test_a_reply_filled_to_its_bounds_fits_the_budget(kind: str, with_words: bool) -> None:
    # Seen on the embedded model: thought and words filled to their bounds, the reply cut before the words
    # closed, and the decision fell back to plain words (5 of 36 think calls of a Werewolf game).
    request = _requests()[kind]
    ask_choice = request.answer != "words"  # a speak request without words makes no call: not listed
    opts = CodeActOptions()
    schema = think_schema(request, 6, opts.thought_words, opts.response_words if with_words else None,
                          ask_choice, lambda field, **facts: field)
    reply = json.dumps(_filled(schema), indent=2)
    assert len(reply) / CHARS_PER_TOKEN <= max_tokens_for(think_budget(opts, with_words, ask_choice))
