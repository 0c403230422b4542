"""The PettingZoo environments' fast paths give what the full views give: the observation vector read from the
request and the log equals the one encoded from the player's view, the view and text in ``infos`` (computed only
when read) equal the rules' view and the observation text of their step, however late they are read; the lazy
``infos`` dict reads as a plain one every way; ``say`` gives a proposal its words."""

from __future__ import annotations

import copy
import json
import pickle
import random

import numpy as np
import pytest

pytest.importorskip("pettingzoo", reason="the PettingZoo environments need the envs extra (pettingzoo, gymnasium)")

from roundtable.envs.pettingzoo import aec_env, parallel_env  # noqa: E402
from roundtable.envs.pettingzoo.aec import player_of  # noqa: E402
from roundtable.envs.pettingzoo.infos import Deferred, Keyed, LazyInfo  # noqa: E402
from roundtable.envs.pettingzoo.spaces import TEXT, encode, mask  # noqa: E402
from roundtable.envs.text import observation_text  # noqa: E402
from roundtable.games import GAMES  # noqa: E402

CASES = [("avalon", {"preset": "bench5"}), ("avalon", {"preset": "standard", "players": 10}),
         ("avalon", {"preset": "lan6", "opponents": {"evil": "naive"}}), ("werewolf", {}),
         ("werewolf", {"rules": {"werewolf_night": "simultaneous"}})]
CASES += [(game, {}) for game in sorted(GAMES) if game not in ("avalon", "werewolf")]  # plugins' games


@pytest.mark.parametrize(("game", "config"), CASES, ids=lambda v: str(v))
def test_observations_and_infos_are_those_of_the_full_views(game, config):
    env = aec_env(game, **config)
    rules = GAMES[game]
    for seed in range(2):
        env.reset(seed=seed)
        rng = random.Random(seed)
        late: list[tuple[dict, object, int]] = []
        for _agent in env.agent_iter():
            game_ = env.game
            for other in env.agents:  # every agent's observation now, asked or not
                player = player_of(other)
                request = None if game_.done else game_.request_of(player)
                observed = env.observe(other)
                view = rules.view(game_.state, player)
                assert np.array_equal(observed["observation"], encode(view, request, env.sides))
                assert np.array_equal(observed["action_mask"], mask(env.players, request))
            observation, _, terminated, truncated, info = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            player = info["player"]
            if rng.random() < 0.5:  # read now
                assert info["view"] == rules.view(game_.state, player)
                assert info["text"] == observation_text(rules.view(game_.state, player), info["request"],
                                                        error=game_.errors.get(player))
            else:  # read after the game has moved on
                late.append((info, game_.state, player))
            env.step(rng.choice(np.flatnonzero(observation["action_mask"]).tolist()))
        for info, state, player in late[::7]:
            assert info["view"] == rules.view(state, player)
            assert info["text"] == observation_text(rules.view(state, player), info["request"])


def test_the_parallel_environments_observations_of_agents_not_asked_are_those_of_their_views():
    env = parallel_env("werewolf")
    observations, infos = env.reset(seed=2)
    rules = GAMES["werewolf"]
    while env.agents:
        state = env.aec.game.state
        for agent, observed in observations.items():
            player = env.player(agent)
            request = env.aec.game.request_of(player)
            assert np.array_equal(observed["observation"], encode(rules.view(state, player), request, env.aec.sides))
        actions = {a: int(np.flatnonzero(o["action_mask"])[0]) for a, o in observations.items()}
        observations, _, _, _, infos = env.step(actions)


def test_a_lazy_info_computes_its_values_once_when_read_and_reads_as_a_plain_dict():
    calls: list[str] = []

    def later(name):
        def compute():
            calls.append(name)
            return f"value of {name}"
        return Deferred(compute)

    def make():
        return LazyInfo({"player": 3, "view": later("view"), "text": later("text"), "steps": 4})

    plain = {"player": 3, "view": "value of view", "text": "value of text", "steps": 4}
    info = make()
    assert isinstance(info, dict) and list(info) == list(plain) and "text" in info and len(info) == 4
    assert calls == []
    assert info["player"] == 3 and info.get("steps") == 4 and info.get("missing", 0) == 0 and calls == []
    assert info["view"] == "value of view" and info["view"] == "value of view" and calls == ["view"]
    for read in (dict, lambda i: {**i}, lambda i: dict(i.items()), lambda i: i | {}, lambda i: {} | i, copy.copy,
                 copy.deepcopy, lambda i: pickle.loads(pickle.dumps(i)), lambda i: json.loads(json.dumps(i))):
        assert read(make()) == plain
    assert make() == plain and plain == make() and make() == make() and not make() != plain
    assert list(make().values()) == list(plain.values()) and repr(make()) == repr(plain)
    copied = make()
    twin = copied.copy()
    assert isinstance(twin, LazyInfo) and twin["text"] == copied["text"]
    assert make().pop("text") == "value of text" and make().setdefault("view") == "value of view"
    assert make().popitem() == ("steps", 4)
    keyed = LazyInfo(dict.fromkeys(["a", "b"], Keyed(lambda key: key * 2)))
    assert keyed == {"a": "aa", "b": "bb"} and keyed["a"] == "aa"


def test_infos_compute_no_view_and_no_text_unless_read():
    env = aec_env("avalon", preset="bench5")
    built: list[int] = []
    view = GAMES["avalon"].view
    env.reset(seed=3)
    game = env.game
    original = game.view_at

    def counted(state, player):
        built.append(player)
        return original(state, player)

    game.view_at = counted  # type: ignore[method-assign]
    for _ in range(30):
        observation, _, terminated, _, info = env.last()
        if terminated:
            break
        request = info["request"]
        if request.wants_words or request.answer == "words":
            env.say(env.agent_selection, "words")
        env.step(int(np.flatnonzero(observation["action_mask"])[0]))
    assert built == []
    _, _, _, _, info = env.last()
    assert info["view"] == view(game.state, info["player"]) and built == [info["player"]]


def test_say_gives_a_proposal_its_words_and_talk_off_keeps_the_plain_words():
    for talk in (True, False):
        env = aec_env("avalon", preset="bench5", talk=talk, text=False)
        env.reset(seed=1)
        _, _, _, _, info = env.last()
        assert info["request"].kind == "propose_team" and info["request"].wants_words
        env.say(env.agent_selection, "Trust this team of mine.")
        env.step(int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])[0]))
        said = [e for e in env.game.snapshot()["events"] if "Trust this team of mine." in json.dumps(e)]
        assert bool(said) is talk


def test_a_text_action_says_the_words_given():
    env = aec_env("werewolf", text=False)
    env.reset(seed=4)
    for agent in env.agent_iter():
        observation, _, terminated, _, info = env.last()
        if terminated:
            env.step(None)
            continue
        if info["request"].answer == "words":
            env.say(agent, "I saw nothing at night.")
            env.step(TEXT)
            break
        env.step(int(np.flatnonzero(observation["action_mask"])[0]))
    assert any(e.get("text") == "I saw nothing at night." for e in env.game.snapshot()["events"])
