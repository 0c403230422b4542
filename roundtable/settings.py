"""Every environment variable roundtable reads, in one place (pydantic-settings).

The variables are read when asked for, not at import: `settings()` and
`local_server_settings()` return a fresh reading each call, so a test that sets
a variable (``monkeypatch.setenv``) or a block that moves the data directory
(`data_home`) is seen by the next call. An empty variable counts as unset.

=============================  ===================================  ================================================
variable                       default                              read by
=============================  ===================================  ================================================
``ROUNDTABLE_HOME``            ``./.roundtable``                    `roundtable.store.paths` (the data directory)
``ROUNDTABLE_MODEL``           ``local``                            `roundtable.graphs.game` (default model spec)
``ROUNDTABLE_MODEL_CACHE``     the data directory's ``cache/``      `roundtable.models.weights`
``ROUNDTABLE_SERVER_API_KEY``  ``none``                             `roundtable.models.factory` (``server`` specs)
``ROUNDTABLE_JSON_SCHEMA``     ``true``                             `roundtable.models.factory` (``server`` specs)
``ROUNDTABLE_API_KEY``         ``$OPENAI_API_KEY``, else ``none``   `roundtable.tools.embeddings` (URL endpoints)
``OPENAI_API_KEY``             unset                                `roundtable.tools.embeddings`
``ROUNDTABLE_DATABASE_URL``    unset (files in the data directory)  `roundtable.cli.experiment` (``--database``)
``ROUNDTABLE_LOCAL_*``         see `LocalServerSettings`            `roundtable.models.local` (the embedded server)
=============================  ===================================  ================================================

The ``ROUNDTABLE_LOCAL_*`` variables are a class of their own so that a malformed
one fails only where the embedded server is used, as before. This module imports
nothing from roundtable: every layer may read it.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from functools import lru_cache
from pathlib import Path
from typing import Any

from pydantic import Field, SecretStr, ValidationError, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

_CONFIG = SettingsConfigDict(case_sensitive=True, env_ignore_empty=True, extra="ignore", frozen=True)


class Settings(BaseSettings):
    """The ``ROUNDTABLE_*`` variables (and ``OPENAI_API_KEY``), read from the environment.

    Attributes:
        home: ``ROUNDTABLE_HOME``, the data directory (checkpoints, records, caches, locks); None: ``./.roundtable``
            in the working directory. Read by `roundtable.store.paths.home_path`.
        model: ``ROUNDTABLE_MODEL``, the model spec of model-driven seats given none (e.g. ``local``,
            ``gpt-4o-mini``, ``http://host:8080/v1#name``). Read by `roundtable.graphs.game.game_context`.
        model_cache: ``ROUNDTABLE_MODEL_CACHE``, the directory of the assembled embedded model (1.1 GB), so tests
            and CI share one across data directories; None: the data directory's cache. Read by
            `roundtable.models.weights.model_cache_dir`.
        server_api_key: ``ROUNDTABLE_SERVER_API_KEY``, the key sent to ``server``-kind (URL) chat endpoints; None:
            ``none``. Read by `roundtable.models.factory`.
        json_schema: ``ROUNDTABLE_JSON_SCHEMA``, whether ``server`` endpoints are asked for schema-constrained
            output: ``true/false``, ``yes/no``, ``on/off``, ``1/0``; empty: true. Kept as text and parsed where used
            (`roundtable.models.factory.supports_json_schema`), so a bad value fails only ``server`` specs.
        api_key: ``ROUNDTABLE_API_KEY``, the key sent to URL embedding endpoints; None: ``OPENAI_API_KEY``, else
            ``none``. Read by `roundtable.tools.embeddings`.
        openai_api_key: ``OPENAI_API_KEY``, the key of OpenAI's embedding endpoint (the chat models' ``openai``
            client reads it itself). Read by `roundtable.tools.embeddings`.
        database_url: ``ROUNDTABLE_DATABASE_URL``, the PostgreSQL URL of the shared store of experiments
            (``--database``'s default; docs/experiments.md#shared-database); None: files in the data directory.
            Read by `roundtable.cli.experiment`.
    """

    model_config = _CONFIG

    home: Path | None = Field(default=None, validation_alias="ROUNDTABLE_HOME")
    model: str = Field(default="local", validation_alias="ROUNDTABLE_MODEL")
    model_cache: Path | None = Field(default=None, validation_alias="ROUNDTABLE_MODEL_CACHE")
    server_api_key: SecretStr | None = Field(default=None, validation_alias="ROUNDTABLE_SERVER_API_KEY")
    json_schema: str = Field(default="", validation_alias="ROUNDTABLE_JSON_SCHEMA")
    api_key: SecretStr | None = Field(default=None, validation_alias="ROUNDTABLE_API_KEY")
    openai_api_key: SecretStr | None = Field(default=None, validation_alias="OPENAI_API_KEY")
    database_url: SecretStr | None = Field(default=None, validation_alias="ROUNDTABLE_DATABASE_URL")


_LOCAL = {
    "ctx": "ROUNDTABLE_LOCAL_CTX",
    "parallel": "ROUNDTABLE_LOCAL_PARALLEL",
    "kv_unified": "ROUNDTABLE_LOCAL_KV_UNIFIED",
    "seed_slots": "ROUNDTABLE_LOCAL_SEED_SLOTS",
    "threads": "ROUNDTABLE_LOCAL_THREADS",
    "cache_mib": "ROUNDTABLE_LOCAL_CACHE_MIB",
    "verbosity": "ROUNDTABLE_LOCAL_VERBOSITY",
    "port": "ROUNDTABLE_LOCAL_PORT",
}
"""Field of `LocalServerSettings` -> its variable, in the order they are checked."""


class LocalServerSettings(BaseSettings):
    """The ``ROUNDTABLE_LOCAL_*`` variables: overrides of the embedded llama.cpp server's settings.

    Each is an integer; None (unset or empty) keeps `roundtable.models.local.LocalSettings`'s default, which
    also checks the ranges. Read by `roundtable.models.local.LocalSettings.from_env`.

    Attributes:
        ctx: ``ROUNDTABLE_LOCAL_CTX``, context size in tokens of all slots together.
        parallel: ``ROUNDTABLE_LOCAL_PARALLEL``, slots (requests decoded at once).
        kv_unified: ``ROUNDTABLE_LOCAL_KV_UNIFIED``, one KV cache shared by all slots (nonzero: on).
        seed_slots: ``ROUNDTABLE_LOCAL_SEED_SLOTS``, copy the first slot's prompt cache into new slots (0: off).
        threads: ``ROUNDTABLE_LOCAL_THREADS``, CPU threads.
        cache_mib: ``ROUNDTABLE_LOCAL_CACHE_MIB``, host-memory prompt cache in MiB (0: off).
        verbosity: ``ROUNDTABLE_LOCAL_VERBOSITY``, llama.cpp log level (0 quiet, 3 informative).
        port: ``ROUNDTABLE_LOCAL_PORT``, loopback port (0: a free one).
    """

    model_config = _CONFIG

    ctx: int | None = Field(default=None, validation_alias=_LOCAL["ctx"])
    parallel: int | None = Field(default=None, validation_alias=_LOCAL["parallel"])
    kv_unified: int | None = Field(default=None, validation_alias=_LOCAL["kv_unified"])
    seed_slots: int | None = Field(default=None, validation_alias=_LOCAL["seed_slots"])
    threads: int | None = Field(default=None, validation_alias=_LOCAL["threads"])
    cache_mib: int | None = Field(default=None, validation_alias=_LOCAL["cache_mib"])
    verbosity: int | None = Field(default=None, validation_alias=_LOCAL["verbosity"])
    port: int | None = Field(default=None, validation_alias=_LOCAL["port"])

    @field_validator(*_LOCAL, mode="before")
    @classmethod
    def _integer(cls, value: Any, info: Any) -> Any:
        """Python's ``int()`` of the text, failing with a message naming the variable."""
        if not isinstance(value, str):
            return value
        try:
            return int(value)
        except ValueError:
            raise ValueError(f"${_LOCAL[info.field_name]} must be an integer, got {value!r}") from None


def settings() -> Settings:
    """The environment's `Settings` as the variables stand now (read again whenever one of them changed: the data
    directory and every path under it ask for them on each use)."""
    return _settings(tuple(os.environ.get(name) for name in _SETTINGS_VARIABLES))


_SETTINGS_VARIABLES = tuple(str(field.validation_alias) for field in Settings.model_fields.values())


@lru_cache(maxsize=32)
def _settings(_variables: tuple[str | None, ...]) -> Settings:
    """`Settings` read from the environment whose `_SETTINGS_VARIABLES` hold ``_variables`` (the cache's key)."""
    return Settings()


def local_server_settings() -> LocalServerSettings:
    """The environment's `LocalServerSettings`, read now.

    Raises:
        ValueError: the first malformed variable, as ``$ROUNDTABLE_LOCAL_X must be an integer, got 'text'``.
    """
    try:
        return LocalServerSettings()
    except ValidationError as error:
        first = error.errors()[0]
        raise ValueError(str(first.get("ctx", {}).get("error", first["msg"]))) from None


@contextmanager
def data_home(directory: Path) -> Iterator[None]:
    """Make ``directory`` the data directory (``$ROUNDTABLE_HOME``) for the block, then restore it.

    The variable itself is set, so `settings()` and child processes see it.
    """
    previous = os.environ.get("ROUNDTABLE_HOME")
    os.environ["ROUNDTABLE_HOME"] = str(directory)
    try:
        yield
    finally:
        if previous is None:
            os.environ.pop("ROUNDTABLE_HOME", None)
        else:
            os.environ["ROUNDTABLE_HOME"] = previous
