"""Errors raised by the rules libraries."""

from __future__ import annotations


class ConfigurationError(ValueError):
    """A game configuration cannot be played (bad role set, variant, player count...)."""


class IllegalActionError(ValueError):
    """An action breaks the rules in the current state; the message says which rule."""
