"""Experience learning between the games of an experiment (Lan et al. 2024, docs/agents/lga.md#experience-learning).

After each finished game of a condition with ``[conditions.learning]``, every
learning ``lga`` seat (of a *learner*, named within the condition's
store; with ``identity = "seat"`` the seat's number, by default the seat's model
spec, since roles are dealt anew each game; two learners never share what they
learn) reflects on the game:

- *own role* (off with ``own_strategy = false``, the IS ablation): three
  suggestions from its round summary, the board, the roles, the result, its
  strategy and its earlier suggestions, naming roles and never player numbers
  (template ``lga/learning/suggestions``); then its strategy rewritten in at
  most two sentences (``lga/learning/strategy``);
- *other roles* (off with ``other_roles = false``, the AO ablation): for each
  other role in the game, at most 100 words on how it played, merged with the
  earlier description (``lga/learning/other_role``).

What it learned is kept per learner and role in a LangGraph store on SQLite
(``learning.sqlite`` in the experiment directory; namespace ``("lga", store,
learner)``, key the role) and loaded into the seat's options (``strategy``,
``role_notes``: `roundtable.agents.lga.options.LgaOptions`) when its next game
starts, so the role card carries it. ``strategy = false`` turns learning off;
``frozen = true`` loads what was learned and writes nothing (evaluation
games). A game is learned from once: its id is kept in the store's item, so a
run killed after learning and rerun does not learn twice.
"""

from __future__ import annotations

import hashlib
import threading
from pathlib import Path
from typing import Any

from langchain_core.messages import HumanMessage
from langgraph.store.sqlite import SqliteStore

from roundtable.agents.common.model_calls import FactoryModels, call_text
from roundtable.experiments.config import LearningSpec, PlannedGame
from roundtable.games import GAMES
from roundtable.games.protocol import Request
from roundtable.prompts.registry import render
from roundtable.prompts.rendering import TemplateContext
from roundtable.tables.protocol import TableSettings, game_table

STORE_FILE = "learning.sqlite"
TEMPERATURE = 0.3
"""Lan et al.'s sampling temperature for agent modules (docs/agents/lga.md#sampling)."""
MAX_TOKENS = 200

_lock = threading.Lock()


def _namespace(spec: LearningSpec, game: PlannedGame, seat: int) -> tuple[str, ...]:
    """The learner's namespace: ``("lga", store, "seat<N>")`` or ``("lga", store, "model:<spec>")``."""
    if spec.identity == "seat":
        return ("lga", spec.store or game.condition, f"seat{seat}")
    model = str(game.inputs["seats"][seat - 1].get("model"))
    digest = hashlib.sha1(model.encode()).hexdigest()[:8]  # store labels may not hold '.'
    return ("lga", spec.store or game.condition, f"model:{model.replace('.', '_')}:{digest}")


def _dealt(game: PlannedGame) -> Any:
    """The game's state as its seed deals it."""
    rules = GAMES[game.game]
    return rules.new_game(rules.config(game.inputs["config"]), game.seed)


def _seats(game: PlannedGame) -> list[tuple[str, str]]:
    """The ``(role, side)`` the game's seed deals, players 1..N."""
    return GAMES[game.game].seats(_dealt(game))


def _roles(game: PlannedGame) -> list[str]:
    """The roles the game's seed deals, players 1..N."""
    return [role for role, _ in _seats(game)]


def role_card(game: PlannedGame, seat: int, strategy: str) -> str:
    """The role card of ``seat`` as the game's table writes it with the aids' initial strategies
    (`roundtable.tables.protocol.GameTable.role_card`; Avalon's ``aids/avalon/roles/<role>``), ``strategy`` on it
    (``""``: the card's initial one), for the reflection on a finished game."""
    state = _dealt(game)
    rules = GAMES[game.game]
    request = Request(id="learning", kind="learning", player=seat, phase=rules.phase(state), round=0,
                      answer="words")
    return game_table(rules.view(state, seat), request, TemplateContext(),
                      TableSettings(aids=True, strategy=strategy)).role_card()


def learners(game: PlannedGame) -> list[int]:
    """The seats of ``game`` that learn: ``lga`` seats of the sides `LearningSpec.learners` names."""
    spec = game.learning
    if spec is None or not spec.strategy:
        return []
    seats = [p for p, seat in enumerate(game.inputs["seats"], start=1) if seat["kind"] == "lga"]
    if not seats:  # no lga seat (a Werewolf series, or cga seats learning from an experience pool): no roles read
        return []
    sides = [side for _, side in _seats(game)]
    return [p for p in seats if spec.learners in ("all", sides[p - 1])]


class Learning:
    """The learning store of one experiment directory and the model provider its reflections call.

    Args:
        directory: the experiment directory (the store is ``learning.sqlite`` there).
        models: a `roundtable.agents.common.model_calls.ModelProvider` (default: the model factory).
    """

    def __init__(self, directory: Path, models: Any = None):
        self.path = directory / STORE_FILE
        self.models = models or FactoryModels()

    def _store(self) -> Any:
        return SqliteStore.from_conn_string(str(self.path))

    def read(self, namespace: tuple[str, ...], role: str) -> dict[str, Any]:
        """What the learner ``namespace`` learned for ``role`` (``{}`` when nothing yet)."""
        with _lock, self._store() as store:
            store.setup()
            item = store.get(namespace, role)
            return dict(item.value) if item else {}

    def _write(self, namespace: tuple[str, ...], role: str, value: dict[str, Any]) -> None:
        with _lock, self._store() as store:
            store.setup()
            store.put(namespace, role, value)

    def export(self) -> list[dict[str, Any]]:
        """Everything learned in this directory, to keep beside its finished games (an experiment directory
        stays out of git, docs/reproductions/index.md): ``[{"namespace": [str, ...], "key": role, "value":
        {...}}]`` in namespace and key order; ``[]`` when nothing was learned yet."""
        if not self.path.is_file():
            return []
        with _lock, self._store() as store:
            store.setup()
            items = store.search(("lga",), limit=100_000)
        return sorted(({"namespace": list(item.namespace), "key": item.key, "value": dict(item.value)}
                       for item in items), key=lambda item: (item["namespace"], item["key"]))

    def restore(self, items: list[dict[str, Any]]) -> int:
        """Put back what `export` wrote, learner by learner: an item already in this store is kept (what a
        learner learned here is never replaced by an older copy); the number put back.

        Raises:
            ValueError: an item without a namespace, key or value.
        """
        restored = 0
        for item in items:
            try:
                namespace, key, value = tuple(item["namespace"]), str(item["key"]), dict(item["value"])
            except (KeyError, TypeError, ValueError) as error:
                raise ValueError(f"not a learned item: {item!r}") from error
            if not self.read(namespace, key):
                self._write(namespace, key, value)
                restored += 1
        return restored

    def before_game(self, game: PlannedGame) -> dict[str, Any]:
        """The game's inputs with each learner's learned strategy and other-role notes in its seat options.

        Returns:
            ``game.inputs`` (a copy where learners' options changed).
        """
        if game.learning is None or not self.path.is_file():
            return game.inputs
        roles = _roles(game)
        seats = [dict(seat, options=dict(seat.get("options") or {})) for seat in game.inputs["seats"]]
        for seat in learners(game):
            learned = self.read(_namespace(game.learning, game, seat), roles[seat - 1])
            if learned.get("strategy") and game.learning.own_strategy:
                seats[seat - 1]["options"]["strategy"] = learned["strategy"]
            notes = learned.get("roles") or {}
            if notes and game.learning.other_roles:
                seats[seat - 1]["options"]["role_notes"] = " ".join(
                    f"{GAMES[game.game].role_title(r)}: {text}" for r, text in sorted(notes.items()))[:4000]
        return {**game.inputs, "seats": seats}

    def after_game(self, game: PlannedGame, record: dict[str, Any], values: dict[str, Any]) -> None:
        """Let each learner of the finished ``game`` reflect on it and store what it learned (see the module
        docstring); nothing when the condition does not learn or is frozen, or the game was learned from.

        Raises:
            roundtable.models.errors.ModelError: a reflection's model call failed (the game stays finished;
                the series stops there and the next run learns from it before going on).
        """
        spec = game.learning
        seats = learners(game)
        if spec is None or spec.frozen or not seats:
            return
        roles = [record["roles"][str(p)] for p in range(1, len(record["roles"]) + 1)]
        title_of = GAMES[game.game].role_title
        roles_text = ", ".join(f"player {p} {title_of(r)}" for p, r in enumerate(roles, start=1))
        outcome = f"{record.get('winner')} won ({str(record.get('end_reason')).replace('_', ' ')})"
        for seat in seats:
            role = roles[seat - 1]
            namespace = _namespace(spec, game, seat)
            learned = self.read(namespace, role)
            if game.game_id in (learned.get("games") or []):
                continue
            model = record["seats"][seat - 1].get("model")
            memory = (values.get("memory") or {}).get(str(seat)) or {}
            summary = " ".join([str(memory.get("summary") or ""), *[str(b) for b in memory.get("board") or []]]).strip()
            title = title_of(role)
            strategy = learned.get("strategy") or (record["seats"][seat - 1].get("options") or {}).get("strategy") or ""
            common = {"role_title": title, "roles_text": roles_text, "summary": summary or "(no summary)",
                      "outcome": outcome}
            if spec.own_strategy:
                card = role_card(game, seat, strategy)
                prompt = render("lga/learning/suggestions", role_card=card,
                                strategy=strategy or "(the initial one above)",
                                suggestions=learned.get("suggestions") or "", **common)
                suggestions = self._ask(model, prompt, "suggestions")
                learned["suggestions"] = suggestions
                learned["strategy"] = self._ask(model, render("lga/learning/strategy", role_title=title,
                                                              strategy=strategy or "(the initial one)",
                                                              suggestions=suggestions), "strategy")
            if spec.other_roles:
                notes = dict(learned.get("roles") or {})
                for other in sorted(set(roles) - {role}):
                    notes[other] = self._ask(model, render("lga/learning/other_role", other_title=title_of(other),
                                                           previous=notes.get(other, ""), **common), "other_role")
                learned["roles"] = notes
            learned["games"] = [*(learned.get("games") or []), game.game_id]
            self._write(namespace, role, learned)

    def _ask(self, model: str | None, prompt: str, module: str) -> str:
        """One reflection call of ``module`` (``suggestions``, ``strategy``, ``other_role``): the reply text,
        stripped."""
        reply, _ = call_text(self.models.chat(model, TEMPERATURE, MAX_TOKENS), [HumanMessage(prompt)], module)
        return reply.strip()
