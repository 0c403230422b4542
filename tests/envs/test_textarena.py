"""The TextArena-style environment (`roundtable.envs.make`): a loop plays every game to its end, invalid actions get
the game's message and one retry before the fallback rules decide, seeds replay, snapshots restore, talk skips."""

from __future__ import annotations

import random

import pytest
from env_actions import legal_text

from roundtable.envs import make
from roundtable.games import GAMES
from roundtable.games.errors import ConfigurationError, IllegalActionError

GAME_CASES = [("avalon", {"preset": "bench5"}), ("avalon", {"preset": "play7"}), ("werewolf", {}),
              *([("secret_hitler", {})] if "secret_hitler" in GAMES else [])]


def play_out(env, seed: int, rng: random.Random | None = None) -> list[str]:
    rng = rng or random.Random(seed)
    env.reset(seed=seed)
    actions = []
    done = False
    while not done:
        player_id, text = env.get_observation()
        request = env.game.waiting[0]
        assert player_id == request.player - 1
        assert text
        action = legal_text(request, rng)
        actions.append(action)
        done, info = env.step(action)
        assert info["valid"], info
    return actions


@pytest.mark.parametrize(("game", "config"), GAME_CASES)
def test_a_text_loop_plays_the_game_to_its_end_with_rewards_by_side(game, config):
    env = make(game, **config)
    play_out(env, seed=4)
    rewards, info = env.close()
    result = info["result"]
    assert result["reason"]
    assert sorted(rewards) == list(range(env.game.players))
    for pid, reward in rewards.items():
        expected = 0.0 if result["winner"] is None else 1.0 if info["sides"][pid] == result["winner"] else -1.0
        assert reward == expected
    assert info["invalid_actions"] == 0 and info["fallbacks"] == 0


def test_the_observation_is_the_tables_text_rules_role_record_and_instruction():
    env = make("avalon", preset="bench5")
    env.reset(seed=2)
    player_id, text = env.get_observation()
    table = env.game.view(player_id + 1)
    assert "Avalon" in text and f"Player {player_id + 1}" in text
    assert table.role in text.lower() or "Merlin" in text or "Servant" in text or "Minion" in text or "Assassin" in text
    assert "Answer with" in text  # the first request (a proposal) is answered with players


def test_an_invalid_action_gets_the_games_message_then_one_retry_then_the_fallback():
    env = make("avalon", preset="bench5", talk=False)
    env.reset(seed=3)
    request = env.game.waiting[0]
    assert request.kind == "propose_team"
    done, info = env.step("9, 9")
    assert not info["valid"] and info["retry"] and "twice" in info["error"]
    _, text = env.get_observation()
    assert "Your last action was invalid" in text and info["error"] in text
    done, info = env.step("nobody at all")
    assert not info["valid"] and not info["retry"] and info["fallback"].startswith("invalid action 2 times")
    assert info["invalid_actions"] == 2 and info["fallbacks"] == 1
    proposal = next(e for e in env.game.view(1).events if e["type"] == "proposal")
    assert len(proposal["team"]) == request.count  # the fallback rules filled the team


def test_retries_zero_falls_back_at_once():
    env = make("avalon", preset="bench5", talk=False, retries=0)
    env.reset(seed=3)
    _, info = env.step("garbage")
    assert info["fallback"] and info["fallbacks"] == 1


def test_the_same_seed_and_actions_give_the_same_game_and_another_seed_another():
    env = make("werewolf")
    actions = play_out(env, seed=11)
    first = list(GAMES["werewolf"].events(env.game.state))
    env.reset(seed=11)
    for action in actions:
        env.step(action)
    assert list(GAMES["werewolf"].events(env.game.state)) == first
    play_out(env, seed=12)
    assert list(GAMES["werewolf"].events(env.game.state)) != first


def test_a_restored_snapshot_plays_on_as_the_game_it_was_taken_from():
    env = make("avalon", preset="bench5")
    env.reset(seed=5)
    rng = random.Random(0)
    for _ in range(15):
        env.step(legal_text(env.game.waiting[0], rng))
    saved = env.snapshot()
    state = rng.getstate()
    rest = []
    while not env.game.done:
        rest.append(legal_text(env.game.waiting[0], rng))
        env.step(rest[-1])
    straight = env.close()
    env.restore(saved)
    for action in rest:
        env.step(action)
    assert env.close() == straight
    rng.setstate(state)


def test_without_talk_no_speaking_request_reaches_the_learner_and_the_plain_words_are_said():
    env = make("avalon", preset="bench5", talk=False)
    env.reset(seed=1)
    rng = random.Random(1)
    kinds = set()
    while not env.game.done:
        request = env.game.waiting[0]
        kinds.add(request.kind)
        env.step(legal_text(request, rng))
    assert "speak" not in kinds and "vote_team" in kinds
    utterances = [e for e in GAMES["avalon"].events(env.game.state) if e["type"] == "utterance"]
    assert utterances and all("speaks." not in e["text"] for e in utterances)


def test_talk_is_an_action_whose_words_reach_the_table():
    env = make("avalon", preset="bench5")
    env.reset(seed=1)
    rng = random.Random(1)
    while env.game.waiting[0].kind != "speak":
        env.step(legal_text(env.game.waiting[0], rng))
    env.step("I trust players 2 and 3 on this team.")
    said = [e["text"] for e in GAMES["avalon"].events(env.game.state) if e["type"] == "utterance"]
    assert "I trust players 2 and 3 on this team." in said


def test_forced_answers_are_asked_only_when_configured():
    for forced in (False, True):
        env = make("avalon", preset="bench5", talk=False, forced=forced)
        env.reset(seed=2)
        rng = random.Random(2)
        seen = False
        while not env.game.done:
            request = env.game.waiting[0]
            seen |= request.forced
            env.step(legal_text(request, rng))
        assert seen == forced


def test_bad_configurations_are_refused_by_name():
    with pytest.raises(ConfigurationError, match="unknown game"):
        make("chess")
    with pytest.raises(ConfigurationError, match="unknown environment option"):
        make("avalon", colour="red")
    with pytest.raises(ConfigurationError):
        make("avalon", preset="nonsense")
    env = make("avalon", preset="bench5")
    with pytest.raises(ConfigurationError, match="not 7"):
        env.reset(num_players=7, seed=1)
    with pytest.raises(RuntimeError, match="reset"):
        make("werewolf").get_observation()


def test_a_finished_game_refuses_a_step():
    env = make("avalon", preset="bench5", opponents={"evil": "naive"}, talk=False)
    play_out(env, seed=1)
    with pytest.raises(IllegalActionError, match="over"):
        env.step("approve")


def test_the_environment_plays_through_textarenas_action_wrappers():
    textarena = pytest.importorskip("textarena")
    env = textarena.wrappers.ClipCharactersActionWrapper(
        textarena.wrappers.ActionFormattingWrapper(make("avalon", preset="bench5", talk=False)), max_num_characters=60)
    env.reset(num_players=5, seed=6)
    rng = random.Random(6)
    done = False
    while not done:
        player_id, text = env.get_observation()
        done, info = env.step(legal_text(env.game.waiting[0], rng))  # wrapped as "[...]" and clipped
        assert info["valid"], info
    rewards, info = env.close()
    assert set(rewards.values()) <= {1.0, -1.0} and info["result"]["winner"] in ("good", "evil")
