"""The games a web server runs: each in a thread of its own, people answering in the browser.

A `GameHost` drives one game through the same `roundtable.play.runner.GameRunner` as the CLI (the data
directory's checkpointer, its records), with a `Person` that, instead of a terminal, publishes the questions
of the human seats and waits for their answers from the browser (`GameHost.answer`). Agents' turns run in the
game's thread as they do in ``roundtable play``. Each change (new events, a question asked or answered, the
game's end) raises the host's ``version``, which the pages' sockets watch.

`Tables` holds the hosts of one server: it creates games, and on start resumes every unfinished game created in
the browser from its last checkpoint (a question pending when the server stopped is asked again).
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, Literal

from roundtable.agents.human import decision_from_answer
from roundtable.agents.registry import AGENT_KINDS
from roundtable.games.protocol import Event, Request
from roundtable.play.new_game import NewGame
from roundtable.play.runner import GameRunner, game_of, new_game_id, open_runner
from roundtable.prompts.narrator import narrate_or_plain, variants_of
from roundtable.store.records import read_record
from roundtable.web.links import TableLinks, create_links, read_links, served_games

log = logging.getLogger(__name__)

Status = Literal["starting", "playing", "finished", "stopped", "failed"]
"""A hosted game's state: its thread starting, playing (agents' turns or waiting for a person), over, stopped
with the server (resumable), or stopped by an error (resumable; the message is kept)."""


class Closing(Exception):
    """The server closes while a person is asked: the game stops at its checkpoint, the question pending."""


class LateAnswer(Exception):
    """An answer to a question that is not (or no longer) asked of this seat."""


@dataclass(frozen=True)
class HostState:
    """What a host holds at one moment (copies): ``version``, ``status``, ``error``, the log ``events`` so far and
    the ``questions`` waiting (``{player: interrupt payload}``, `roundtable.agents.human.question`), and ``lines``."""

    version: int
    status: Status
    error: str | None
    events: tuple[Event, ...]
    questions: dict[int, dict[str, Any]]
    lines: tuple[str | None, ...] = ()
    """The narrator's line of each entry of ``events`` as the transcript tells it (``None``: none)."""


class GameHost:
    """One game served in the browser.

    Args:
        game_id: the game's id. game: its game's name. players: its player count.
    """

    def __init__(self, game_id: str, game: str, players: int) -> None:
        self.game_id, self.game, self.players = game_id, game, players
        self._changed = threading.Condition()
        self._events: list[Event] = []
        self._lines: list[str | None] = []
        self._asked: dict[str, dict[str, Any]] = {}
        self._answers: dict[str, dict[str, Any]] = {}
        self._given: set[str] = set()
        self._version = 0
        self._status: Status = "starting"
        self._error: str | None = None
        self._closing = False
        self._runner: GameRunner | None = None
        self._thread: threading.Thread | None = None

    # ------------------------------------------------------------ reading

    def state(self) -> HostState:
        """A copy of what the host holds now."""
        with self._changed:
            questions = {int(q["player"]): q for q in self._asked.values() if q["request"]["id"] not in self._answers}
            if len(self._lines) < len(self._events):  # each entry narrated once, however many pages read it
                variants = variants_of(self._events)
                self._lines += [narrate_or_plain(self.game, e, None, variants)
                                for e in self._events[len(self._lines):]]
            return HostState(self._version, self._status, self._error, tuple(self._events), questions,
                             tuple(self._lines))

    @property
    def version(self) -> int:
        """A number that changes whenever what the host holds changes."""
        return self._version

    # ------------------------------------------------------------ playing

    def start(self, made: NewGame | None = None) -> None:
        """Play the game in a thread of its own: ``made`` a new game's inputs, ``None`` to resume it."""
        self._thread = threading.Thread(target=self._run, args=(made,), name=f"game {self.game_id}", daemon=True)
        self._thread.start()

    def load(self, events: list[Event], status: Status) -> None:
        """Hold a game that is not run here (finished): its log and status."""
        with self._changed:
            self._events, self._lines, self._status = list(events), [], status
            self._bump()

    def _run(self, made: NewGame | None) -> None:
        try:
            with open_runner(self.game) as runner:
                self._runner = runner
                if runner.exists(self.game_id):
                    self.load(list(runner.values(self.game_id).get("events") or []), "playing")
                else:
                    self._set_status("playing")
                if made is not None:
                    runner.start(self.game_id, made.inputs, context=made.context or None, on_events=self._add,
                                 person=self._person)
                else:
                    runner.resume(self.game_id, on_events=self._add, person=self._person)
                self._set_status("finished" if runner.is_finished(self.game_id) else "stopped")
        except Closing:
            self._set_status("stopped")
        except Exception as error:  # kept and shown: the game resumes from its checkpoint on the next start
            log.exception("game %s stopped by an error", self.game_id)
            self._set_status("failed", f"{type(error).__name__}: {error}")

    def _bump(self) -> None:
        self._version += 1
        self._changed.notify_all()

    def _set_status(self, status: Status, error: str | None = None) -> None:
        with self._changed:
            self._status, self._error = status, error
            self._bump()

    def _add(self, events: list[Event]) -> None:
        with self._changed:
            self._events.extend(events)
            self._bump()

    def _person(self, question: dict[str, Any]) -> dict[str, Any]:
        """The runner's `Person`: publish every question the game waits for, wait for this one's answer."""
        waiting = self._runner.questions(self.game_id) if self._runner is not None else []
        request_id = question["request"]["id"]
        with self._changed:
            for other in waiting:  # the run's pending questions, but those answered in this round already
                if other["request"]["id"] not in self._given:
                    self._asked.setdefault(other["request"]["id"], other)
            self._asked[request_id] = question
            self._bump()
            self._changed.wait_for(lambda: request_id in self._answers or self._closing)
            if request_id not in self._answers:
                raise Closing(self.game_id)
            answer = self._answers.pop(request_id)
            del self._asked[request_id]
            self._given.add(request_id)
            self._bump()
            return answer

    def answer(self, player: int, request_id: str, answer: Any) -> None:
        """Give seat ``player``'s answer to the question ``request_id``.

        Raises:
            LateAnswer: the seat is not asked that question now (answered already, or the game moved on).
            AnswerError: the answer does not answer it (the message says what would).
        """
        with self._changed:
            asked = self._asked.get(request_id)
            if asked is None or int(asked["player"]) != player or request_id in self._answers:
                raise LateAnswer("this question is no longer asked; the page shows what is asked now")
            decision_from_answer(Request.model_validate(asked["request"]), answer)
            self._answers[request_id] = answer
            self._bump()

    def close(self, timeout: float = 10.0) -> None:
        """Stop the game's thread at its checkpoint (a pending question stays pending; agents' turns under way
        finish first, up to ``timeout`` seconds)."""
        with self._changed:
            self._closing = True
            self._changed.notify_all()
        if self._thread is not None:
            self._thread.join(timeout)


class Tables:
    """The games one server hosts, by id."""

    def __init__(self) -> None:
        self._hosts: dict[str, GameHost] = {}
        self._lock = threading.Lock()

    def create(self, made: NewGame) -> TableLinks:
        """Start a new game from checked inputs; its links (a token per human seat, one for spectators).

        Raises:
            OSError: the links cannot be written to the data directory.
        """
        seats = made.inputs["seats"]
        humans = [p for p, seat in enumerate(seats, start=1) if AGENT_KINDS[seat["kind"]].asks_person]
        game_id = new_game_id(made.game)
        links = create_links(game_id, humans)
        host = GameHost(game_id, made.game, len(seats))
        with self._lock:
            self._hosts[game_id] = host
        host.start(made)
        return links

    def resume_all(self) -> list[str]:
        """Host every game created in the browser in this data directory: resume the unfinished ones from
        their checkpoints, hold the finished ones for viewing. Returns the ids resumed."""
        resumed = []
        for game_id in served_games():
            if game_id in self._hosts:
                continue
            record = read_record(game_id) or {}
            game = game_of(game_id)
            host = GameHost(game_id, game, len(record.get("seats") or []))
            with self._lock:
                self._hosts[game_id] = host
            if record.get("status") == "finished":
                host.load(list(record.get("events") or []), "finished")
            else:  # shown from its record at once; its thread reads its checkpoint, the authority, and goes on
                host.load(list(record.get("events") or []), "starting")
                host.start(None)
                resumed.append(game_id)
        return resumed

    def add(self, host: GameHost) -> None:
        """Host a game whose links exist already (`roundtable.web.links.create_links`), as it stands."""
        with self._lock:
            self._hosts[host.game_id] = host

    def get(self, game_id: str) -> tuple[GameHost, TableLinks] | None:
        """The host and links of a game created in the browser, or ``None``."""
        host = self._hosts.get(game_id)
        links = read_links(game_id) if host is not None else None
        return (host, links) if host is not None and links is not None else None

    def __iter__(self) -> Iterator[GameHost]:
        return iter(list(self._hosts.values()))

    def close(self) -> None:
        """Stop every game's thread at its checkpoint."""
        for host in self:
            host.close()

