"""The games as reinforcement-learning environments, on the pure rules (docs/envs.md).

- `make(game, **config)`: a TextArena-style environment (`roundtable.envs.textarena.TextEnv`: ``reset``,
  ``get_observation``, ``step``, ``close``) whose observations are the text the model-driven agents read and whose
  actions are text;
- `roundtable.envs.pettingzoo.aec_env(game, **config)`: a PettingZoo ``AECEnv`` over a finite action space with
  action masks, and ``parallel_env`` (the ``pettingzoo`` and ``gymnasium`` packages: the ``envs`` extra).

Every registered game is offered, plugins included. The configuration is the keys of an experiment's game settings
(``preset``, ``players``, ``setting``, ``rules``) and who sits at the other seats (``opponents``:
`roundtable.envs.opponents`); see `roundtable.envs.config.env_config`.
"""

from __future__ import annotations

from typing import Any

from roundtable.envs.config import EnvConfig, env_config
from roundtable.envs.textarena import TextEnv


def make(game: str, **config: Any) -> TextEnv:
    """A TextArena-style environment of ``game``.

    Args:
        game: a registered game's name (``avalon``, ``werewolf``, a plugin's).
        config: `roundtable.envs.config.KEYS`, e.g. ``preset="bench5"``, ``opponents={"evil": "naive"}``,
            ``talk=False``.

    Raises:
        ConfigurationError: an unknown game, option, preset, setting, rule variant or kind (named).

    Example:
        >>> env = make("avalon", preset="bench5", opponents={"evil": "naive"}, talk=False)
        >>> env.reset(seed=1)
        >>> player_id, text = env.get_observation()
    """
    return TextEnv(env_config(game, **config))


__all__ = ["EnvConfig", "TextEnv", "env_config", "make"]
