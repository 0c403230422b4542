"""What several kinds' seat options share: the ``auto`` switches, the paper's values for every model but the
embedded one, and the reply-length cap (docs/agents/paper-values.md)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pydantic import BaseModel


def embedded(model: str | None) -> bool:
    """Whether ``model`` (a model spec; ``None`` is the default, the embedded model) is the embedded ``local`` one."""
    return (model or "local").split("?")[0] == "local"


def auto_switch(value: bool | str, model: str | None) -> bool:
    """A cost switch's value; ``auto`` is on for the embedded ``local`` model only."""
    if value == "auto":
        return embedded(model)
    return bool(value)


def with_model_defaults(options: Mapping[str, Any] | None, paper: Mapping[str, Any],
                        model: str | None) -> dict[str, Any]:
    """A seat's options with each switch of ``paper`` that is absent or ``auto`` resolved for ``model``.

    A switch tuned for the embedded 1.5B model takes the paper's value for any other model and keeps its field
    default (the embedded model's value) for the embedded one (docs/agents/paper-values.md).

    Args:
        options: the seat's options as given (``--agent-option``), or ``None``.
        paper: ``{option: the paper's value}`` of the kind (its options model's ``PAPER``).
        model: the seat's model spec (``None``: the embedded model).

    Returns:
        A new options dict; switches given a value other than ``auto`` are kept as given.
    """
    out = dict(options or {})
    local = embedded(model)
    for key, value in paper.items():
        if isinstance(out.get(key, "auto"), str) and out.get(key, "auto") == "auto":
            if local:
                out.pop(key, None)
            else:
                out[key] = value
    return out


def max_tokens_for(words: int) -> int:
    """``max_tokens`` for a reply of at most ``words`` words (about 1.4 tokens a word, plus slack)."""
    return int(words * 1.6) + 16


def embedded_values(options: type[BaseModel]) -> dict[str, Any]:
    """``{option: the embedded model's value}`` for each switch of ``options.PAPER``: the options a seat on another
    model sets to play as a seat on the embedded model does (docs/agents/paper-values.md)."""
    return {key: options.model_fields[key].default for key in getattr(options, "PAPER", {})}
