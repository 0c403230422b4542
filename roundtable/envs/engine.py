"""The game under an environment: the pure rules played to the learner's next request, the opponents and the
answers nobody need be asked for decided on the way (docs/envs.md).

Both interfaces drive one `EnvGame`: the TextArena-style `roundtable.envs.textarena.TextEnv` with text actions,
the PettingZoo `roundtable.envs.pettingzoo.aec.RoundtableAEC` with indices of a finite action space. Simultaneous
requests (a team vote, quest cards, the day's vote) are collected one learner seat at a time and applied together
once all are in, as the game graph applies them.
"""

from __future__ import annotations

import copy
import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from roundtable.envs.actions import read_action, split_action
from roundtable.envs.config import EnvConfig
from roundtable.envs.opponents import Opponents, opponents_for
from roundtable.envs.text import Narrated, observation_text
from roundtable.games.errors import ConfigurationError, IllegalActionError
from roundtable.games.fallbacks import choose_pick, choose_yes_no
from roundtable.games.protocol import Decision, GameRules, PlayerView, Request, Result, can_see, check_decision

FALLBACK = "invalid action {tries} times: "
"""The head of the fallback reason of a decision the fallback rules took after invalid actions."""


@dataclass
class Outcome:
    """What one learner action did.

    Attributes:
        player: the player who acted (1-based).
        request: the request it answered.
        valid: the action was a legal answer.
        error: the game's message on an invalid action (``None``: valid).
        fallback: the fallback rules' reason, when they decided after the retries ran out (``None``: they did not).
        retry: the same request is asked again (an invalid action with a retry left).
    """

    player: int
    request: Request
    valid: bool = True
    error: str | None = None
    fallback: str | None = None
    retry: bool = False


@dataclass
class Dealt:
    """What a player was dealt, as its view states it (`PlayerView.side`, `PlayerView.knowledge`), read once from
    its visible log (`EnvGame.dealt`).

    Attributes:
        side: the side of its first visible ``role`` entry of its own (``None``: none logged yet).
        knowledge: the ``knows`` of its first visible ``knowledge`` entry of its own (``None``: none logged yet; a
            view states ``()`` then).
        read: how many entries of the log were read.
    """

    side: str | None = None
    knowledge: tuple[dict[str, Any], ...] | None = None
    read: int = 0


@dataclass
class EnvGame:
    """One game under an environment.

    Attributes:
        config: the environment's configuration.
        seed: the game seed.
        state: the game's state (the rules module's, immutable).
        opponents: who plays the seats the learner does not hold.
        decided: the answers collected to the requests in hand, by player.
        waiting: the learner's requests in hand not answered yet, in seat order.
        tries: invalid actions per request id in hand.
        errors: per player, the game's message on its last invalid action, until it acts validly.
        invalid: invalid actions per player, over the game. fallbacks: decisions the fallback rules took, per player.
        steps: learner actions taken (invalid ones included).
        game_config: the game's configuration object (``rules.config`` of ``config.config``; ``None``: read here), so
            an environment reads it once for all its games.
        rules: the game's rules record (`EnvConfig.rules`, looked up once).
    """

    config: EnvConfig
    seed: int
    state: Any = None
    opponents: Opponents = field(default=None)  # type: ignore[assignment]  # set in __post_init__
    decided: dict[int, Decision] = field(default_factory=dict)
    waiting: list[Request] = field(default_factory=list)
    tries: Counter[str] = field(default_factory=Counter)
    errors: dict[int, str] = field(default_factory=dict)
    invalid: Counter[int] = field(default_factory=Counter)
    fallbacks: Counter[int] = field(default_factory=Counter)
    steps: int = 0
    game_config: Any = field(default=None, repr=False, compare=False)
    rules: GameRules = field(init=False, repr=False, compare=False)
    _views: tuple[Any, dict[int, PlayerView]] = field(default_factory=lambda: (None, {}), init=False, repr=False,
                                                       compare=False)
    _pending: tuple[Any, list[Request]] = field(default_factory=lambda: (None, []), init=False, repr=False,
                                                 compare=False)
    _narrated: dict[int, Narrated] = field(default_factory=dict, init=False, repr=False, compare=False)
    _dealt: dict[int, Dealt] = field(default_factory=dict, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        rules = self.rules = self.config.rules
        if self.state is None:
            if self.game_config is None:
                self.game_config = rules.config(self.config.config)
            self.state = rules.new_game(self.game_config, self.seed)
        if self.opponents is None:
            self.opponents = opponents_for(self.config, self.state, self.seed)
            self.advance()

    # ------------------------------------------------------------------ reading

    @property
    def players(self) -> int:
        """The number of seats."""
        return len(self.rules.seats(self.state))

    @property
    def learner(self) -> tuple[int, ...]:
        """The learner's players (1-based)."""
        return self.opponents.learner

    @property
    def result(self) -> Result | None:
        """How the game ended (``None``: still playing)."""
        return self.rules.result(self.state)

    @property
    def done(self) -> bool:
        """Whether the game is over."""
        return self.result is not None

    def view(self, player: int) -> PlayerView:
        """``player``'s full view, built once per state: every reader of the state in hand gets the same object."""
        state, views = self._views
        if state is not self.state:
            views = {}
            self._views = (self.state, views)
        view = views.get(player)
        if view is None:
            view = views[player] = self.rules.view(self.state, player)
        return view

    def view_at(self, state: Any, player: int) -> PlayerView:
        """``player``'s full view of ``state``, this game's state now or an earlier one (an info read late)."""
        return self.view(player) if state is self.state else self.rules.view(state, player)

    def round_of(self, request: Request | None) -> int:
        """The round a view of the state in hand states (`PlayerView.round`): the round of the request in hand
        (``request``, or any waiting), else of one view of the state (the round is the table's, the same in every
        player's view), built once per state."""
        if request is not None:
            return request.round
        if self.waiting:
            return self.waiting[0].round
        state, views = self._views
        if state is self.state and views:
            return next(iter(views.values())).round
        return self.view(self.learner[0] if self.learner else 1).round

    def dealt(self, player: int) -> tuple[str, tuple[dict[str, Any], ...]]:
        """``(side, knowledge)`` of ``player`` as its view states them, without building the view: the log is read
        once up to the player's ``role`` and ``knowledge`` entries (`roundtable.games.protocol.view_fields`).

        Raises:
            ValueError: no role of ``player`` is logged (its view could not be built either).
        """
        dealt = self._dealt.get(player)
        if dealt is None:
            dealt = self._dealt[player] = Dealt()
        if dealt.side is None or dealt.knowledge is None:
            events = self.rules.events(self.state)
            for event in events[dealt.read:]:
                kind = event["type"]
                if kind in ("role", "knowledge") and event["player"] == player and can_see(event, player):
                    if kind == "role" and dealt.side is None:
                        dealt.side = event["side"]
                    elif kind == "knowledge" and dealt.knowledge is None:
                        dealt.knowledge = tuple(event["knows"])
            dealt.read = len(events)
        if dealt.side is None:
            raise ValueError(f"no role of player {player} is logged")
        return dealt.side, dealt.knowledge or ()

    def request_of(self, player: int) -> Request | None:
        """The learner's request in hand for ``player`` (``None``: it is asked nothing now)."""
        for request in self.waiting:
            if request.player == player:
                return request
        return None

    def observation(self, player: int) -> str:
        """The observation text of ``player``'s request in hand (`roundtable.envs.text.observation_text`), or of
        its view alone when it is asked nothing (the record, no instruction).

        Raises:
            ConfigurationError: the game describes no table.
        """
        request = self.request_of(player)
        if request is None:
            return f"Player {player}: nothing is asked of you now."
        return self.observation_at(self.state, request, self.errors.get(player))

    def observation_at(self, state: Any, request: Request, error: str | None) -> str:
        """The observation text of ``request`` in ``state`` (this game's state now or an earlier one), with the
        game's message ``error`` on the last invalid action."""
        narrated = self._narrated.setdefault(request.player, [])
        return observation_text(self.view_at(state, request.player), request, talk=self.config.talk, error=error,
                                narrated=narrated)

    def sides(self) -> list[tuple[str, str]]:
        """``(role, side)`` per seat, 0-based."""
        return self.rules.seats(self.state)

    def rewards(self) -> dict[int, float]:
        """Per player, +1 when its side won, -1 when it lost, 0 in a draw or while playing."""
        result = self.result
        if result is None or result.winner is None:
            return {p: 0.0 for p in range(1, self.players + 1)}
        return {p: 1.0 if side == result.winner else -1.0 for p, (_, side) in enumerate(self.sides(), start=1)}

    def counts(self) -> dict[str, Any]:
        """The game's counters: invalid actions and fallbacks (in all and per player), opponents' model calls."""
        return {"invalid_actions": sum(self.invalid.values()), "fallbacks": sum(self.fallbacks.values()),
                "invalid_by_player": dict(self.invalid), "fallbacks_by_player": dict(self.fallbacks),
                "opponent_calls": self.opponents.calls, "steps": self.steps}

    # ------------------------------------------------------------------ moving

    def advance(self) -> None:
        """Play on until a learner's request waits or the game is over: automatic steps, the opponents' answers,
        forced answers (unless ``forced``) and plain words for talk (unless ``talk``) on the way."""
        rules = self.rules
        kinds = self.opponents.kinds
        while rules.result(self.state) is None:
            requests = self.pending()
            if not requests:
                self.state = rules.apply(self.state, {})
                continue
            decided = self.decided
            for request in requests:
                if request.player not in decided and (kinds[request.player - 1] is not None or request.forced
                                                      or request.answer == "words"):
                    answer = self.unasked(request)
                    if answer is not None:
                        decided[request.player] = answer
            self.waiting = [r for r in requests if r.player not in decided]
            if self.waiting:
                return
            self.state = rules.apply(self.state, decided)
            self.decided = {}
            if self.tries:
                self.tries = Counter()
        self.waiting = []

    def pending(self) -> list[Request]:
        """The rules' pending requests of the state in hand (``rules.pending``, asked once per state)."""
        state, requests = self._pending
        if state is not self.state:
            requests = self.rules.pending(self.state)
            self._pending = (self.state, requests)
        return requests

    def unasked(self, request: Request) -> Decision | None:
        """The answer to ``request`` nobody at the learner's seats is asked for, or ``None``: the learner's."""
        if self.opponents.holds(request.player):
            return self.opponents.decide(self.config, self.view(request.player), request)
        if request.forced and not self.config.forced:
            return Decision.to(request, choice=request.allowed[0])
        if request.answer == "words" and not self.config.talk:
            return self.with_words(request, Decision.to(request))
        return None

    def with_words(self, request: Request, decision: Decision) -> Decision:
        """``decision`` with the game's plain words where the request wants words and it has none."""
        if request.wants_words and not decision.utterance:
            words = self.rules.plain_words(self.view(request.player), request, decision)
            return decision.model_copy(update={"utterance": words})
        return decision

    def decide(self, player: int, decision: Decision) -> None:
        """Record ``player``'s legal answer to its request in hand and play on (`advance`).

        Raises:
            IllegalActionError: ``player`` is asked nothing now, or the decision is illegal (named).
        """
        request = self.request_of(player)
        if request is None:
            raise IllegalActionError(f"player {player} is asked nothing now")
        self.answer(request, decision)

    def answer(self, request: Request, decision: Decision, *, checked: bool = False) -> None:
        """Record the answer ``decision`` to ``request``, a request in hand (the game's plain words added where it
        wants words and has none), and play on once every request in hand is answered (`advance`).

        Args:
            request: the request answered, one of `waiting`.
            decision: its answer.
            checked: the decision was checked against ``request`` already (`check_decision`): not again.

        Raises:
            IllegalActionError: the decision is illegal (named).
        """
        if request.wants_words and not decision.utterance:
            decision = self.with_words(request, decision)
        if not checked:
            check_decision(request, decision)
        player = request.player
        self.decided[player] = decision
        if self.errors:
            self.errors.pop(player, None)
        self.waiting = [r for r in self.waiting if r.player != player]
        if not self.waiting:
            self.advance()

    def act(self, player: int, action: str) -> Outcome:
        """``player``'s text action on its request in hand (`roundtable.envs.actions.read_action`): recorded when
        legal; when not, the game's message comes back and the request is asked again, `EnvConfig.retries` times,
        after which the fallback rules decide with what could be read (docs/games/protocol.md#fallback-rules).

        Raises:
            IllegalActionError: ``player`` is asked nothing now.
        """
        request = self.request_of(player)
        if request is None:
            raise IllegalActionError(f"player {player} is asked nothing now")
        self.steps += 1
        try:
            decision = read_action(request, action)
        except IllegalActionError as error:
            self.invalid[player] += 1
            self.tries[request.id] += 1
            if self.tries[request.id] <= self.config.retries:
                self.errors[player] = str(error)
                return Outcome(player, request, valid=False, error=str(error), retry=True)
            fallback = self.fallback(request, action, str(error))
            self.fallbacks[player] += 1
            self.decide(player, fallback)
            return Outcome(player, request, valid=False, error=str(error), fallback=fallback.fallback)
        if not self.config.talk and request.wants_words:
            decision = decision.model_copy(update={"utterance": None})
        self.decide(player, decision)
        return Outcome(player, request)

    def fallback(self, request: Request, action: str, error: str) -> Decision:
        """The fallback rules' answer to ``request`` from what ``action`` names (`choose_pick`, `choose_yes_no`)."""
        head = FALLBACK.format(tries=self.tries[request.id])
        if request.answer == "pick":
            answer, _ = split_action(action)
            named = [int(n) for n in re.findall(r"\d+", answer)]
            pick = choose_pick(request, named or None, self.seed, attempt=self.tries[request.id])
            reason = head + (pick.fallback or error)
            return Decision.to(request, players=pick.players, raw=action, fallback=reason)
        choice, unclear = choose_yes_no(request, None)
        return Decision.to(request, choice=choice, raw=action, fallback=head + (unclear or error))

    # ------------------------------------------------------------------ search

    def snapshot(self) -> dict[str, Any]:
        """Everything needed to play on from here, JSON-ready: the game's snapshot and log, the answers collected,
        the counters and the opponents' memories (`restore`)."""
        rules = self.rules
        return copy.deepcopy({
            "seed": self.seed, "game": rules.snapshot(self.state), "events": list(rules.events(self.state)),
            "decided": {str(p): d.model_dump(mode="json") for p, d in self.decided.items()},
            "waiting": [r.model_dump(mode="json") for r in self.waiting], "tries": dict(self.tries),
            "errors": {str(p): e for p, e in self.errors.items()}, "invalid": dict(self.invalid),
            "fallbacks": dict(self.fallbacks), "steps": self.steps,
            "opponents": {"kinds": self.opponents.kinds, "seats": self.opponents.seats,
                          "memory": self.opponents.memory, "delivered": self.opponents.delivered,
                          "calls": self.opponents.calls}})

    @classmethod
    def restore(cls, config: EnvConfig, snapshot: dict[str, Any]) -> EnvGame:
        """The game of ``snapshot`` (`snapshot`), under ``config``.

        Raises:
            ConfigurationError: the snapshot is not of this configuration's game.
        """
        data = copy.deepcopy(snapshot)
        rules = config.rules
        try:
            state = rules.restore(data["game"], data["events"])
        except (KeyError, TypeError, ValueError) as error:
            raise ConfigurationError(f"not a snapshot of a {config.game} environment: {error}") from error
        o = data["opponents"]
        opponents = Opponents(kinds=o["kinds"], seats=o["seats"], seed=data["seed"], memory=o["memory"],
                              delivered=o["delivered"], calls=o["calls"])
        return cls(config=config, seed=data["seed"], state=state, opponents=opponents,
                   decided={int(p): Decision.model_validate(d) for p, d in data["decided"].items()},
                   waiting=[Request.model_validate(r) for r in data["waiting"]], tries=Counter(data["tries"]),
                   errors={int(p): e for p, e in data["errors"].items()},
                   invalid=Counter({int(p): n for p, n in data["invalid"].items()}),
                   fallbacks=Counter({int(p): n for p, n in data["fallbacks"].items()}), steps=data["steps"])
