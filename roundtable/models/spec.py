"""Model specs: the short strings that name a chat model, e.g. ``local`` or ``gpt-4o-mini``.

Syntax (one of four forms, optionally followed by ``?OPTIONS``)::

    local                                   the embedded llama.cpp model
    gpt-4o-mini                             a hosted model: OPENAI_API_KEY, optional OPENAI_BASE_URL
    http://127.0.0.1:8000/v1#qwen2.5-7b     any OpenAI-compatible server: BASE_URL#MODEL
    http://h1:8000/v1|http://h2:8000/v1#m   several servers (replicas) of one model: BASE_URL|BASE_URL...#MODEL

    OPTIONS = key=value[&key=value...] with keys
      json_schema=true|false   whether to ask for schema-constrained output
      max_retries=N            retries of transient errors (0..20)
      timeout=SECONDS          per-request timeout
      slots=N                  llama.cpp server slots to give players one each (``id_slot``);
                               0: one shared prompt cache (the default for hosted and URL endpoints)
      cooldown=SECONDS         replicas only: how long a failed replica stays out of rotation
                               (default `roundtable.models.replicas.DEFAULT_COOLDOWN`, 30 s)
      small=true|false         the model is small: the seat option ``aids=auto`` turns the small-model aids on
                               (default: the embedded model, by any route, and the names in `SMALL_MODELS`;
                               `is_small`, docs/agents/aids.md#the-switch)

The server form takes the base URL exactly as the OpenAI client wants it (usually
ending in ``/v1``); the model name follows ``#`` (a URL fragment is never sent to
a server, so it cannot clash with the URL). A server that needs a key reads it
from ``$ROUNDTABLE_SERVER_API_KEY`` (the OpenAI key is never sent to other hosts).
Examples: ``local?json_schema=false``, ``https://api.example.org/v1#llama-3.1-70b?timeout=120``.

Replicas: the endpoints are separated by ``|`` (a comma would end the seat's assignment, see below), serve the
same model, and share the one ``#MODEL`` and the options; each must be a distinct ``http(s)`` base URL. Calls
are spread over them and a failing one is skipped for a while (`roundtable.models.replicas`).

Several specs for different seats use :mod:`roundtable.games.assignments`
(``good=gpt-4o,evil=local``); see :func:`parse_model_assignments`.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from typing import Any, Literal
from urllib.parse import urlsplit

from pydantic import BaseModel, ConfigDict, Field, model_validator

from roundtable.games.assignments import Assignment, parse_assignments

LOCAL = "local"
"""The spec (and model alias) of the embedded model."""

DEFAULT_MODEL_SPEC = LOCAL
"""Spec used when none is given."""

_NAME = re.compile(r"^[A-Za-z0-9@][A-Za-z0-9._:/@+-]*$")
_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off"}


def parse_flag(value: str) -> bool:
    """Parse ``true/false``, ``yes/no``, ``on/off`` or ``1/0`` (any case).

    Raises:
        ValueError: Anything else.
    """
    normalized = value.strip().lower()
    if normalized in _TRUE:
        return True
    if normalized in _FALSE:
        return False
    raise ValueError(f"expected true or false, got {value!r}")


class ModelSpec(BaseModel):
    """A parsed model spec (immutable and hashable: usable as a cache key).

    Attributes:
        kind: ``"local"`` (embedded), ``"openai"`` (hosted, via ``OPENAI_*`` env)
            or ``"server"`` (an OpenAI-compatible URL).
        model: Model name sent to the endpoint (``"local"`` for the embedded model).
        base_url: Server base URL (``server`` kind only), without trailing ``/``; with replicas, the first.
        replicas: The base URLs (without trailing ``/``, in the order written, ``base_url`` first) of a ``server``
            spec naming two or more endpoints of one model (`roundtable.models.replicas`); ``()`` for one endpoint.
        json_schema: Force schema-constrained output on/off; ``None``: the kind's default.
        max_retries: Retries of transient errors; ``None``: the factory's default.
        timeout: Per-request timeout in seconds; ``None``: the factory's default.
        slots: Server slots that keep one prompt cache each, so each player's calls can be pinned to
            its own (llama.cpp's ``id_slot``); ``0``: none; ``None``: the kind's default
            (`roundtable.models.factory.prompt_slots`).
        cooldown: Seconds a failed replica stays out of rotation (replicas only); ``None``: the default.
        small: Whether the model is small (the aids' ``auto``, `is_small`); ``None``: known from its name.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    kind: Literal["local", "openai", "server"]
    model: str
    base_url: str | None = None
    json_schema: bool | None = None
    max_retries: int | None = Field(default=None, ge=0, le=20)
    timeout: float | None = Field(default=None, gt=0)
    slots: int | None = Field(default=None, ge=0, le=64)
    replicas: tuple[str, ...] = ()
    cooldown: float | None = Field(default=None, gt=0)
    small: bool | None = None

    @model_validator(mode="after")
    def _consistent(self) -> ModelSpec:
        if (self.kind == "server") != (self.base_url is not None):
            raise ValueError("a base_url is required for kind 'server' and refused otherwise")
        if self.kind == "local" and self.model != LOCAL:
            raise ValueError(f"the local model is named {LOCAL!r}, not {self.model!r}")
        if self.replicas:
            if len(self.replicas) < 2 or self.replicas[0] != self.base_url:
                raise ValueError("replicas are two or more base URLs, base_url first")
            if len(set(self.replicas)) != len(self.replicas):
                raise ValueError("replicas name each endpoint once")
        if self.cooldown is not None and not self.replicas:
            raise ValueError("a cooldown is for a spec naming several endpoints")
        return self

    @property
    def endpoints(self) -> tuple[str, ...]:
        """The base URLs calls go to: the replicas, else ``(base_url,)``; ``()`` for ``local`` and ``openai``."""
        return self.replicas or ((self.base_url,) if self.base_url else ())

    @classmethod
    def parse(cls, text: str) -> ModelSpec:
        """Parse a spec string; see :func:`parse_model_spec`."""
        return parse_model_spec(text)

    def __str__(self) -> str:
        """The canonical spec string (``parse_model_spec(str(spec)) == spec``)."""
        base = f"{'|'.join(self.endpoints)}#{self.model}" if self.kind == "server" else self.model
        options = {
            "json_schema": None if self.json_schema is None else str(self.json_schema).lower(),
            "max_retries": self.max_retries,
            "timeout": self.timeout,
            "slots": self.slots,
            "cooldown": self.cooldown,
            "small": None if self.small is None else str(self.small).lower(),
        }
        query = "&".join(f"{key}={value}" for key, value in options.items() if value is not None)
        return f"{base}?{query}" if query else base


SMALL_MODELS = frozenset({LOCAL, "qwen2.5-coder-1.5b-instruct"})
"""Model names declared small (case-insensitive, after any ``owner/`` prefix and ``-gguf`` or ``:tag`` suffix): the
embedded model, in-process (``local``) or served over HTTP under its own name (docs/embedded-model.md)."""


def is_small(text: str | None) -> bool:
    """Whether the model of spec ``text`` (``None``: the default, the embedded model) is declared small: its
    ``small`` option when given, else whether its name is one of `SMALL_MODELS`. A text that is no valid spec
    (a test's scripted model, say) is not small."""
    try:
        spec = parse_model_spec(text or DEFAULT_MODEL_SPEC)
    except ValueError:
        return False
    if spec.small is not None:
        return spec.small
    name = spec.model.lower().rsplit("/", 1)[-1].split(":", 1)[0].removesuffix("-gguf")
    return name in SMALL_MODELS


def aids_mode(value: str | bool | None) -> str:
    """A seat's ``aids`` option as ``auto``, ``on`` or ``off``: ``None`` is ``auto``, and a flag (``True``/``False``,
    as the command line reads ``aids=on``/``aids=off``) is ``on``/``off``.

    Raises:
        ValueError: any other value.
    """
    if value is None:
        return "auto"
    if isinstance(value, bool):
        return "on" if value else "off"
    if value not in ("auto", "on", "off"):
        raise ValueError(f"aids is auto, on or off, not {value!r}")
    return value


def aids_active(mode: str | bool | None, model: str | None) -> bool:
    """Whether a seat's small-model aids are on: its seat option ``aids`` is ``mode`` (``auto``, ``on`` or ``off``;
    ``None``: ``auto``; a flag: `aids_mode`), its model spec ``model`` (``None``: the embedded model); ``auto`` is on
    for a small model (`is_small`). The aids' switch (`roundtable.aids.switch`) and the measures (which say how a
    figure was measured) both ask it here.

    Raises:
        ValueError: ``mode`` is not ``auto``, ``on`` or ``off``.
    """
    mode = aids_mode(mode)
    return is_small(model) if mode == "auto" else mode == "on"


def parse_model_spec(text: str) -> ModelSpec:
    """Parse ``local``, ``MODEL``, ``BASE_URL#MODEL`` or ``BASE_URL|BASE_URL...#MODEL``, each optionally
    ``?key=value&...``.

    Args:
        text: The spec, e.g. ``"http://127.0.0.1:8000/v1#qwen2.5-7b?json_schema=false"`` or
            ``"http://h1:8000/v1|http://h2:8000/v1#qwen2.5-7b?cooldown=10"``.

    Returns:
        The :class:`ModelSpec`.

    Raises:
        ValueError: With a message naming the problem: empty spec, a URL without
            ``#MODEL``, an unsupported scheme, a query string in the URL, an
            invalid model name, an unknown option or a bad option value; for
            replicas, an empty or non-URL endpoint, one named twice, a model
            named per endpoint, or ``cooldown`` on a single endpoint.
    """
    spec = text.strip()
    if not spec:
        raise ValueError("empty model spec: use 'local', a model name, or BASE_URL#MODEL")
    replicas: tuple[str, ...] = ()
    if "://" in spec:
        url, hash_, rest = spec.partition("#")
        if not hash_ or not rest.split("?", 1)[0]:
            raise ValueError(f"model spec {text!r} names a server but no model: write it as {url.rstrip('/')}#MODEL")
        name, _, query = rest.partition("?")
        if "|" in url:
            replicas = _check_replicas(url, text)
            base_url: str | None = replicas[0]
        else:
            if "|" in name:
                raise ValueError(f"model spec {text!r}: replicas share one model, named once at the end: "
                                 "BASE_URL|BASE_URL#MODEL")
            base_url = _check_url(url, text)
        kind: Literal["local", "openai", "server"] = "server"
    else:
        if "|" in spec:
            raise ValueError(f"model spec {text!r}: only OpenAI-compatible servers can be replicas, each an "
                             "http(s) base URL: BASE_URL|BASE_URL#MODEL")
        name, _, query = spec.partition("?")
        base_url = None
        kind = "local" if name == LOCAL else "openai"
    if not _NAME.match(name):
        raise ValueError(f"invalid model name {name!r} in model spec {text!r}: use letters, digits and . _ : / @ + -")
    options = _parse_options(query, text)
    if "cooldown" in options and not replicas:
        raise ValueError(f"option 'cooldown' in model spec {text!r} is for several endpoints of one model "
                         "(BASE_URL|BASE_URL#MODEL): a single endpoint has no other to turn to")
    return ModelSpec(kind=kind, model=name, base_url=base_url, replicas=replicas, **options)


def parse_model_assignments(text: str) -> list[Assignment[ModelSpec]]:
    """Parse per-seat model specs such as ``"local,evil=gpt-4o-mini,3=http://h/v1#m"``.

    See :mod:`roundtable.games.assignments` for the syntax and for resolving them to seats.

    Raises:
        ValueError: A malformed assignment or spec (the message quotes it).
    """
    return parse_assignments(text, parse_model_spec)


def _check_url(url: str, text: str) -> str:
    """Validate a server base URL and return it without a trailing slash."""
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https"):
        raise ValueError(f"unsupported URL scheme {parts.scheme!r} in model spec {text!r}: use http or https")
    if not parts.hostname:
        raise ValueError(f"model spec {text!r} has no host in its URL")
    if parts.query:
        raise ValueError(f"model spec {text!r}: query strings in the server URL are not supported")
    try:
        parts.port  # noqa: B018 - raises ValueError on a bad port
    except ValueError as error:
        raise ValueError(f"model spec {text!r} has an invalid port: {error}") from None
    return url.rstrip("/")


def _check_replicas(urls: str, text: str) -> tuple[str, ...]:
    """Validate the ``|``-separated base URLs of replicas; return them without trailing slashes, in order."""
    checked: list[str] = []
    for position, url in enumerate(urls.split("|"), start=1):
        url = url.strip()
        if not url:
            raise ValueError(f"model spec {text!r} has an empty endpoint at position {position}: write the "
                             "replicas as BASE_URL|BASE_URL#MODEL, with no empty place between the bars")
        if "://" not in url:
            raise ValueError(f"endpoint {url!r} in model spec {text!r} is not a server URL: every replica is an "
                             "http(s) base URL, as in http://h1:8000/v1|http://h2:8000/v1#MODEL")
        base = _check_url(url, text)
        if base in checked:
            raise ValueError(f"endpoint {base!r} is named twice in model spec {text!r}: name each replica once")
        checked.append(base)
    return tuple(checked)


def _count(high: int) -> Callable[[str], int]:
    """A parser of a whole number from 0 to ``high``."""

    def parse(value: str) -> int:
        count = int(value)
        if not 0 <= count <= high:
            raise ValueError(f"expected 0..{high}")
        return count

    return parse


def _seconds(value: str) -> float:
    seconds = float(value)
    if not (math.isfinite(seconds) and seconds > 0):
        raise ValueError("expected a positive number of seconds")
    return seconds


_OPTIONS: dict[str, Callable[[str], Any]] = {"json_schema": parse_flag, "max_retries": _count(20),
                                                 "timeout": _seconds, "slots": _count(64), "cooldown": _seconds,
                                                 "small": parse_flag}
"""Option name -> parser of its value (raises ``ValueError``)."""


def _parse_options(query: str, text: str) -> dict[str, Any]:
    """Parse ``key=value&...`` options into :class:`ModelSpec` fields."""
    options: dict[str, Any] = {}
    for item in query.split("&") if query else ():
        key, eq, value = (part.strip() for part in item.partition("="))
        if not eq or not value:
            raise ValueError(f"option {item!r} in model spec {text!r} needs a value: key=value")
        if key in options:
            raise ValueError(f"option {key!r} is given twice in model spec {text!r}")
        try:
            parse = _OPTIONS.get(key)
            if parse is None:
                raise ValueError(f"unknown option; known: {', '.join(_OPTIONS)}")
            options[key] = parse(value)
        except ValueError as error:
            raise ValueError(f"bad option {item!r} in model spec {text!r}: {error}") from None
    return options
