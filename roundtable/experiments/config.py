"""An experiment's configuration: a TOML file checked by a pydantic model, then resolved into games.

A configuration names the game, how many games each condition plays and on
which seeds (the same seeds for every condition, so conditions are compared on
the same deals), who plays (agent kinds, models and options per seat, side or
role, in the syntax of ``roundtable play``'s ``--agents``, ``--model`` and
``--agent-option``), the rule variants, and the conditions to compare; each
condition overrides the shared ``[defaults]``::

    name = "tiny-bots"
    games_per_condition = 8
    seed_start = 0
    parallel_games = 2

    [defaults]
    preset = "bench5"
    agents = "naive"
    rules = { fifth_rejection = "auto_approve" }

    [[conditions]]
    name = "naive"

    [[conditions]]
    name = "random-evil"
    agents = "naive,evil=random"

`load_config` refuses a file that is not TOML or breaks the model, and
`resolve_games` refuses any game that would not start (unknown kind, role,
rule variant, model spec, option, context key), each with a message naming
the field (``conditions[random-evil].agents: ...``), before any game starts.

``published`` (at the top level for every condition, and in a condition for it alone, added to the top level's)
names the papers' published figures the conditions correspond to: ids, or leading parts of ids, of the shipped
figures (`roundtable.experiments.published`, e.g. ``"light2023.baseline"``); the report sets each beside ours
(docs/experiments.md#published-figures). One that names no shipped figure, or a figure of another game, is refused
like the other errors.

``[tournament]`` (`roundtable.experiments.tournament`, docs/tournaments.md) seats entrants instead of ``agents``,
``models`` and ``agent_options``, rotating each through every role place of the game; a tournament that cannot
rotate evenly, or an entrant that would not start, is refused like the other errors.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from roundtable.experiments.published.load import paper_of, select
from roundtable.experiments.tournament import Tournament, check_entrants, seat_entrants, tournament_seats
from roundtable.games import GAMES, LEGACY_GAME, registered_game
from roundtable.games.errors import ConfigurationError
from roundtable.games.protocol import named_setting
from roundtable.graphs.game import build_game_graph
from roundtable.graphs.setup import check_input
from roundtable.play.runner import Durability
from roundtable.play.seating import resolve_seats

NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]{0,39}$")
"""An experiment's or condition's name: part of every game id (`roundtable.store.paths.GAME_ID`)."""

Retention = Literal["keep_all", "keep_last", "delete"]

RUNNING = frozenset({"description", "parallel_games", "model_calls_per_endpoint", "retention", "durability"})
"""An experiment's keys that change how its games run (speed, disk), never which games or their results."""


class ExperimentConfigError(ValueError):
    """A configuration that cannot run; the message names the file and the field."""


class LearningSpec(BaseModel):
    """Experience learning between games for a condition's ``lga`` seats (Lan et al.,
    docs/agents/lga.md#experience-learning).

    Fields: ``learners`` (which ``lga`` seats learn: ``all``, the default, ``good`` or ``evil``), ``identity``
    (who a learner is: ``model``, the default, one learner per model spec, whose seats share what it learns
    per role, as roles are dealt anew each game; ``seat``, one learner per seat number), ``strategy`` (learn at
    all; off: the "without strategy learning" ablation), ``own_strategy`` (off: IS, no own-strategy improvement),
    ``other_roles`` (off: AO, no other-role analysis), ``frozen`` (load what was learned but write nothing:
    evaluation games), ``store`` (the learning store's namespace; conditions with the same namespace share
    learners, default the condition's name so conditions stay apart).
    """

    model_config = ConfigDict(extra="forbid")

    learners: Literal["all", "good", "evil"] = "all"
    identity: Literal["model", "seat"] = "model"
    strategy: bool = True
    own_strategy: bool = True
    other_roles: bool = True
    frozen: bool = False
    store: str | None = None


class GameSpec(BaseModel):
    """What a game of a condition is: every field optional so a condition overrides only what it names.

    Fields: ``preset`` (``lan6``, ``bench5``, ``play7``, ``standard``), ``players`` (standard preset),
    ``setting`` (a named setting, where the game offers them), ``rules`` (``{variant: value}``, merged over
    the defaults'), ``agents``, ``models`` (assignment strings as ``roundtable play``'s ``--agents`` and
    ``--model``), ``agent_options`` (``[TARGET:]KEY=VALUE`` strings, appended to the defaults'), ``context``
    (the game graph's context overrides, merged), ``learning`` (`LearningSpec`).
    """

    model_config = ConfigDict(extra="forbid")

    preset: str | None = None
    players: int | None = None
    setting: str | None = None
    rules: dict[str, str] = Field(default_factory=dict)
    agents: str | None = None
    models: str | None = None
    agent_options: list[str] = Field(default_factory=list)
    context: dict[str, Any] = Field(default_factory=dict)
    learning: LearningSpec | None = None


def _references(value: Any) -> Any:
    """``published`` as a list: one reference may be given as a string."""
    return [value] if isinstance(value, str) else value


def _known_references(value: list[str]) -> list[str]:
    """``value`` unchanged when each reference names a shipped published figure (`select`)."""
    select(value)
    return value


class FrozenPool(BaseModel):
    """A condition's experience pool built from another condition's games, then frozen (Xu et al.'s pools of
    10, 20, 30 and 40 games, each evaluated over fresh games: docs/experiments.md#frozen-pools).

    Fields: ``source`` (the condition whose ``cga`` seats write the growing pool: exactly one ``pool=NAME`` in its
    ``agent_options``), ``games`` (the pool holds the source's first ``games`` games in seed order).
    """

    model_config = ConfigDict(extra="forbid")

    source: str
    games: int = Field(ge=1, le=100_000)


class Condition(GameSpec):
    """One condition to compare: a name, the `GameSpec` fields it changes, and ``published``: the published
    figures it corresponds to besides the experiment's (ids or id prefixes, docs/published.md).

    ``games`` and ``seed_start`` give the condition a game count and first seed of its own (default: the
    experiment's ``games_per_condition`` and ``seed_start``), for a condition that builds something the others
    use on other deals. ``frozen_pool`` (`FrozenPool`): before its games, the condition's pool, named after the
    condition, is built from the source condition's first games and frozen; its ``cga`` seats read it with
    ``pool=<condition name>`` in ``agent_options``.
    """

    name: str
    published: list[str] = Field(default_factory=list)
    games: int | None = Field(None, ge=1, le=100_000)
    seed_start: int | None = Field(None, ge=0)
    frozen_pool: FrozenPool | None = None

    _published_list = field_validator("published", mode="before")(_references)
    _published_known = field_validator("published")(_known_references)

    @field_validator("name")
    @classmethod
    def _name(cls, value: str) -> str:
        if not NAME.match(value):
            raise ValueError(f"{value!r} is not a name: 1 to 40 letters, digits, '_' or '-', starting with a letter "
                             "or digit")
        return value


class ExperimentConfig(BaseModel):
    """A whole experiment (see the module docstring for the file's shape).

    Fields: ``name``, ``description``, ``game`` (default ``avalon``), ``games_per_condition`` (1 to
    100,000), ``seed_start`` (seeds ``seed_start .. seed_start + games - 1``) or ``seeds`` (an explicit
    list, as many as ``games_per_condition``), ``parallel_games`` (games played at once, 1 to 64),
    ``model_calls_per_endpoint`` (concurrent model calls per endpoint, 1 to 256), ``retention``
    (checkpoints of finished games: ``keep_all``, ``keep_last`` or ``delete``, the default), ``durability``
    (when a game's checkpoints are written: ``sync``, the default, after every step; ``exit``, once when its run
    ends, for fast bot games: a killed process replays the game from its start;
    docs/experiments.md#checkpoint-durability),
    ``defaults`` (`GameSpec`), ``conditions`` (at least one `Condition`, names unique), ``published`` (the
    published figures every condition corresponds to: ids or id prefixes, docs/published.md; a string or a list),
    ``tournament`` (`Tournament`: the entrants that take the seats, rotated through the role places).
    """

    model_config = ConfigDict(extra="forbid")

    name: str
    description: str = ""
    game: str = "avalon"
    games_per_condition: int = Field(ge=1, le=100_000)
    seed_start: int = Field(0, ge=0)
    seeds: list[int] | None = None
    parallel_games: int = Field(4, ge=1, le=64)
    model_calls_per_endpoint: int = Field(8, ge=1, le=256)
    retention: Retention = "delete"
    durability: Durability = "sync"
    defaults: GameSpec = Field(default_factory=GameSpec)
    conditions: list[Condition] = Field(min_length=1)
    published: list[str] = Field(default_factory=list)
    tournament: Tournament | None = None

    _published_list = field_validator("published", mode="before")(_references)
    _published_known = field_validator("published")(_known_references)

    @field_validator("name")
    @classmethod
    def _name(cls, value: str) -> str:
        return Condition._name(value)

    @field_validator("game")
    @classmethod
    def _game(cls, value: str) -> str:
        return registered_game(value)

    @model_validator(mode="after")
    def _consistent(self) -> ExperimentConfig:
        names = [c.name for c in self.conditions]
        twice = sorted({n for n in names if names.count(n) > 1})
        if twice:
            raise ValueError(f"conditions: names must be unique; repeated: {', '.join(twice)}")
        if self.seeds is not None:
            if len(self.seeds) != self.games_per_condition:
                raise ValueError(f"seeds: {len(self.seeds)} seeds given for games_per_condition = "
                                 f"{self.games_per_condition}")
            if len(set(self.seeds)) != len(self.seeds) or min(self.seeds) < 0:
                raise ValueError("seeds: seeds must be distinct and 0 or more")
        by_name = {c.name: c for c in self.conditions}
        for condition in self.conditions:
            where = f"conditions[{condition.name}]"
            if self.seeds is not None and (condition.games is not None or condition.seed_start is not None):
                raise ValueError(f"{where}: games and seed_start of a condition need the experiment's seed_start, "
                                 "not an explicit seeds list")
            if condition.frozen_pool is not None:
                self._check_frozen_pool(condition, by_name)
        if self.tournament is not None:
            self._check_tournament(self.tournament)
        for where, references in [("published", self.published),
                                  *((f"conditions[{c.name}].published", c.published) for c in self.conditions)]:
            other = sorted({f.id for f in select(references) if paper_of(f).game != self.game})
            if other:
                raise ValueError(f"{where}: figures of another game than {self.game!r}: {', '.join(other)}")
        return self

    def _check_frozen_pool(self, condition: Condition, by_name: dict[str, Condition]) -> None:
        where, frozen = f"conditions[{condition.name}].frozen_pool", condition.frozen_pool
        assert frozen is not None
        source = by_name.get(frozen.source)
        if source is None or source is condition:
            raise ValueError(f"{where}: source {frozen.source!r} is not another condition of this experiment")
        if source.frozen_pool is not None:
            raise ValueError(f"{where}: source {source.name!r} reads a frozen pool itself; name the condition that "
                             "builds the pool")
        if frozen.games > len(self.seeds_of(source)):
            raise ValueError(f"{where}: games = {frozen.games}, but {source.name!r} plays "
                             f"{len(self.seeds_of(source))}")
        if len(self.pool_names(source)) != 1:
            raise ValueError(f"{where}: source {source.name!r} must write exactly one pool (pool=NAME in its "
                             f"agent_options); it writes {', '.join(self.pool_names(source)) or 'none'}")
        if condition.name not in self.pool_names(condition):
            raise ValueError(f"{where}: no seat reads the pool; add pool={condition.name} to agent_options "
                             "(for example \"village:pool=" + condition.name + "\")")

    def _check_tournament(self, tournament: Tournament) -> None:
        """Entrants take every seat, and each condition's games are whole blocks of the rotation."""
        for where, spec in [("defaults", self.defaults), *((f"conditions[{c.name}]", c) for c in self.conditions)]:
            given = sorted({"agents", "models", "agent_options"} & spec.model_fields_set)
            if given:
                raise ValueError(f"{where}: {', '.join(given)} cannot be given in a tournament: its entrants take "
                                 "the seats ([[tournament.entrants]] with agent, model and options)")
        for condition in self.conditions:
            uneven = tournament.uneven(len(self.seeds_of(condition)))
            if uneven is not None:
                raise ValueError(f"conditions[{condition.name}]: {uneven}")

    def games_part(self) -> dict[str, Any]:
        """The configuration without the keys that say how its games run, not which games they are
        (`RUNNING`): two configurations with the same part play the same games to the same results, so a
        directory or database holding one may go on with the other."""
        return {k: v for k, v in self.model_dump(mode="json").items() if k not in RUNNING}

    def pool_names(self, condition: Condition) -> list[str]:
        """The experience pools the condition's ``agent_options`` name (``[TARGET:]pool=NAME``), each once."""
        names = [option.split("=", 1)[1].strip() for option in self.spec_of(condition).agent_options
                 if option.split("=", 1)[0].rsplit(":", 1)[-1].strip() == "pool" and "=" in option]
        return list(dict.fromkeys(n for n in names if n))

    def seeds_of(self, condition: Condition) -> list[int]:
        """The seeds ``condition`` plays, in order: its own ``games`` and ``seed_start`` where given, else the
        experiment's (`game_seeds`)."""
        if condition.games is None and condition.seed_start is None:
            return self.game_seeds()
        start = self.seed_start if condition.seed_start is None else condition.seed_start
        return [start + i for i in range(condition.games or self.games_per_condition)]

    def published_for(self, condition: str) -> list[str]:
        """The published-figure references of ``condition``: the experiment's, then the condition's own, each once.

        Raises:
            KeyError: no condition of that name.
        """
        own = {c.name: c for c in self.conditions}[condition]
        return list(dict.fromkeys([*self.published, *own.published]))

    def game_seeds(self) -> list[int]:
        """The seeds every condition plays, in order."""
        return list(self.seeds) if self.seeds is not None else [
            self.seed_start + i for i in range(self.games_per_condition)]

    def spec_of(self, condition: Condition) -> GameSpec:
        """The condition's game spec: its fields over ``defaults`` (``rules`` and ``context`` merged,
        ``agent_options`` appended)."""
        base = self.defaults.model_dump()
        own = condition.model_dump(exclude={"name", "published", "games", "seed_start", "frozen_pool"},
                                   exclude_unset=True)
        merged = dict(base)
        for key, value in own.items():
            if key in ("rules",):
                merged[key] = {**base[key], **value}
            elif key == "context":
                merged[key] = _deep_merge(base[key], value)
            elif key == "agent_options":
                merged[key] = [*base[key], *value]
            else:
                merged[key] = value
        return GameSpec.model_validate(merged)


def _deep_merge(a: dict[str, Any], b: dict[str, Any]) -> dict[str, Any]:
    out = dict(a)
    for key, value in b.items():
        out[key] = _deep_merge(out[key], value) if isinstance(value, dict) and isinstance(out.get(key), dict) else value
    return out


def _problems(error: ValidationError) -> str:
    parts = []
    for problem in error.errors():
        where = ".".join(str(p) for p in problem["loc"]) or "(top level)"
        message = problem["msg"].removeprefix("Value error, ")
        parts.append(f"{where}: {message}")
    return "; ".join(parts)


def parse_config(text: str, source: str = "<config>") -> ExperimentConfig:
    """The experiment configuration in TOML ``text``.

    Raises:
        ExperimentConfigError: not TOML, or a field missing, unknown or invalid (named, e.g.
            ``conditions.0.agents``).
    """
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise ExperimentConfigError(f"{source} is not valid TOML: {error}") from None
    try:
        return ExperimentConfig.model_validate(data)
    except ValidationError as error:
        raise ExperimentConfigError(f"{source}: {_problems(error)}") from None


def load_config(path: str | Path) -> tuple[ExperimentConfig, str]:
    """The configuration in file ``path`` and its text.

    Raises:
        ExperimentConfigError: unreadable, not TOML, or invalid (the field named).
    """
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise ExperimentConfigError(f"cannot read {path}: {getattr(error, 'strerror', None) or error}") from None
    return parse_config(text, str(path)), text


@dataclass(frozen=True)
class PlannedGame:
    """One game of an experiment: its id, condition, index in the condition, seed, checked inputs
    (``{"config", "seed", "seats"}``), context overrides and learning spec; in a tournament, ``entrants``: the
    entrant's name at each seat (players 1..N), else empty; ``game``: the game played (a key of
    `roundtable.games.GAMES`)."""

    game_id: str
    condition: str
    index: int
    seed: int
    inputs: dict[str, Any]
    context: dict[str, Any] = field(default_factory=dict)
    learning: LearningSpec | None = None
    entrants: tuple[str, ...] = ()
    game: str = LEGACY_GAME


def game_id(condition: str, seed: int) -> str:
    """The id of a condition's game on ``seed``, e.g. ``naive-s0007``."""
    return f"{condition}-s{seed:04d}"


def game_config(rules: Any, spec: GameSpec) -> dict[str, Any]:
    """The game configuration dict of ``spec`` (``preset``, ``players``, ``rules``, ``setting``), checked.

    ``setting`` names one of the game's settings (`GameRules.settings`); a game without named settings refuses
    it.

    Raises:
        ConfigurationError: an unknown preset, rule variant or setting, or a bad player count.
    """
    data: dict[str, Any] = {"rules": dict(spec.rules)}
    if spec.preset is not None:
        data["preset"] = spec.preset
    if spec.players is not None:
        data["players"] = spec.players
    if spec.setting is not None:
        # the setting's preset and variants, the configuration's own preset and rules on top
        preset, overrides = named_setting(rules.name, rules.settings, spec.setting, spec.preset,
                                          [f"{k}={v}" for k, v in spec.rules.items()])
        data["rules"] = dict(item.split("=", 1) for item in overrides)
        if preset is not None:
            data["preset"] = preset
    return rules.config_dict(rules.config(data))


def resolve_games(config: ExperimentConfig) -> list[PlannedGame]:
    """Every game of the experiment, each input checked as the game graph's setup would check it.

    Returns:
        The games condition by condition, seeds in order.

    Raises:
        ExperimentConfigError: a game that would be refused, naming the condition and field.
    """
    rules = GAMES[config.game]
    builder = build_game_graph(rules)
    default_model = builder.context_model().default_model
    entrants: dict[str, dict[str, Any]] = {}
    if config.tournament is not None:
        try:
            entrants = check_entrants(config.tournament, rules, builder.known, default_model)
        except ConfigurationError as error:
            raise ExperimentConfigError(f"tournament.{error}") from None
    games: list[PlannedGame] = []
    for condition in config.conditions:
        spec = config.spec_of(condition)
        where = f"conditions[{condition.name}]"
        try:
            base = game_config(rules, spec)
        except (ConfigurationError, ValueError) as error:
            raise ExperimentConfigError(f"{where}: preset/players/rules/setting: {error}") from None
        try:
            builder.context_model.model_validate(spec.context)
        except ValidationError as error:
            raise ExperimentConfigError(f"{where}.context: {_problems(error)}") from None
        for index, seed in enumerate(config.seeds_of(condition)):
            names: tuple[str, ...] = ()
            try:
                if config.tournament is not None:
                    names = tuple(seat_entrants(config.tournament, rules, base, seed, index))
                    seats = tournament_seats(entrants, list(names))
                else:
                    seats = resolve_seats(rules, base, seed, spec.agents or "naive", spec.models or "",
                                          spec.agent_options)
                inputs = check_input({"config": base, "seed": seed, "seats": seats}, rules, builder.known,
                                     default_model)
            except (ConfigurationError, ValueError) as error:
                raise ExperimentConfigError(f"{where}.agents/models/agent_options (seed {seed}): {error}") from None
            games.append(PlannedGame(game_id(condition.name, seed), condition.name, index, seed, inputs,
                                     spec.context, spec.learning, names, config.game))
    return games
