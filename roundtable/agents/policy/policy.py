"""The ``policy`` kind's decisions: a linear policy's greedy choice on a good player's team votes and proposals in
Avalon, the game's rule bot on everything else (docs/envs.md#the-worked-example).

The weights are a JSON file (`WEIGHTS`: ``{"vote": [...], "propose": [...], ...}``, `load_weights`), trained by
``benchmarks/train_policy.py`` through the PettingZoo environment; reading them needs no numerical library. A vote
approves when ``w_vote . vote_features > 0`` (the logistic policy's likelier answer); a proposal is the legal team
of the highest ``w_propose . team_features`` (the softmax policy's likeliest), ties to the first in
`itertools.combinations` order.
"""

from __future__ import annotations

import json
from functools import cache
from itertools import combinations
from pathlib import Path
from typing import Any

from roundtable.agents.policy.features import LEARNED, TEAM_FEATURES, VOTE_FEATURES, team_features, vote_features
from roundtable.games import GAMES
from roundtable.games.errors import ConfigurationError
from roundtable.games.protocol import Decision, PlayerView, Request

WEIGHTS = Path(__file__).parent / "weights" / "avalon.json"
"""The trained weights shipped with the kind."""
GOOD = "good"


@cache
def load_weights(path: Path = WEIGHTS) -> dict[str, Any]:
    """The weights file at ``path``: ``vote`` (one weight per `VOTE_FEATURES`) and ``propose`` (per `TEAM_FEATURES`).

    Raises:
        ConfigurationError: the file is missing or its weights do not match the features (named).
    """
    try:
        data = json.loads(path.read_text())
    except (OSError, ValueError) as error:
        raise ConfigurationError(f"the policy kind's weights cannot be read from {path}: {error} (train them with "
                                 "benchmarks/train_policy.py)") from error
    if len(data.get("vote", ())) != len(VOTE_FEATURES) or len(data.get("propose", ())) != len(TEAM_FEATURES):
        raise ConfigurationError(f"{path} holds weights for other features: vote {len(VOTE_FEATURES)}, propose "
                                 f"{len(TEAM_FEATURES)} expected")
    return data


def dot(weights: list[float], features: list[float]) -> float:
    """The weighted sum."""
    return sum(w * x for w, x in zip(weights, features, strict=True))


def learned(view: PlayerView, request: Request) -> bool:
    """Whether the trained policy decides ``request`` (a good Avalon player's vote or proposal)."""
    return view.game == "avalon" and view.side == GOOD and request.kind in LEARNED


def decide(view: PlayerView, request: Request, seed: int) -> Decision:
    """The ``policy`` kind's decision (module docstring), with the game's plain words where words are wanted.

    Raises:
        ConfigurationError: the weights cannot be read; the game has no rule bot for the rest.
    """
    rules = GAMES[view.game]
    if not learned(view, request):
        if rules.bot is None:
            raise ConfigurationError(f"the policy kind needs {view.game}'s rule bot for what it was not trained on")
        return rules.bot.decide(view, request, seed)
    weights = load_weights()
    if request.kind == "vote_team":
        decision = Decision.to(request, choice=dot(weights["vote"], vote_features(view, request)) > 0)
    else:
        teams = list(combinations(sorted(request.candidates), request.count or 0))
        best = max(teams, key=lambda team: dot(weights["propose"], team_features(view, team)))
        decision = Decision.to(request, players=best)
    if request.wants_words:
        decision = decision.model_copy(update={"utterance": rules.plain_words(view, request, decision)})
    return decision
