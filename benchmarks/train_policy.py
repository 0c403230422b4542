"""Train the ``policy`` kind: the good side's team votes and proposals on ``bench5`` against the rule bots, through
the PettingZoo AEC environment, with REINFORCE (PyTorch) on a linear policy; then evaluate the untrained policy,
the trained one and the rule bots in the same seats over the same seeds (docs/envs.md#the-worked-example).

    nice -n 10 .venv/bin/python benchmarks/train_policy.py --games 3000 --eval 1000 \
        --out roundtable/agents/policy/weights/avalon.json

Needs torch (``pip install torch==2.13.0``, the CPU build) and the envs extra. Prints a Markdown table with 95%
Wilson intervals. The learner holds the three good seats (Merlin and two Servants) and shares one policy; the evil
seats are the ``naive`` rule bots; talk is skipped (plain words) and forced quest cards answered for it.
"""

from __future__ import annotations

import argparse
import json
import time
from itertools import combinations
from pathlib import Path

import numpy as np
import torch

from roundtable.agents.policy.features import TEAM_FEATURES, VOTE_FEATURES, team_features, vote_features
from roundtable.envs.pettingzoo import aec_env
from roundtable.envs.pettingzoo.spaces import NO, YES, pick_index
from roundtable.games import GAMES
from roundtable.graphs.phases import agent_seed
from roundtable.metrics.intervals import wilson

EVAL_SEED = 1_000_000
"""Evaluation games use seeds from here on, training games below it."""


class Linear(torch.nn.Module):
    """The policy: a logistic vote and a softmax over the legal teams, both linear in the features."""

    def __init__(self) -> None:
        super().__init__()
        self.vote = torch.nn.Parameter(torch.zeros(len(VOTE_FEATURES)))
        self.propose = torch.nn.Parameter(torch.zeros(len(TEAM_FEATURES)))

    def act(self, view, request, greedy: bool = False):
        """``(action index, log-probability)`` of the policy on a vote or proposal."""
        if request.kind == "vote_team":
            logit = self.vote @ torch.tensor(vote_features(view, request))
            dist = torch.distributions.Bernoulli(logits=logit)
            approve = (logit > 0) if greedy else dist.sample().bool()
            return (YES if approve else NO), dist.log_prob(approve.float())
        teams = list(combinations(sorted(request.candidates), request.count))
        x = torch.tensor([team_features(view, t) for t in teams])
        dist = torch.distributions.Categorical(logits=x @ self.propose)
        choice = dist.probs.argmax() if greedy else dist.sample()
        return pick_index(view.players)[teams[int(choice)]], dist.log_prob(choice)


def quests_won(env) -> int:
    """The successful quests of the game just played (public: any seat's record)."""
    return sum(1 for e in env.game.view(1).events if e["type"] == "quest_result" and e["success"])


def play(env, seed: int, chooser) -> float:
    """One game through the AEC environment; ``chooser(view, request) -> action`` on the good seats' votes and
    proposals. Returns the good side's reward (+1 / -1)."""
    env.reset(seed=seed)
    reward = 0.0
    for _agent in env.agent_iter():
        observation, r, terminated, truncated, info = env.last()
        if terminated or truncated:
            reward = r
            env.step(None)
            continue
        request = info["request"]
        if request.kind in ("vote_team", "propose_team"):
            env.step(chooser(info["view"], request))
        else:  # anything else a good seat is asked (none on bench5 without talk): the first legal answer
            env.step(int(np.flatnonzero(observation["action_mask"])[0]))
    return reward


def bot_chooser(seed: int):
    """The rule bot's decisions as action indices (the ``naive`` kind at the good seats, as in a game graph)."""
    bot = GAMES["avalon"].bot

    def choose(view, request):
        decision = bot.decide(view, request, agent_seed(seed, view.player))
        if request.kind == "vote_team":
            return YES if decision.choice else NO
        return pick_index(view.players)[tuple(sorted(decision.players))]
    return choose


def evaluate(env, games: int, chooser_for) -> tuple[int, int]:
    wins = sum(play(env, EVAL_SEED + i, chooser_for(EVAL_SEED + i)) > 0 for i in range(games))
    return wins, games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=3000, help="training games")
    parser.add_argument("--eval", type=int, default=1000, help="evaluation games per policy")
    parser.add_argument("--batch", type=int, default=50, help="games per gradient step")
    parser.add_argument("--lr", type=float, default=0.05)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--shaping", type=float, default=0.5,
                        help="training return = reward + SHAPING * successful quests / 3 (the uniform policy almost "
                             "never wins: without it REINFORCE sees one return only)")
    parser.add_argument("--out", type=Path, default=None, help="where to write the trained weights (JSON)")
    args = parser.parse_args()
    torch.manual_seed(args.seed)
    env = aec_env("avalon", preset="bench5", opponents={"evil": "naive"}, talk=False, text=False)
    policy = Linear()
    untrained = {k: v.detach().clone() for k, v in policy.state_dict().items()}
    optimiser = torch.optim.Adam(policy.parameters(), lr=args.lr)
    baseline, started = 0.0, time.perf_counter()
    for start in range(0, args.games, args.batch):
        losses, returns = [], []
        for seed in range(start, min(start + args.batch, args.games)):
            log_probs: list[torch.Tensor] = []

            def sample(view, request, log_probs=log_probs):
                action, log_prob = policy.act(view, request)
                log_probs.append(log_prob)
                return action
            reward = play(env, args.seed * EVAL_SEED + seed, sample) + args.shaping * quests_won(env) / 3
            returns.append(reward)
            if log_probs:
                losses.append(-(reward - baseline) * torch.stack(log_probs).sum())
        baseline = 0.9 * baseline + 0.1 * float(np.mean(returns))
        optimiser.zero_grad()
        torch.stack(losses).mean().backward()
        optimiser.step()
    trained_seconds = time.perf_counter() - started
    trained = {k: v.detach().clone() for k, v in policy.state_dict().items()}

    def greedy(weights):
        def chooser_for(seed):
            policy.load_state_dict(weights)
            return lambda view, request: policy.act(view, request, greedy=True)[0]
        return chooser_for

    def sampled(weights):
        def chooser_for(seed):
            policy.load_state_dict(weights)
            return lambda view, request: policy.act(view, request)[0]
        return chooser_for

    rows = [("untrained (uniform over legal answers)", evaluate(env, args.eval, sampled(untrained))),
            ("trained, greedy (the policy kind)", evaluate(env, args.eval, greedy(trained))),
            ("rule bots (naive) in the same seats", evaluate(env, args.eval, bot_chooser))]
    print(f"trained on {args.games} games in {trained_seconds:.0f} s; evaluated on seeds {EVAL_SEED}.."
          f"{EVAL_SEED + args.eval - 1}\n")
    print("| good seats played by | good wins | win rate | 95% interval |\n|---|---|---|---|")
    for name, (wins, n) in rows:
        low, high = wilson(wins, n)
        print(f"| {name} | {wins} / {n} | {wins / n:.1%} | {low:.1%} to {high:.1%} |")
    if args.out is not None:
        weights = {"vote": [round(float(w), 6) for w in trained["vote"]],
                   "propose": [round(float(w), 6) for w in trained["propose"]],
                   "features": {"vote": list(VOTE_FEATURES), "propose": list(TEAM_FEATURES)},
                   "trained": {"games": args.games, "batch": args.batch, "lr": args.lr, "seed": args.seed,
                               "shaping": args.shaping, "opponents": "evil=naive", "preset": "bench5",
                               "algorithm": "REINFORCE"}}
        args.out.write_text(json.dumps(weights, indent=2) + "\n")
        print(f"\nweights written to {args.out}")


if __name__ == "__main__":
    main()
