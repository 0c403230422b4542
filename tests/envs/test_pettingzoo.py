"""The PettingZoo environments pass PettingZoo's own API tests (``api_test``, ``parallel_api_test``) on Avalon of 5
to 10 players in every preset and on Werewolf; masks allow exactly the legal answers; rewards and roles at the end."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

pytest.importorskip("pettingzoo", reason="the PettingZoo environments need the envs extra (pettingzoo, gymnasium)")

from pettingzoo.test import api_test, parallel_api_test  # noqa: E402

from roundtable.envs.pettingzoo import aec_env, parallel_env  # noqa: E402
from roundtable.envs.pettingzoo.aec import decode  # noqa: E402
from roundtable.envs.pettingzoo.spaces import PASS, TEXT, WAIT, YES, mask, pick_sets  # noqa: E402
from roundtable.games.errors import IllegalActionError  # noqa: E402

AVALON = [{"preset": p} for p in ("bench5", "lan6", "play7")] + [
    {"preset": "standard", "players": n} for n in range(5, 11)]
CASES = [("avalon", c) for c in AVALON] + [("werewolf", {}),
                                           ("werewolf", {"rules": {"werewolf_night": "simultaneous"}})]


@pytest.fixture(autouse=True)
def _quiet():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # api_test warns of Dict observation spaces, which masks need
        yield


@pytest.mark.parametrize(("game", "config"), CASES, ids=lambda v: str(v))
def test_api_test_passes(game, config):
    api_test(aec_env(game, **config), num_cycles=300)


@pytest.mark.parametrize(("game", "config"), [("avalon", {"preset": "bench5"}), ("avalon", {"preset": "standard",
                                              "players": 10}), ("werewolf", {})], ids=lambda v: str(v))
def test_parallel_api_test_passes(game, config):
    parallel_api_test(parallel_env(game, **config), num_cycles=300)


def test_api_test_passes_with_rule_bots_at_the_evil_seats_and_no_talk():
    api_test(aec_env("avalon", preset="bench5", opponents={"evil": "naive"}, talk=False), num_cycles=300)


def random_game(env, seed):
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    for _agent in env.agent_iter():
        observation, reward, terminated, truncated, info = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        legal = np.flatnonzero(observation["action_mask"])
        request = info["request"]
        for index in legal:  # every index the mask allows is a legal answer
            decode(env.players, request, int(index))
        env.step(int(rng.choice(legal)))


def test_the_mask_allows_exactly_the_legal_answers_and_the_text_is_in_infos():
    env = aec_env("avalon", preset="bench5")
    env.reset(seed=1)
    _, _, _, _, info = env.last()
    request = info["request"]
    assert request.kind == "propose_team" and "Answer with" in info["text"]
    legal = mask(5, request)
    assert legal.sum() == 10  # C(5, 2) teams of two, nothing else
    assert all(len(pick_sets(5)[i - 5]) == 2 for i in np.flatnonzero(legal))
    with pytest.raises(IllegalActionError):
        decode(5, request, YES)
    assert mask(5, None).tolist() == [1 if i == WAIT else 0 for i in range(len(legal))]


def test_masks_of_words_and_passes():
    env = aec_env("werewolf")
    env.reset(seed=3)
    seen = set()
    for _agent in env.agent_iter():
        observation, _, terminated, _, info = env.last()
        if terminated:
            env.step(None)
            continue
        request = info["request"]
        m = observation["action_mask"]
        if request.answer == "words":
            assert np.flatnonzero(m).tolist() == [TEXT]
            seen.add("words")
        if request.may_pass:
            assert m[PASS] == 1
            seen.add("pass")
        env.step(int(np.flatnonzero(m)[-1]))
    assert seen == {"words", "pass"}


def test_rewards_at_the_end_by_side_with_roles_in_infos():
    env = aec_env("avalon", preset="bench5", opponents={"evil": "naive"}, talk=False, text=False)
    env.reset(seed=7)
    assert len(env.agents) == 3  # the good seats of bench5: Merlin and two Servants
    totals = {a: 0.0 for a in env.agents}
    finals = {}
    for agent in env.agent_iter():
        observation, reward, terminated, truncated, info = env.last()
        totals[agent] += reward
        if terminated:
            finals[agent] = info
            env.step(None)
            continue
        assert info["text"] is None and info["view"].side == "good"
        env.step(int(np.flatnonzero(observation["action_mask"])[0]))
    assert set(finals) == set(totals)
    winner = next(iter(finals.values()))["result"]["winner"]
    for agent, info in finals.items():
        assert info["side"] == "good" and info["role"] in ("merlin", "servant")
        assert totals[agent] == (1.0 if winner == "good" else -1.0)


def test_a_masked_out_action_falls_back_and_is_counted():
    env = aec_env("avalon", preset="bench5", talk=False)
    env.reset(seed=2)
    env.step(YES)  # a proposal answered with a vote's index
    _, _, _, _, info = env.last()
    assert info["invalid_actions"] == 1 and info["fallbacks"] == 1


def test_the_same_seed_and_actions_replay_and_a_snapshot_restores():
    env = aec_env("werewolf", text=False)
    random_game(env, 5)
    first = env.game.snapshot()["events"]
    random_game(env, 5)
    assert env.game.snapshot()["events"] == first
    env.reset(seed=8)
    for _ in range(10):
        env.step(int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])[0]))
    saved = env.snapshot()
    moves = []
    while not env.game.done:
        moves.append(int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])[0]))
        env.step(moves[-1])
    end = env.game.snapshot()["events"]
    env.restore(saved)
    for move in moves:
        env.step(move)
    assert env.game.snapshot()["events"] == end


def test_the_parallel_environment_takes_a_team_vote_in_one_step():
    env = parallel_env("avalon", preset="bench5", talk=False, text=False)
    observations, infos = env.reset(seed=4)
    while True:
        asked = [a for a, o in observations.items() if o["action_mask"][WAIT] == 0]
        if len(asked) > 1:
            assert {infos[a]["request"].kind for a in asked} == {"vote_team"}
            assert len(asked) == 5
            break
        actions = {a: int(np.flatnonzero(o["action_mask"])[0]) for a, o in observations.items()}
        observations, _, _, _, infos = env.step(actions)
