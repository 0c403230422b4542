"""Environment steps per second for a random policy on Avalon and Werewolf, beside the rules library alone in the
same run, and the cost of the observation text (docs/envs.md#speed).

    nice -n 10 .venv/bin/python benchmarks/bench_envs.py --games 100

For each game: the pure rules played with uniformly random legal answers (`roundtable.testing.games.legal_answer`,
with words where words are wanted), counted in decisions per second; the PettingZoo AEC environment without the
observation text (``text=False``), a random legal action from the mask at every step with words said
(`RoundtableAEC.say`) where the request wants words, as the rules alone are given; the same with the game's plain
words instead (built from the player's view: the cost of not saying any); the AEC environment with the text read
at every step (``info["text"]``, rendered only when read); and the TextArena-style environment, a random legal
text action at every step after reading the observation. Every seat is the learner's, talk is played and requests
with one legal answer are asked too (``forced=True``), so every decision the rules count is a step.

Times are the process's CPU seconds (`time.process_time`: the machine may be shared), and the interfaces take
turns over blocks of `BLOCK` games (the rules alone, then each environment, on the same seeds), so that a change of
the machine's load falls on all of them alike.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable

import numpy as np

from roundtable.envs import TextEnv, make
from roundtable.envs.pettingzoo import aec_env
from roundtable.envs.pettingzoo.aec import RoundtableAEC
from roundtable.games import GAMES
from roundtable.testing.games import legal_answer

CONFIGS = {"avalon": {"preset": "bench5"}, "werewolf": {}}
ENV = {"forced": True}
"""The environments' options besides the game's configuration: every decision is asked (talk is on by default)."""
BLOCK = 10
"""Games per turn of each interface."""


def rules_alone(game: str, seeds: range) -> tuple[int, float]:
    """Decisions and CPU seconds of the games of ``seeds`` on the pure rules, random legal answers."""
    rules = GAMES[game]
    config = rules.config(rules.config_dict(rules.config(CONFIGS[game])))
    steps, start = 0, time.process_time()
    for seed in seeds:
        rng, state = random.Random(seed), rules.new_game(config, seed)
        while rules.result(state) is None:
            requests = rules.pending(state)
            state = rules.apply(state, {r.player: legal_answer(r, rng) for r in requests})
            steps += len(requests)
    return steps, time.process_time() - start


def aec(game: str, seeds: range, text: bool, words: bool = True, env: RoundtableAEC | None = None
        ) -> tuple[int, float]:
    """Steps and CPU seconds of the games of ``seeds`` through the AEC environment (``env``, else a new one): a
    uniformly random legal action from the mask at every step, the words ``words of player N`` said where the
    request wants words (``words=False``: the game's plain words, built from the view), the observation text read
    at every step when ``text``."""
    env = env if env is not None else aec_env(game, text=text, **CONFIGS[game], **ENV)
    steps, start = 0, time.process_time()
    for seed in seeds:
        env.reset(seed=seed)
        rng = random.Random(seed)
        for agent in env.agent_iter():
            observation, _, terminated, truncated, info = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            request = info["request"]
            if text:
                info["text"]
            if words and (request.wants_words or request.answer == "words"):
                env.say(agent, f"words of player {request.player}")
            env.step(rng.choice(np.flatnonzero(observation["action_mask"]).tolist()))
            steps += 1
    return steps, time.process_time() - start


def text_env(game: str, seeds: range, env: TextEnv | None = None) -> tuple[int, float]:
    """Steps and CPU seconds of the games of ``seeds`` through the TextArena-style environment (``env``, else a new
    one): the observation read, then a random legal text action, at every step."""
    env = env if env is not None else make(game, **CONFIGS[game], **ENV)
    steps, start = 0, time.process_time()
    for seed in seeds:
        env.reset(seed=seed)
        rng, done = random.Random(seed), False
        while not done:
            env.get_observation()
            request = env.game.waiting[0]
            decision = legal_answer(request, rng)
            if request.answer == "pick":
                action = "pass" if decision.players is None else ", ".join(map(str, decision.players))
            elif request.answer == "yes_no":
                action = request.word(bool(decision.choice))
            else:
                action = "words"
            done, _ = env.step(action + ("\nwords" if request.wants_words and request.answer != "words" else ""))
            steps += 1
    return steps, time.process_time() - start


def runs(game: str, games: int) -> dict[str, tuple[int, float]]:
    """Steps and CPU seconds per interface over ``games`` games, the interfaces taking turns by blocks."""
    kwargs = {**CONFIGS[game], **ENV}
    plain, lazy = aec_env(game, text=False, **kwargs), aec_env(game, text=True, **kwargs)
    textual = make(game, **kwargs)
    interfaces: dict[str, Callable[[range], tuple[int, float]]] = {
        "rules alone": lambda seeds: rules_alone(game, seeds),
        "AEC, no text": lambda seeds: aec(game, seeds, False, env=plain),
        "AEC, no text, plain words": lambda seeds: aec(game, seeds, False, words=False, env=plain),
        "AEC, with text": lambda seeds: aec(game, seeds, True, env=lazy),
        "TextArena-style": lambda seeds: text_env(game, seeds, env=textual)}
    totals = {name: (0, 0.0) for name in interfaces}
    for start in range(0, games, BLOCK):
        seeds = range(start, min(start + BLOCK, games))
        for name, run in interfaces.items():
            steps, seconds = run(seeds)
            totals[name] = (totals[name][0] + steps, totals[name][1] + seconds)
    return totals


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=100, help="games per game and interface")
    args = parser.parse_args()
    print("| game | interface | steps | steps/s | vs the rules alone | µs per step |\n|---|---|---|---|---|---|")
    for game in CONFIGS:
        totals = runs(game, args.games)
        base = totals["rules alone"][0] / totals["rules alone"][1]
        for name, (steps, seconds) in totals.items():
            rate = steps / seconds
            print(f"| {game} | {name} | {steps} | {rate:,.0f} | {rate / base:.2f} | {1e6 / rate:,.0f} |")
        text_cost = (totals["AEC, with text"][1] / totals["AEC, with text"][0]
                     - totals["AEC, no text"][1] / totals["AEC, no text"][0])
        print(f"| {game} | text rendering per observation | | | | {text_cost * 1e6:,.0f} |")


if __name__ == "__main__":
    main()
