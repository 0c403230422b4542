"""The PettingZoo parallel environment of a game: every agent acts at each step, where the game's decisions are
simultaneous (docs/envs.md#the-pettingzoo-interface).

At each step the agents asked something (a team vote, quest cards, the day's vote: all at once; a proposal or a
speech: one) give their answers; the others' mask allows only `roundtable.envs.pettingzoo.spaces.WAIT`, and their
action is not read. Spaces, observations, infos and rewards are the AEC environment's
(`roundtable.envs.pettingzoo.aec.RoundtableAEC`).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from pettingzoo import ParallelEnv

from roundtable.envs.config import EnvConfig
from roundtable.envs.pettingzoo.aec import RoundtableAEC, agent_name, decode, player_of
from roundtable.games.errors import IllegalActionError


class RoundtableParallel(ParallelEnv):
    """A game as a PettingZoo ``ParallelEnv`` (`roundtable.envs.pettingzoo.parallel_env`)."""

    metadata = {"name": "roundtable_parallel", "render_modes": ["ansi"]}

    def __init__(self, config: EnvConfig, *, text: bool = True) -> None:
        self.aec = RoundtableAEC(config, text=text)
        self.possible_agents = list(self.aec.possible_agents)
        self.metadata = {**self.metadata, "name": f"roundtable_{config.game}_parallel"}
        self.agents: list[str] = []

    def observation_space(self, agent: str) -> Any:
        """The agent's observation space (the AEC environment's)."""
        return self.aec.observation_space(agent)

    def action_space(self, agent: str) -> Any:
        """The agent's action space (the AEC environment's)."""
        return self.aec.action_space(agent)

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[dict[str, Any], dict[str, Any]]:
        """Deal a new game: ``(observations, infos)`` of the learner's agents."""
        self.aec.reset(seed=seed, options=options)
        self.agents = list(self.aec.agents)
        return {a: self.aec.observe(a) for a in self.agents}, dict(self.aec.infos)

    def step(self, actions: dict[str, Any]) -> tuple[dict[str, Any], ...]:
        """Every agent asked something answers with its action (a masked-out one falls back, counted).

        Returns:
            ``(observations, rewards, terminations, truncations, infos)`` of the agents before the step; after the
            game's end ``agents`` is empty.
        """
        game = self.aec._game()
        before = list(self.agents)
        for request in list(game.waiting):
            agent = agent_name(request.player)
            try:
                decision = decode(self.aec.players, request, int(np.asarray(actions.get(agent, -1))),
                                  self.aec.said(agent))
            except IllegalActionError as error:
                game.invalid[request.player] += 1
                game.fallbacks[request.player] += 1
                decision = game.fallback(request, "", str(error))
            game.steps += 1
            game.decided[request.player] = game.with_words(request, decision)
        game.waiting = []
        game.advance()
        self.aec._update()
        done = game.done
        rewards = {a: float(self.aec.rewards.get(a, 0.0)) for a in before}
        observations = {a: self.aec.observe(a) for a in before}
        terminations = {a: done for a in before}
        truncations = {a: False for a in before}
        infos = {a: self.aec.infos.get(a, {}).copy() for a in before}  # waiting values stay waiting
        if done:
            self.agents = []
        return observations, rewards, terminations, truncations, infos

    def state(self) -> np.ndarray:
        """Not offered: the game's state is hidden information (PettingZoo's optional global state)."""
        raise NotImplementedError("a hidden-role game has no global observation for an agent")

    def render(self) -> str | None:
        """Nothing is drawn."""
        return None

    def close(self) -> None:
        """Nothing to release."""

    @staticmethod
    def player(agent: str) -> int:
        """The seat of ``player_<seat>``."""
        return player_of(agent)
