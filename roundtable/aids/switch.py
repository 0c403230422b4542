"""The one switch of the small-model aids, ``aids=auto|on|off``, and how a kind's options follow it
(docs/agents/aids.md#the-switch, docs/agents/paper-values.md).

A seat's ``aids`` option is resolved once, when its options are read (`roundtable.agents.protocol.validated_options`):
``auto`` is ``on`` for a model declared small (`roundtable.models.spec.is_small`: the embedded model, however it
is reached, or any spec with ``?small=true``) and ``off`` for any other. With the aids off, every switch a kind
lists in its options model's ``PAPER`` takes the paper's value and every ``auto`` aid switch is off: the seat plays
its kind as the paper wrote it. With the aids on, those switches keep their field defaults (the values tuned for
the embedded 1.5B model) and ``auto`` aid switches are on. A switch given any value but ``auto`` is kept as given,
whatever the aids.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

from pydantic import BaseModel

from roundtable.models.spec import aids_active

__all__ = ["AidsMode", "aids_active", "auto_switch", "embedded_values", "with_aids"]

AidsMode = Literal["auto", "on", "off"]
"""The seat option ``aids``: ``auto`` (default: on for a small model), ``on``, ``off``."""


def auto_switch(value: bool | str, aids: bool) -> bool:
    """An aid switch's value for a seat whose aids are ``aids``: ``auto`` follows the aids; a bool is kept."""
    return aids if value == "auto" else bool(value)


def with_aids(options: Mapping[str, Any] | None, paper: Mapping[str, Any], model: str | None) -> dict[str, Any]:
    """A seat's options with ``aids`` resolved to ``on`` or ``off`` and each switch of ``paper`` that is absent or
    ``auto`` set for it.

    Args:
        options: the seat's options as given (``--agent-option``), or ``None``.
        paper: ``{option: the paper's value}`` of the kind (its options model's ``PAPER``).
        model: the seat's model spec (``None``: the embedded model).

    Returns:
        A new options dict: ``aids`` is ``"on"`` or ``"off"``; with the aids off the switches of ``paper`` not given
        a value take the paper's, with them on they take their field defaults (absent from the dict).

    Raises:
        ValueError: a bad ``aids`` value.
    """
    out = dict(options or {})
    on = aids_active(out.get("aids"), model)  # aids=off on the command line arrives as False
    out["aids"] = "on" if on else "off"
    for key, value in paper.items():
        if isinstance(out.get(key, "auto"), str) and out.get(key, "auto") == "auto":
            if on:
                out.pop(key, None)
            else:
                out[key] = value
    return out


def embedded_values(options: type[BaseModel]) -> dict[str, Any]:
    """``{option: the aids' value}`` for each switch of ``options.PAPER``: the field defaults, tuned for the embedded
    model (a seat that sets them plays those switches as the aids would, whatever its model)."""
    return {key: options.model_fields[key].default for key in getattr(options, "PAPER", {})}
