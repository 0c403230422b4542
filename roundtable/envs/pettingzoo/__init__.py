"""The PettingZoo interfaces of the games (docs/envs.md#the-pettingzoo-interface): `aec_env` (an ``AECEnv``) and
`parallel_env` (a ``ParallelEnv`` whose steps take the game's simultaneous decisions together).

They need ``pettingzoo`` and ``gymnasium`` (the ``envs`` extra: ``pip install 'roundtable[envs]'``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from roundtable.envs.config import env_config

if TYPE_CHECKING:
    from roundtable.envs.pettingzoo.aec import RoundtableAEC
    from roundtable.envs.pettingzoo.parallel import RoundtableParallel

MISSING = ("the PettingZoo environments need the pettingzoo and gymnasium packages: "
           "pip install 'roundtable[envs]' ({error})")


def aec_env(game: str, *, text: bool = True, **config: Any) -> RoundtableAEC:
    """A PettingZoo ``AECEnv`` of ``game`` (`roundtable.envs.make`'s ``config``; ``text=False``: no observation
    text in ``infos``, faster).

    Raises:
        ConfigurationError: as `roundtable.envs.make`.
        ImportError: pettingzoo or gymnasium is not installed (the message says how to install them).
    """
    try:
        from roundtable.envs.pettingzoo.aec import RoundtableAEC
    except ImportError as error:
        raise ImportError(MISSING.format(error=error)) from error
    return RoundtableAEC(env_config(game, **config), text=text)


def parallel_env(game: str, *, text: bool = True, **config: Any) -> RoundtableParallel:
    """A PettingZoo ``ParallelEnv`` of ``game`` (as `aec_env`).

    Raises:
        ConfigurationError: as `roundtable.envs.make`.
        ImportError: pettingzoo or gymnasium is not installed.
    """
    try:
        from roundtable.envs.pettingzoo.parallel import RoundtableParallel
    except ImportError as error:
        raise ImportError(MISSING.format(error=error)) from error
    return RoundtableParallel(env_config(game, **config), text=text)


__all__ = ["aec_env", "parallel_env"]
