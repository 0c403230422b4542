"""The ``policy`` kind: its shipped weights load, its votes and proposals follow them on a good Avalon seat, the
rule bot decides everything else; the conformance suite runs it with every other kind (test_agent_conformance)."""

from __future__ import annotations

import itertools
import json

import pytest

from roundtable.agents.policy import policy
from roundtable.agents.policy.features import TEAM_FEATURES, VOTE_FEATURES, team_features, vote_features
from roundtable.agents.registry import AGENT_KINDS
from roundtable.envs import make
from roundtable.games import GAMES
from roundtable.games.errors import ConfigurationError


def test_the_kind_is_registered_and_its_weights_fit_its_features():
    assert "policy" in AGENT_KINDS and AGENT_KINDS["policy"].games == frozenset({"avalon"})
    weights = policy.load_weights()
    assert len(weights["vote"]) == len(VOTE_FEATURES) and len(weights["propose"]) == len(TEAM_FEATURES)
    assert any(weights["vote"]) and any(weights["propose"]), "the shipped weights are trained, not zeros"


def test_a_weights_file_for_other_features_is_refused(tmp_path):
    path = tmp_path / "w.json"
    path.write_text(json.dumps({"vote": [1.0], "propose": [1.0]}))
    with pytest.raises(ConfigurationError, match="other features"):
        policy.load_weights(path)
    with pytest.raises(ConfigurationError, match="cannot be read"):
        policy.load_weights(tmp_path / "missing.json")


def test_a_good_seats_proposal_is_the_best_scored_team_and_evil_seats_play_the_bot():
    env = make("avalon", preset="bench5", talk=False)
    rules = GAMES["avalon"]
    for seed in range(20):
        env.reset(seed=seed)
        request = env.game.waiting[0]
        view = env.game.view(request.player)
        decision = policy.decide(view, request, 3)
        if view.side == "good":
            weights = policy.load_weights()
            best = max(policy.dot(weights["propose"], team_features(view, t))
                       for t in itertools.combinations(sorted(request.candidates), request.count))
            assert policy.dot(weights["propose"], team_features(view, decision.players)) == best
            assert decision.utterance  # the game's plain words
        else:
            assert decision == rules.bot.decide(view, request, 3)


def test_a_good_seats_vote_approves_when_the_weighted_features_are_positive():
    env = make("avalon", preset="bench5", talk=False)
    weights = policy.load_weights()
    checked = 0
    for seed in range(10):
        env.reset(seed=seed)
        while not env.game.done and env.game.waiting[0].kind != "vote_team":
            request = env.game.waiting[0]
            env.step(", ".join(map(str, request.candidates[: request.count])))
        for request in env.game.waiting:
            view = env.game.view(request.player)
            if view.side == "good":
                score = policy.dot(weights["vote"], vote_features(view, request))
                assert policy.decide(view, request, 1).choice is (score > 0)
                checked += 1
    assert checked >= 10
