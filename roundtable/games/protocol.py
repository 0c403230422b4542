"""The game protocol: the shapes every game shares (no LangChain, no I/O, no model).

A game asks its players for decisions with `Request`s and gets `Decision`s
back; what a player may know is its `PlayerView`. A `Request` keeps the game's
own word for what is asked (``kind``: ``propose_team``, ``vote_team``,
``quest_card``, ``assassinate``; Werewolf's ``kill``, ``protect``, ``see``,
``save``, ``poison``, ``eliminate``) and says *how* it is answered, with one of
a closed set of answer shapes (``answer``):

- ``pick``: name ``count`` distinct players from ``candidates`` (``may_pass``:
  naming nobody is allowed); answered in `Decision.players`;
- ``yes_no``: one of the game's two words (``options``, e.g. ``("approve",
  "reject")``; ``choice=True`` is the first), restricted to ``allowed``;
  answered in `Decision.choice`;
- ``words``: words only, in `Decision.utterance`;
- ``belief``: a probability of being good for each of ``candidates``, in
  `Decision.beliefs` (the game graph's belief probe, `belief_request`).

Any shape may also ask for words (``wants_words``). Extraction of actions
from model replies, the fallback rules and the agents work on the answer
shapes, so they serve every game.

A rules module provides its functions as one `GameRules` record (see
`roundtable.games.GAMES`): a new game from a configuration and a seed, the
pending requests, ``apply`` (answers in, next state out, or
`IllegalActionError`), ``view`` and ``result``.

Two requests are the game graph's, not a game's: `prepare_round`, the notice
that a round has begun, which asks nothing. The graph sends it with a round's
first requests to every other seat whose agent kind keeps per-round notes
(`roundtable.agents.protocol.AgentKind.prepares_rounds`), so that all of them write
their notes at once instead of each before its own first decision. And
`belief_request`, the belief probe of a finished game (AvalonBench's), asked of
the players the game's `GameRules.belief_probe` names whose agent kind answers
it through its own graph (`roundtable.agents.protocol.AgentKind.probed`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field

from roundtable.games.board import Board, no_board
from roundtable.games.errors import ConfigurationError, IllegalActionError

AnswerShape = Literal["pick", "yes_no", "words", "belief"]
ANSWER_SHAPES: tuple[AnswerShape, ...] = ("pick", "yes_no", "words", "belief")

Event = dict[str, Any]
"""One entry of a game's append-only log: a JSON-ready dict with ``type`` and ``to``
(``None``: public; a list of players: private to them; ``[]``: an analysis-only record)."""


class Request(BaseModel):
    """One decision a game waits for.

    Attributes:
        id: deterministic id, unique within a game, e.g. ``r2.a3.vote_team.p4``.
        kind: the game's own word for what is asked (``vote_team``, ``kill``, ...).
        player: the player asked (seat number, 1-based).
        phase: the game phase the request belongs to (a node of the game graph).
        round: the round (Avalon: quest 1..5; Werewolf: day). attempt: the
            proposal number in an Avalon round (1 elsewhere).
        answer: the answer shape: ``pick``, ``yes_no`` or ``words``.
        count: ``pick``: how many players to name.
        candidates: ``pick``: the players that may be named; ``belief``: the players to give a probability for.
        may_pass: ``pick``: naming nobody is allowed.
        options: ``yes_no``: the game's two words, yes first (``("approve", "reject")``).
        allowed: ``yes_no``: the legal answers (``(True,)``: only the first word).
        unclear: ``yes_no``: the answer the fallback rules give an unclear reply,
            declared by the game (docs/games/avalon.md#fallback-rules: a vote counts as approve, an evil
            player's quest card as fail); always in ``allowed``.
        subject: the players the request is about (the team under vote or on
            the quest, the players a leader proposed before).
        wants_words: an utterance is asked for together with the answer.
        audience: who hears the words (``None``: everyone).
        details: game-specific facts about the request for agents and
            templates (Avalon: ``final``, whether a proposal is the leader's last word).
    """

    model_config = ConfigDict(frozen=True)

    id: str
    kind: str
    player: int
    phase: str
    round: int
    attempt: int = 1
    answer: AnswerShape
    count: int | None = None
    candidates: tuple[int, ...] = ()
    may_pass: bool = False
    options: tuple[str, str] = ("yes", "no")
    allowed: tuple[bool, ...] = (True, False)
    unclear: bool | None = None
    subject: tuple[int, ...] = ()
    wants_words: bool = False
    audience: tuple[int, ...] | None = None
    details: dict[str, Any] = Field(default_factory=dict)

    @property
    def forced(self) -> bool:
        """Whether the request has exactly one legal answer and no words (e.g. a good player's quest card)."""
        return self.answer == "yes_no" and len(self.allowed) == 1 and not self.wants_words

    def word(self, choice: bool) -> str:
        """The game's word for a ``yes_no`` answer (``True`` -> ``options[0]``)."""
        return self.options[0] if choice else self.options[1]


PREPARE_ROUND = "prepare_round"
"""The kind of the game graph's round notice (`prepare_round`); no rules module issues it."""


def prepare_round(player: int, phase: str, round_: int) -> Request:
    """The notice to ``player`` that round ``round_`` has begun, in ``phase``: nothing is answered.

    Its id is ``r<round>.prepare_round.p<player>``; its answer shape is ``words`` without words
    wanted, so an agent asks no model for an answer and returns no `Decision`, only its memory
    (Lan et al.'s summary, analysis and plan of the round, in the ``lga`` kind).
    """
    return Request(id=f"r{round_}.{PREPARE_ROUND}.p{player}", kind=PREPARE_ROUND, player=player, phase=phase,
                   round=round_, answer="words")


BELIEF = "belief"
"""The kind of the game graph's belief probe request (`belief_request`); no rules module issues it."""


def belief_request(player: int, others: Sequence[int], phase: str, round_: int) -> Request:
    """The belief probe asked of ``player`` once the game is over, before any role is revealed: for every
    player of ``others``, the probability that the player is good (AvalonBench's end-of-game probe,
    docs/measures.md#deduction-accuracy).

    Its id is ``belief.p<player>``; its answer shape is ``belief`` (`Decision.beliefs`), ``candidates`` the
    players asked about, ``phase`` and ``round`` those the game ended in.
    """
    return Request(id=f"{BELIEF}.p{player}", kind=BELIEF, player=player, phase=phase, round=round_,
                   answer="belief", candidates=tuple(others))


class Decision(BaseModel):
    """A player's answer to a `Request`.

    Attributes:
        request_id, player, kind: the request answered.
        players: ``pick``: the players named, in order (``None``: a pass).
        choice: ``yes_no``: ``True`` for the first of the request's two words.
        utterance: the words said, when asked.
        beliefs: ``belief``: ``{player: P(good) in [0, 1]}`` for the request's candidates; ``None`` when the
            answer was unusable (then ``fallback`` says why, and the probe is left out of every measure).
        raw: the raw model text behind the decision (``None`` for rule bots).
        fallback: which fallback rules of docs/games/protocol.md#fallback-rules produced the answer, or
            ``None`` when the response met the request (counts for VRR).
        checks: what the agent's own checks found in its answer before giving
            it, e.g. ``"near copy of Player 3: asked again"`` (empty: nothing).
        thoughts: the agent's private reasoning behind the answer, as it wrote it for itself (a thought, a
            reflection, an analysis, a plan, notes), never shown to another player; the play-quality measure
            "thoughts said aloud" compares the words said with them (docs/measures.md#play-quality).
        usage: model cost of the decision: calls, tokens, latency (see records).
    """

    request_id: str
    player: int
    kind: str
    players: tuple[int, ...] | None = None
    choice: bool | None = None
    utterance: str | None = None
    beliefs: dict[int, float] | None = None
    raw: str | None = None
    fallback: str | None = None
    checks: tuple[str, ...] = ()
    thoughts: tuple[str, ...] = ()
    usage: dict[str, Any] = Field(default_factory=dict)

    @classmethod
    def to(cls, request: Request, **fields: Any) -> Decision:
        """A decision answering ``request`` (its id, player and kind filled in)."""
        return cls(request_id=request.id, player=request.player, kind=request.kind, **fields)


class PlayerView(BaseModel):
    """What one player may know at one moment; a game's view adds its table status.

    Attributes:
        game: the game's name (``avalon``, ``werewolf``).
        player: the player's seat number (1-based). role, side: its own role and side.
        knowledge: what it learned privately at the start, ``[{"player": q, "is": label}]``.
        players: number of players. role_set: the roles in play.
        rules: the rule variants, ``{variant: value}``.
        phase: the phase the game is in. round: the round (Avalon quest, Werewolf day).
        events: the log entries this player can see, oldest first, starting at
            index ``first_event`` of its visible log (0 in a full view; the game
            graph delivers only the entries an agent has not been given yet).
    """

    model_config = ConfigDict(frozen=True)

    game: str
    player: int
    role: str
    side: str
    knowledge: tuple[dict[str, Any], ...] = ()
    players: int
    role_set: tuple[str, ...]
    rules: dict[str, str]
    phase: str
    round: int
    events: tuple[dict[str, Any], ...] = ()
    first_event: int = 0

    def since(self, first_event: int) -> PlayerView:
        """The same view carrying only the visible events from index ``first_event`` on."""
        start = max(0, first_event - self.first_event)
        return self.model_copy(update={"events": self.events[start:], "first_event": self.first_event + start})


class Result(BaseModel):
    """How a game ended: ``winner`` (a side, or ``None`` for a draw) and the rulebook's ``reason``."""

    model_config = ConfigDict(frozen=True)

    winner: str | None
    reason: str


def can_see(event: Event, player: int) -> bool:
    """Whether ``player`` may see ``event`` (``to`` is ``None`` for public events)."""
    to = event.get("to")
    return to is None or player in to


def view_fields(events: Sequence[Event], player: int, players: int, role_set: Sequence[str],
                rules: dict[str, str]) -> dict[str, Any]:
    """The `PlayerView` fields every game computes alike, from the log only: ``player``, ``role``, ``side``
    (its private ``role`` event), ``knowledge`` (its private ``knowledge`` event, if any), ``players``,
    ``role_set`` (sorted), ``rules`` and ``events`` (the events it may see).

    Raises:
        ValueError: ``player`` is not a seat 1..``players``.
    """
    if not 1 <= player <= players:
        raise ValueError(f"player {player} is not at this table (players 1..{players})")
    visible = tuple(e for e in events if can_see(e, player))
    role = next(e for e in visible if e["type"] == "role" and e["player"] == player)
    knowledge: dict[str, Any] = next((e for e in visible if e["type"] == "knowledge" and e["player"] == player),
                                     {"knows": []})
    return {"player": player, "role": role["role"], "side": role["side"], "knowledge": tuple(knowledge["knows"]),
            "players": players, "role_set": tuple(sorted(role_set)), "rules": rules, "events": visible}


# ------------------------------------------------------------------ checks


def check_pick(players: Sequence[int] | None, count: int | None, candidates: Sequence[int]) -> None:
    """Check a named set of players: exactly ``count`` distinct players, all among ``candidates``.

    Raises:
        IllegalActionError: naming the problem.
    """
    if players is None:
        raise IllegalActionError("players must be named")
    if len(set(players)) != len(players):
        raise IllegalActionError(f"{list(players)} names a player twice")
    if count is not None and len(players) != count:
        raise IllegalActionError(f"name {count} player{'s' if count != 1 else ''}, not {len(players)}")
    outside = [p for p in players if p not in candidates]
    if outside:
        raise IllegalActionError(f"players {outside} cannot be named here (valid players: {list(candidates)})")


def check_decisions(pending: Sequence[Request], decisions: Mapping[int, Decision], phase: str) -> dict[int, Request]:
    """Check that ``decisions`` answer exactly the ``pending`` requests of phase ``phase``, each legally
    (`check_decision`), and return the requests by player.

    Raises:
        IllegalActionError: a pending request has no decision, a decision answers none, or one is illegal (named).
    """
    requests = {r.player: r for r in pending}
    missing = sorted(set(requests) - set(decisions))
    extra = sorted(set(decisions) - set(requests))
    if missing or extra:
        waiting = ", ".join(r.id for r in requests.values()) or "nothing"
        raise IllegalActionError(f"the {phase} phase waits for {waiting}: decisions missing for "
                                 f"players {missing} / not asked of players {extra}")
    for player, request in requests.items():
        check_decision(request, decisions[player])
    return requests


def check_decision(request: Request, decision: Decision) -> None:
    """Check that ``decision`` is a legal answer to ``request``, by its answer shape.

    Raises:
        IllegalActionError: naming what is wrong (wrong request or player, a
            pick of the wrong size, duplicates, players outside the candidates,
            a pass where none is allowed, a yes/no answer that is missing or not allowed).
    """
    if decision.player != request.player or decision.request_id != request.id:
        raise IllegalActionError(
            f"decision for request {decision.request_id!r} of player {decision.player} "
            f"does not answer request {request.id!r} of player {request.player}"
        )
    if decision.kind != request.kind:
        raise IllegalActionError(f"request {request.id} asks for {request.kind}, not {decision.kind}")
    if request.answer == "pick":
        if decision.players is None:
            if not request.may_pass:
                raise IllegalActionError(f"player {request.player} must name {request.count} now ({request.kind})")
            return
        check_pick(decision.players, request.count, request.candidates)
    elif request.answer == "yes_no":
        if decision.choice is None:
            raise IllegalActionError(f"{request.kind} must be answered {' or '.join(request.options)}")
        if decision.choice not in request.allowed:
            allowed = " or ".join(request.word(c) for c in request.allowed)
            raise IllegalActionError(f"player {request.player} may only answer {allowed} here ({request.kind})")
    elif request.answer == "belief":
        check_beliefs(request, decision)


def check_beliefs(request: Request, decision: Decision) -> None:
    """Check an answer to a belief probe: a probability in [0, 1] for exactly the request's candidates, or no
    beliefs with the fallback that says why.

    Raises:
        IllegalActionError: naming what is wrong.
    """
    if decision.beliefs is None:
        if decision.fallback is None:
            raise IllegalActionError(f"player {request.player} stated no belief and no fallback ({request.id})")
        return
    if set(decision.beliefs) != set(request.candidates):
        raise IllegalActionError(f"a belief of player {request.player} must cover players "
                                 f"{sorted(request.candidates)}, not {sorted(decision.beliefs)}")
    wrong = {q: p for q, p in decision.beliefs.items() if not 0.0 <= p <= 1.0}
    if wrong:
        raise IllegalActionError(f"beliefs of player {request.player} outside [0, 1]: {wrong}")


# ------------------------------------------------------------ rules module

StateT = TypeVar("StateT")
ConfigT = TypeVar("ConfigT")


def fields_of(events: Sequence[Event], kind: str, *keys: str) -> list[dict[str, Any]]:
    """``keys`` of every event of type ``kind``, in log order (a key an event lacks is ``None``)."""
    return [{k: e.get(k) for k in keys} for e in events if e["type"] == kind]


def no_views(events: Sequence[Event]) -> dict[str, Any]:
    """The record views of a game that declares none: ``{}``."""
    return {}


def titled(role: str) -> str:
    """A role's name in words by default: ``"loyal_servant"`` -> ``"Loyal Servant"``."""
    return role.replace("_", " ").title()


@dataclass(frozen=True)
class Setting:
    """One named setting of a game: a preset plus the rule variants one paper played, so a user need not know the
    keys (Avalon's: docs/games/avalon.md#named-settings).

    Attributes:
        name: the setting's name (``--setting NAME``).
        preset: the role-set preset it plays, ``None`` for any.
        rules: ``KEY=VALUE`` variant overrides, applied before the user's own ``--rule``s.
        source: the paper or rulebook it follows.
    """

    name: str
    preset: str | None
    rules: tuple[str, ...]
    source: str

    def describe(self) -> str:
        """One line for ``--help`` and the docs: preset and variants."""
        rules = ", ".join(self.rules) or "the default rules"
        return f"{self.name}: {self.preset or 'any preset'}; {rules} ({self.source})"


def named_setting(game: str, settings: Mapping[str, Setting], name: str, preset: str | None = None,
                  rules: Sequence[str] = ()) -> tuple[str | None, list[str]]:
    """The preset and rule overrides of ``game``'s setting ``name``, with the user's own ``preset`` and ``rules`` on
    top.

    Args:
        game: the game's name (for messages).
        settings: its named settings (`GameRules.settings`).
        name: the setting asked for.
        preset: the user's ``--preset`` (wins over the setting's).
        rules: the user's ``--rule KEY=VALUE`` overrides (applied after the setting's).

    Returns:
        ``(preset, rules)`` for the game's configuration.

    Raises:
        ConfigurationError: the game has no named settings, or not this one (the message lists those it has).
    """
    if not settings:
        raise ConfigurationError(f"{game} offers no named settings; give a preset and rule variants instead")
    if name not in settings:
        raise ConfigurationError(f"unknown setting {name!r}; valid settings: {', '.join(settings)}")
    chosen = settings[name]
    return preset if preset is not None else chosen.preset, [*chosen.rules, *rules]


@dataclass(frozen=True)
class RuleBot:
    """A game's own rule bot: the policy the ``naive`` agent kind plays in that game.

    Attributes:
        decide: ``decide(view, request, seed) -> Decision``, pure and memoryless.
        remembers: ``remembers(event) -> bool``: the past events the policy reads (the agent node keeps those
            in the player's pool and hands them back with the new ones); ``None``: it reads only the view it
            is given.
        beliefs: ``beliefs(view) -> {other player: P(good) in [0, 1]}``, its answer to the game's belief probe;
            ``None``: it states none.
        flavours: other bots of the game by name, which the ``naive`` kind plays under its ``flavour`` option
            (docs/agents/naive.md#flavours; Avalon's ``avalonbench``); this one is the flavour ``ours``.
    """

    decide: Callable[[PlayerView, Request, int], Decision]
    remembers: Callable[[Event], bool] | None = None
    beliefs: Callable[[PlayerView], Mapping[int, float]] | None = None
    flavours: Mapping[str, RuleBot] = field(default_factory=dict, compare=False)


@dataclass(frozen=True)
class GameRules(Generic[StateT, ConfigT]):
    """What a rules module provides to the game graph, the agents and the conformance suite.

    Every function is pure. A state is immutable; its log is ``events(state)``.

    Attributes:
        name: the game's name (``avalon``).
        phases: ``{phase: what happens in it}``, in play order; each phase is a
            node of the game graph, and the description is its docstring.
        roles: every role name the game knows (for seat assignments by role).
        config: ``config(data)``: a configuration from its dict (``dict`` -> config),
            raising `ConfigurationError` naming the problem.
        config_dict: the inverse, ``config -> dict`` (JSON-ready).
        configurations: a few configurations covering every variant the game
            offers (for the conformance suite), as dicts.
        new_game: ``new_game(config, seed)``: the dealt state, before any
            automatic step (randomness from the seed only).
        pending: ``pending(state) -> [Request]``: the decisions the game waits
            for; ``[]`` when the next step is automatic (then ``apply(state, {})``)
            or the game is over.
        apply: ``apply(state, {player: Decision}) -> state``, raising
            `IllegalActionError` naming the broken rule.
        view: ``view(state, player) -> PlayerView``; raises ``ValueError`` for a
            player not at the table.
        result: ``result(state) -> Result | None`` (``None`` while playing).
        phase: ``phase(state) -> str``, the current phase (a key of ``phases``
            or ``game_over``).
        events: ``events(state) -> tuple[Event, ...]``, the log.
        seats: ``seats(state) -> [(role, side)]`` per player, for assignments.
        snapshot / restore: ``snapshot(state) -> dict`` without the log, and
            ``restore(snapshot, events) -> state``; a state restored with no
            events must have the same phase, pending requests and result (the
            game graph routes on it without reading the log).
        action_of: ``action_of(request, decision) -> dict``: the answer in the
            game's own words, as the log records it (``{"approve": True}``).
        plain_words: ``plain_words(view, request, decision) -> str``: plain
            words matching an answer, for a reply with no usable words.
        view_model: the game's `PlayerView` subclass.
        belief_probe: ``belief_probe(state) -> {player: PlayerView}``: the
            players asked, once the game is over, for their belief in every
            other player's side, each with the view it states it on (Avalon:
            the good players, AvalonBench's probe); ``None``: the game asks
            for no belief.
        role_side: ``role_side(role) -> side``: the side a role is on, for a
            record that predates its role events (`roundtable.metrics.sides`);
            ``None``: the sides are read from the role events only.
        key_events: the log entries a player's memory keeps beyond the round
            they happened in (its key Host facts: Avalon's vote results,
            teams sent, quest results, the assassination and the game's end;
            `roundtable.agents.common.memory.key_events`).
        identity_words: the words by which talk reveals or deduces an
            identity (its roles and sides, lower case; Shi et al.'s key
            information, `roundtable.agents.codeact.memory`); ``()``: none.
        probe_side: the side the belief probe asks about: each belief is a
            probability of being on it, and the players the probe asks are on
            it (Avalon's ``"good"``; docs/measures.md#deduction-accuracy).
        record_views: ``record_views(events) -> {name: value}``: the game's
            views of its log in a game record (Avalon's ``proposals`` and
            ``quests``, Werewolf's ``night_actions`` and ``days``, ...), JSON-ready.
        title: the game's name in prompts (``"Avalon"``, ``"Werewolf"``); ``""``: the name, titled.
        round_name: what the game calls a round in prompts (``quest``, ``day``).
        role_title: ``role_title(role) -> str``: a role's name in words
            (``"Loyal Servant of Arthur"``).
        bot: the game's own rule bot (`RuleBot`), played by the ``naive`` kind;
            ``None``: the game has none.
        settings: the game's named settings, ``{name: Setting}`` (``--setting``,
            an experiment's ``setting``; `named_setting`); ``{}``: none.
        renamed_events: names the game's log entries had in older records,
            ``{old: new}``, so old records still load
            (`roundtable.store.records.upgrade_record`).
        table: the import path ``"module:function"`` of the game's table maker
            (`roundtable.tables.protocol.TableMaker`): what the model-driven
            kinds are told of the game, its rules text, role cards, knowledge,
            instructions and answer formats, narration, round names, secret
            phases and paper-specific hooks (docs/games/protocol.md#a-games-table);
            a path, not the function, since the tables sit above the games;
            ``None``: the game describes no table (no kind that reads tables plays it).
        board: ``board(events, players) -> Board``: the picture of the table after the log entries
            ``events`` (only those: a seat's visible log, the public record, or the whole log), drawn by the
            browser's table (`roundtable.games.board`); default `no_board`.
    """

    name: str
    phases: Mapping[str, str]
    roles: tuple[str, ...]
    config: Callable[[dict[str, Any]], ConfigT]
    config_dict: Callable[[ConfigT], dict[str, Any]]
    configurations: Callable[[], list[dict[str, Any]]]
    new_game: Callable[[ConfigT, int], StateT]
    pending: Callable[[StateT], list[Request]]
    apply: Callable[[StateT, Mapping[int, Decision]], StateT]
    view: Callable[[StateT, int], PlayerView]
    result: Callable[[StateT], Result | None]
    phase: Callable[[StateT], str]
    events: Callable[[StateT], tuple[Event, ...]]
    seats: Callable[[StateT], list[tuple[str, str]]]
    snapshot: Callable[[StateT], dict[str, Any]]
    restore: Callable[[dict[str, Any], Sequence[Event]], StateT]
    action_of: Callable[[Request, Decision], dict[str, Any]]
    plain_words: Callable[[PlayerView, Request, Decision], str]
    view_model: type[PlayerView] = PlayerView
    belief_probe: Callable[[StateT], Mapping[int, PlayerView]] | None = None
    probe_side: str = "good"
    record_views: Callable[[Sequence[Event]], dict[str, Any]] = no_views
    title: str = ""
    round_name: str = "round"
    role_title: Callable[[str], str] = titled
    role_side: Callable[[str], str] | None = None
    key_events: frozenset[str] = frozenset({"game_over"})
    identity_words: tuple[str, ...] = ()
    bot: RuleBot | None = None
    settings: Mapping[str, Setting] = field(default_factory=dict)
    renamed_events: Mapping[str, str] = field(default_factory=dict)
    table: str | None = None
    board: Callable[[Sequence[Event], int], Board] = no_board

    @property
    def game_title(self) -> str:
        """The game's name in prompts: `title`, else the name titled (``hidden_roles`` -> ``Hidden Roles``)."""
        return self.title or titled(self.name)
