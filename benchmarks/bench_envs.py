"""Environment steps per second for a random policy on Avalon and Werewolf, beside the rules library alone in the
same run, and the cost of the observation text (docs/envs.md#speed).

    nice -n 10 .venv/bin/python benchmarks/bench_envs.py --games 200

For each game: the pure rules played with uniformly random legal answers (`roundtable.testing.games.legal_answer`),
counted in decisions per second; the PettingZoo AEC environment without the observation text (``text=False``) and
with it, a random legal action from the mask at every step; and the TextArena-style environment, a random legal
text action at every step. Every seat is the learner's and talk is played, so every decision is a step.
"""

from __future__ import annotations

import argparse
import random
import time

import numpy as np

from roundtable.envs import make
from roundtable.envs.pettingzoo import aec_env
from roundtable.games import GAMES
from roundtable.testing.games import legal_answer

CONFIGS = {"avalon": {"preset": "bench5"}, "werewolf": {}}


def rules_alone(game: str, games: int) -> tuple[int, float]:
    rules = GAMES[game]
    config = rules.config(rules.config_dict(rules.config(CONFIGS[game])))
    steps, start = 0, time.perf_counter()
    for seed in range(games):
        rng, state = random.Random(seed), rules.new_game(config, seed)
        while rules.result(state) is None:
            requests = rules.pending(state)
            state = rules.apply(state, {r.player: legal_answer(r, rng) for r in requests})
            steps += len(requests)
    return steps, time.perf_counter() - start


def aec(game: str, games: int, text: bool) -> tuple[int, float]:
    env = aec_env(game, text=text, **CONFIGS[game])
    steps, start = 0, time.perf_counter()
    for seed in range(games):
        env.reset(seed=seed)
        rng = np.random.default_rng(seed)
        for _agent in env.agent_iter():
            observation, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            env.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
            steps += 1
    return steps, time.perf_counter() - start


def text_env(game: str, games: int) -> tuple[int, float]:
    env = make(game, **CONFIGS[game])
    steps, start = 0, time.perf_counter()
    for seed in range(games):
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
    return steps, time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=200, help="games per game and interface")
    args = parser.parse_args()
    print("| game | interface | steps | steps/s | vs the rules alone | µs per step |\n|---|---|---|---|---|---|")
    for game in CONFIGS:
        runs = {"rules alone": rules_alone(game, args.games), "AEC, no text": aec(game, args.games, False),
                "AEC, with text": aec(game, args.games, True), "TextArena-style": text_env(game, args.games)}
        base = runs["rules alone"][0] / runs["rules alone"][1]
        for name, (steps, seconds) in runs.items():
            rate = steps / seconds
            print(f"| {game} | {name} | {steps} | {rate:,.0f} | {rate / base:.2f} | {1e6 / rate:,.0f} |")
        text_cost = (runs["AEC, with text"][1] / runs["AEC, with text"][0]
                     - runs["AEC, no text"][1] / runs["AEC, no text"][0])
        print(f"| {game} | text rendering per observation | | | | {text_cost * 1e6:,.0f} |")


if __name__ == "__main__":
    main()
