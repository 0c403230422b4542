"""The PettingZoo AEC environment of a game (docs/envs.md#the-pettingzoo-interface).

Agents are ``player_1`` ... ``player_N`` (``possible_agents``); a game's ``agents`` are the learner's seats of its
deal (all of them without ``opponents``). The agent selected is the one whose request is next; simultaneous
requests are asked one agent after another and applied together. Observations are ``{"observation": vector,
"action_mask": mask}`` (`roundtable.envs.pettingzoo.spaces`); ``infos[agent]`` holds, for an agent asked
something, ``text`` (the observation text the model-driven agents read), ``player``, ``request`` and ``view``, the
view and the text computed only when read (`roundtable.envs.pettingzoo.infos`); at the end every agent's ``role``,
``side`` and the ``result``. The reward comes at the end alone: +1 to every agent on
the winning side, -1 to the others, 0 in a draw. The Werewolf dead stay agents until the end, never selected.

A masked-out action is not refused: the fallback rules decide (docs/games/protocol.md#fallback-rules) and it is
counted (``infos[agent]["invalid_actions"]``).
"""

from __future__ import annotations

import secrets
from functools import partial
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from roundtable.envs.config import EnvConfig
from roundtable.envs.engine import EnvGame
from roundtable.envs.pettingzoo.infos import Keyed, LazyInfo
from roundtable.envs.pettingzoo.spaces import (
    NO,
    PASS,
    PICKS,
    TEXT,
    YES,
    actions,
    features,
    known_players,
    mask,
    pick_sets,
    seat_vector,
    with_request,
)
from roundtable.games.errors import IllegalActionError
from roundtable.games.protocol import Decision, Request, check_decision


def agent_name(player: int) -> str:
    """``player_<seat>`` (1-based, as the table names the players)."""
    return f"player_{player}"


def player_of(agent: str) -> int:
    """The seat of ``player_<seat>``."""
    return int(agent.rsplit("_", 1)[1])


def decode(players: int, request: Request, action: int, words: str | None = None) -> Decision:
    """The decision action index ``action`` makes on ``request`` (`roundtable.envs.pettingzoo.spaces`), checked;
    ``words`` are its words where the request wants words (a `TEXT` action's, or a proposal's with its pick), else
    unread (``None``: the game's plain words are said for it, `roundtable.envs.engine.EnvGame.decide`).

    Raises:
        IllegalActionError: an index the request's mask does not allow.
    """
    action = int(action)
    answer = request.answer
    said = {"utterance": words} if words and (request.wants_words or answer == "words") else {}
    if action in (YES, NO) and answer == "yes_no":
        decision = Decision.to(request, choice=action == YES, **said)
    elif action == PASS and answer == "pick":
        decision = Decision.to(request, **said)
    elif action == TEXT and answer == "words":
        decision = Decision.to(request, **said)
    elif action >= PICKS and answer == "pick" and action - PICKS < len(sets := pick_sets(players)):
        decision = Decision.to(request, players=sets[action - PICKS], **said)
    else:
        raise IllegalActionError(f"action {action} does not answer {request.kind} ({request.answer})")
    check_decision(request, decision)
    return decision


class RoundtableAEC(AECEnv):
    """A game as a PettingZoo ``AECEnv`` (`aec_env`).

    Attributes:
        config: the environment's configuration. text: whether ``infos`` carry the observation text (rendered when
            read: docs/envs.md#speed).
        game: the game in play (`roundtable.envs.engine.EnvGame`), after ``reset``.
    """

    metadata = {"name": "roundtable", "render_modes": ["ansi"], "is_parallelizable": False}

    def __init__(self, config: EnvConfig, *, text: bool = True, render_mode: str | None = None) -> None:
        super().__init__()
        self.config = config
        self.text = text
        self.render_mode = render_mode
        self.metadata = {**self.metadata, "name": f"roundtable_{config.game}"}
        self._game_config = config.rules.config(config.config)
        dealt = config.rules.new_game(self._game_config, 0)
        seats = config.rules.seats(dealt)
        self.players = len(seats)
        self.sides: tuple[str, ...] = tuple(sorted({side for _, side in seats}))
        self.possible_agents = [agent_name(p) for p in range(1, self.players + 1)]
        self._seat = {agent: player_of(agent) for agent in self.possible_agents}
        self._seat_vectors: dict[int, tuple[tuple[dict[str, Any], ...], str, np.ndarray]] = {}
        """Per player, its knowledge and side and the part of its observation vector they make (`seat_vector`)."""
        size = features(self.players, self.sides)
        self._observation_spaces = {a: spaces.Dict({
            "observation": spaces.Box(0.0, 1.0, (size,), dtype=np.float32),
            "action_mask": spaces.Box(0, 1, (actions(self.players),), dtype=np.int8)}) for a in self.possible_agents}
        self._action_spaces = {a: spaces.Discrete(actions(self.players)) for a in self.possible_agents}
        self.words: dict[str, str] = {}
        self.game: EnvGame | None = None

    def observation_space(self, agent: str) -> spaces.Space:
        """The agent's observation space (the same object every call)."""
        return self._observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        """The agent's action space (the same object every call)."""
        return self._action_spaces[agent]

    def _game(self) -> EnvGame:
        if self.game is None:
            raise RuntimeError("call reset() before playing")
        return self.game

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deal a new game (``seed``: the game seed; ``None``: a random one). ``options`` is not read."""
        self.game = EnvGame(self.config, seed if seed is not None else secrets.randbits(62),
                            game_config=self._game_config)
        self.agents = [agent_name(p) for p in self.game.learner]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.words = {}
        self._seat_vectors = {}
        self._update()

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """``{"observation": vector, "action_mask": mask}`` of ``agent`` now."""
        game = self._game()
        player = self._seat[agent]
        request = None if game.done else game.request_of(player)
        side, knowledge = game.dealt(player)
        seat = self._seat_vectors.get(player)
        if seat is None or seat[0] is not knowledge or seat[1] != side:
            seat = self._seat_vectors[player] = (knowledge, side, seat_vector(self.players, player, side,
                                                                              known_players(knowledge), self.sides))
        return {"observation": with_request(seat[2], self.players, game.round_of(request), request, self.sides),
                "action_mask": mask(self.players, request)}

    def say(self, agent: str, words: str) -> None:
        """The words ``agent`` says with its next action: a `TEXT` action, or an answer whose request wants words
        with it (a proposal); else the game's plain words are said for it."""
        self.words[agent] = words

    def said(self, agent: str) -> str | None:
        """The words `say` left for ``agent``'s action now, taken (``None``: none, or talk is off: plain words)."""
        words = self.words.pop(agent, None)
        return words if self.config.talk else None

    def step(self, action: int | None) -> None:
        """The selected agent answers its request with ``action`` (``None`` once it is terminated).

        Raises:
            ValueError: an action other than ``None`` for a terminated agent (PettingZoo's rule).
        """
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        game = self._game()
        player = self._seat[agent]
        request = game.request_of(player)
        assert request is not None, f"{agent} is selected with nothing asked"
        self._cumulative_rewards[agent] = 0.0
        game.steps += 1
        try:
            decision = decode(self.players, request, int(action if action is not None else -1), self.said(agent))
            checked = True
        except IllegalActionError as error:
            game.invalid[player] += 1
            game.fallbacks[player] += 1
            game.tries[request.id] += 1
            decision, checked = game.fallback(request, "", str(error)), False
        game.answer(request, decision, checked=checked)
        self._update()
        if game.done:  # the rewards are all 0 until the end
            self._accumulate_rewards()

    def _update(self) -> None:
        """Rewards, terminations, infos and the agent selected, after a move."""
        game = self._game()
        counts = game.counts()
        if game.done:
            reward = game.rewards()
            roles = game.sides()
            result = game.result.model_dump() if game.result else None
            for a in self.agents:
                self.rewards[a] = reward[player_of(a)]
                self.terminations[a] = True
            self.infos = {a: {"role": roles[player_of(a) - 1][0], "side": roles[player_of(a) - 1][1],
                              "result": result, **counts} for a in self.agents}
            if self.agents:
                self.agent_selection = self.agents[0]
            return
        waiting = game.waiting  # replaced, never changed in place, as the game moves on
        state, errors = game.state, dict(game.errors) if game.errors else {}
        later: Any = Keyed(partial(self._info, game, waiting, state, errors, counts))  # built when read
        infos = LazyInfo.fromkeys(self.agents, later)
        first = waiting[0]
        selected = self.possible_agents[first.player - 1]
        # the agent selected is read at once (env.last()): its info is built now, its view and text still wait
        dict.__setitem__(infos, selected, self._asked(game, first, state, errors.get(first.player), counts))
        self.infos = infos
        self.agent_selection = selected

    def _info(self, game: EnvGame, waiting: list[Request], state: Any, errors: dict[int, str],
              counts: dict[str, Any], agent: str) -> dict[str, Any]:
        """``agent``'s info after the move that left ``state`` with the requests ``waiting`` in hand and the game's
        messages ``errors``: built when first read (`roundtable.envs.pettingzoo.infos`)."""
        player = self._seat[agent]
        request = next((r for r in waiting if r.player == player), None)
        if request is None:
            return {"player": player, **counts}
        return self._asked(game, request, state, errors.get(player), counts)

    def _asked(self, game: EnvGame, request: Request, state: Any, error: str | None,
               counts: dict[str, Any]) -> LazyInfo:
        """The info of the agent asked ``request`` in ``state``: its view and text computed only when read."""
        later = Keyed(partial(self._later, game, state, request, error))
        return LazyInfo(player=request.player, request=request, view=later, text=later if self.text else None,
                        **counts)

    @staticmethod
    def _later(game: EnvGame, state: Any, request: Request, error: str | None, key: str) -> Any:
        """The ``view`` or the ``text`` of an agent's info, computed when read."""
        if key == "view":
            return game.view_at(state, request.player)
        return game.observation_at(state, request, error)

    def render(self) -> str | None:
        """The selected agent's observation text (``render_mode="ansi"``), or ``None``."""
        if self.render_mode != "ansi" or self.game is None or self.game.done:
            return None
        return self.game.observation(player_of(self.agent_selection))

    def close(self) -> None:
        """Nothing to release."""

    def snapshot(self) -> dict[str, Any]:
        """The game in play with the agents' state, JSON-ready except the spaces (`restore`)."""
        return {"game": self._game().snapshot(), "agents": list(self.agents),
                "cumulative": dict(self._cumulative_rewards), "words": dict(self.words)}

    def restore(self, snapshot: dict[str, Any]) -> None:
        """Play on from ``snapshot`` (`snapshot`) taken before the game ended."""
        self.game = EnvGame.restore(self.config, snapshot["game"])
        self.agents = list(snapshot["agents"])
        self._cumulative_rewards = dict(snapshot["cumulative"])
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.rewards = {a: 0.0 for a in self.agents}
        self.words = dict(snapshot["words"])
        self._update()
