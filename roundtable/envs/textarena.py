"""The TextArena-style environment: ``reset`` / ``get_observation`` / ``step`` / ``close`` over text
(docs/envs.md#the-textarena-interface).

Players are numbered from 0 as TextArena numbers them: player id ``0`` is the table's Player 1. The observation
is the whole text of the player's view as the model-driven agents read it (`roundtable.envs.text`), not a list of
messages; the action is text in the answer format the observation states (`roundtable.envs.actions`). It works
through TextArena's action wrappers (``ClipWordsActionWrapper``, ``ActionFormattingWrapper``) where ``textarena``
is installed; it needs nothing of it.
"""

from __future__ import annotations

import secrets
from typing import Any

from roundtable.envs.config import EnvConfig
from roundtable.envs.engine import EnvGame
from roundtable.games.errors import ConfigurationError, IllegalActionError


def zero_based(counts: dict[str, Any]) -> dict[str, Any]:
    """`EnvGame.counts` with its per-player counters keyed by player id (0-based)."""
    return {key: {p - 1: n for p, n in value.items()} if key.endswith("_by_player") else value
            for key, value in counts.items()}


class TextEnv:
    """One game's TextArena-style environment (`roundtable.envs.make`).

    Attributes:
        config: the environment's configuration.
        game: the game in play (`roundtable.envs.engine.EnvGame`), after `reset`.
    """

    def __init__(self, config: EnvConfig) -> None:
        self.config = config
        self._game: EnvGame | None = None
        self._game_config = config.rules.config(config.config)

    @property
    def game(self) -> EnvGame:
        """The game in play.

        Raises:
            RuntimeError: `reset` was not called.
        """
        if self._game is None:
            raise RuntimeError("call reset() before playing")
        return self._game

    def reset(self, num_players: int | None = None, seed: int | None = None) -> None:
        """Deal a new game.

        Args:
            num_players: the number of players; ``None``: the configuration's. Another count than the
                configuration's is played where the game allows it (Avalon's ``standard`` preset).
            seed: the game seed (``None``: a random one, kept in ``info["seed"]``); the same seed and actions give
                the same game.

        Raises:
            ConfigurationError: a player count the game's configuration refuses.
        """
        config, game_config = self.config, self._game_config
        if num_players is not None and num_players != config.config.get("players", num_players):
            rules = config.rules
            data = {**config.config, "players": num_players}
            config = EnvConfig(**{**config.__dict__, "config": rules.config_dict(rules.config(data))})
            game_config = None
        game = EnvGame(config, seed if seed is not None else secrets.randbits(62), game_config=game_config)
        if num_players is not None and game.players != num_players:
            raise ConfigurationError(f"this {config.game} configuration seats {game.players} players, not "
                                     f"{num_players}")
        self._game = game

    def get_observation(self) -> tuple[int, str]:
        """``(player_id, text)``: the player asked next (0-based) and its observation text (after the game's end:
        the last player to act and the result)."""
        game = self.game
        if game.done or not game.waiting:
            result = game.result
            return 0, f"The game is over: {result.winner} wins ({result.reason})." if result else "The game is over."
        player = game.waiting[0].player
        return player - 1, game.observation(player)

    def step(self, action: str) -> tuple[bool, dict[str, Any]]:
        """The player asked next takes ``action`` (text).

        Returns:
            ``(done, info)``: ``info`` has ``player`` (0-based), ``valid``, ``error`` (the game's message on an
            invalid action), ``retry`` (asked again), ``fallback`` (the fallback rules' reason when they decided),
            and the game's counters (`EnvGame.counts`: ``invalid_actions``, ``fallbacks``, ``opponent_calls``).

        Raises:
            IllegalActionError: the game is over.
        """
        game = self.game
        if game.done or not game.waiting:
            raise IllegalActionError("the game is over: reset() to play another")
        outcome = game.act(game.waiting[0].player, action)
        info = {"player": outcome.player - 1, "request": outcome.request.kind, "valid": outcome.valid,
                "error": outcome.error, "retry": outcome.retry, "fallback": outcome.fallback,
                **zero_based(game.counts())}
        return game.done, info

    def close(self) -> tuple[dict[int, float], dict[str, Any]]:
        """``(rewards, info)``: per player id (0-based) +1 for the winning side, -1 for the losing one, 0 in a draw
        or an unfinished game; ``info`` has the ``result``, each player's ``role`` and ``side``, the ``learner``'s
        player ids, the ``seed`` and the counters."""
        game = self.game
        result = game.result
        info = {"result": result.model_dump() if result else None, "seed": game.seed,
                "roles": {p: role for p, (role, _) in enumerate(game.sides())},
                "sides": {p: side for p, (_, side) in enumerate(game.sides())},
                "learner": [p - 1 for p in game.learner], **zero_based(game.counts())}
        return {p - 1: r for p, r in game.rewards().items()}, info

    def snapshot(self) -> dict[str, Any]:
        """The game in play, JSON-ready, to `restore` (for search: play on from a position many times)."""
        return self.game.snapshot()

    def restore(self, snapshot: dict[str, Any]) -> None:
        """Play on from ``snapshot`` (`snapshot`)."""
        self._game = EnvGame.restore(self.config, snapshot)
