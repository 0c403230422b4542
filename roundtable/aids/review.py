"""An agent's check of its own words before it says them, for every kind that speaks (docs/agents/checks.md).

No model call. The words, as the table would hear them (after `clean_words` drops lines posing as the
Host), are checked against what the player has heard, what it thought and what it chose, with the text
heuristics of `roundtable.detectors.words`:

- **near copy** (``copy``): more than half of their word 4-grams repeat one utterance the player heard (another
  player's or its own), or one of its own private thoughts (a reflection, an analysis, a plan, a chain of
  thought: `Decision.thoughts`) said aloud;
- **words and action disagree** (``team``): a speaker choosing several players (an Avalon leader, a speaker
  suggesting a team) names another team of that size in its words; a werewolf voting at night with words to its
  teammates (``werewolf_night=sequential``) names another player to kill than its vote, or passes
  (`roundtable.detectors.words.named_kill_target`); a Werewolf day statement says its speaker will vote out
  itself, a dead player, its fellow werewolf or a player its Seer's check found good (`vote_against_knowledge`);
  an Avalon speaker states a stance on the team on the table against the vote its own knowledge or the rules
  settle (`stance_against`);
- **a tactic said aloud** (``tactic``): in public, a sentence stating the speaker's own tactic ("I will draw
  suspicion by hinting that I am Merlin", "I will not reveal my identity":
  `roundtable.detectors.words.stated_tactic`), its private plan read out;
- **self-exposure** (``exposure``): in public, words that give the speaker away (`exposure_of`).

On a problem the words are asked for once more with the Host's note (template ``checks/words_note``, a field
of each kind's context), the action already chosen kept; the second answer is kept whatever it says (`ask_again`),
or, with ``drop`` (the seat's ``drop_sentences``), loses the sentences that still fail a check (`clean_sentences`).
Each check that fired is named in `Decision.checks` (``"near copy of Player 3: asked again"``, ``"...: kept
after asking again"``), so `roundtable.metrics.play_quality.agent_checks` counts them.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from roundtable.aids.asking import ask_again
from roundtable.aids.cleaning import clean_words
from roundtable.aids.games import game_aids
from roundtable.aids.holders import hidden_holders
from roundtable.aids.settled import Settled
from roundtable.detectors.exposure import sentences
from roundtable.detectors.words import (
    copies,
    named_kill_target,
    named_team,
    repeats_thought,
    stated_stance,
    stated_tactic,
)
from roundtable.games.protocol import PlayerView, Request
from roundtable.prompts.rendering import PromptContext

OWN_THOUGHTS = "own thoughts"
"""What a near copy of the speaker's own private thoughts is "of" (``"near copy of own thoughts"``)."""
NOTE = "checks/words_note"
"""The template of the Host's note when words are asked for again."""
STANCE_WORDS = "checks/stance_words"
"""The template of the words said in place of a sentence whose stance goes against the settled vote."""
TRUST_WORDS = "checks/trust_words"
"""The template of the words said in place of a sentence that named whom the speaker takes for Merlin or the Seer."""
TEAM_WORDS = "checks/team_words"
"""The template of the words an Avalon leader's final word says in place of a near copy of its own first words."""

_SPOKEN = re.compile(r"^Player (\d+)(?: \((?:you|last words)\))*: (.+)$", re.DOTALL)


def heard_lines(lines: Iterable[str]) -> list[tuple[str, str]]:
    """The utterances among memory lines written ``"Player 3: words"`` (``"Player 3 (you): ..."`` for the player's
    own, ``"Player 3 (last words): ..."``), as ``[("Player 3", "words"), ...]``; other lines are left out."""
    out = []
    for line in lines:
        match = _SPOKEN.match(line.strip())
        if match:
            out.append((f"Player {match.group(1)}", match.group(2)))
    return out


def copied_source(words: str, heard: Iterable[tuple[str, str]], thoughts: Iterable[str]) -> str | None:
    """What ``words`` nearly copy: the speaker (``"Player 3"``) of the first utterance heard that they copy
    (`roundtable.detectors.words.copies`), else `OWN_THOUGHTS` for a thought they read out
    (`roundtable.detectors.words.repeats_thought`); None when neither."""
    for speaker, text in heard:
        if copies(words, text):
            return speaker
    if any(repeats_thought(words, thought) for thought in thoughts if thought):
        return OWN_THOUGHTS
    return None


def other_team(request: Request, words: str, players: Sequence[int] | None) -> tuple[int, ...]:
    """The team of ``len(players)`` players that ``words`` name when it is not the players chosen (``()``: none, or
    the same team); only for a request whose answer chooses several players and wants words with it."""
    if not players or len(players) < 2 or request.answer != "pick" or not request.wants_words:
        return ()
    named = named_team(words, len(players))
    return named if named is not None and set(named) != set(players) else ()


def other_kill(request: Request, words: str, players: Sequence[int] | None) -> tuple[int, ...]:
    """The player ``words`` say to kill when the vote ``players`` names another or nobody (``()``: none named, or
    the same); only for a night kill vote that wants words (``werewolf_night=sequential``)."""
    if request.kind != "kill" or request.answer != "pick" or not request.wants_words:
        return ()
    named = named_kill_target(words)
    return (named,) if named is not None and tuple(players or ()) != (named,) else ()


def exposure_of(view: PlayerView, words: str, heard: Iterable[tuple[str, str]] = ()) -> str | None:
    """Why public ``words`` give their speaker away, by the view's game's aids
    (`roundtable.aids.games.GameAids.exposure`: Avalon's `roundtable.aids.avalon.exposure`, Werewolf's
    `roundtable.aids.werewolf.exposure`), or None (a game with no such aid: None). Naming a player who claimed
    that role at the table in what the speaker ``heard`` (``(speaker, text)``: `heard_lines`) gives nothing away."""
    return game_aids(view.game).exposure(view, words, list(heard))


def stance_against(view: PlayerView, request: Request, words: str) -> tuple[bool, Settled] | None:
    """The stance ``words`` state on what is on the table and the settled decision it goes against, by the view's
    game's aids (`roundtable.aids.games.GameAids.stance`: Avalon's `roundtable.aids.avalon.stance_against`), or
    None."""
    return game_aids(view.game).stance(view, request, words)


def vote_against_knowledge(view: PlayerView, request: Request, words: str,
                           checked: Mapping[int, bool] | None = None) -> tuple[int, str] | None:
    """The player the words say the speaker will vote out and why its own knowledge rules that out, by the view's
    game's aids (`roundtable.aids.games.GameAids.vote_out`: Werewolf's
    `roundtable.aids.werewolf.vote_against_knowledge`), or None. ``checked``: the player's private results."""
    return game_aids(view.game).vote_out(view, request, words, checked)


@dataclass(frozen=True)
class Review:
    """What the words check found.

    Attributes:
        reasons: one line per problem, as `Decision.checks` names it (without ``: asked again``).
        copied: the speaker the words copy (``"Player 3"``), `OWN_THOUGHTS`, or None.
        named: the other team the words name, or the one player a night kill vote's words name (``()``: none).
        team: the players chosen. exposure: why the words give the speaker away, or None.
        kill: ``named`` is a night kill's target, not a team.
        tactic: the sentence stating the speaker's own tactic, or None.
        vote_out: the player a Werewolf day statement says its speaker will vote out and why its knowledge rules
            that out (`vote_against_knowledge`: ``self``, ``dead``, ``teammate``, ``checked_good``), or None.
        stance: the stance the words state and the settled vote it goes against (`stance_against`), or None.
    """

    reasons: tuple[str, ...]
    copied: str | None = None
    named: tuple[int, ...] = ()
    team: tuple[int, ...] = ()
    exposure: str | None = None
    kill: bool = False
    tactic: str | None = None
    vote_out: tuple[int, str] | None = None
    stance: tuple[bool, Settled] | None = None

    def note(self, context: PromptContext, view: PlayerView) -> str:
        """The Host's note asking for the words again (template `NOTE`, rendered through the kind's context)."""
        said, settled = self.stance if self.stance is not None else (None, None)
        return context.render(NOTE, copied=self.copied if self.copied != OWN_THOUGHTS else None,
                              yourself=self.copied == f"Player {view.player}", thoughts=self.copied == OWN_THOUGHTS,
                              named=list(self.named), team=list(self.team), kill=self.kill,
                              exposure=self.exposure, tactic=self.tactic is not None,
                              vote_out=self.vote_out[0] if self.vote_out else None,
                              vote_reason=self.vote_out[1] if self.vote_out else None,
                              stance=said, reason=settled.reason if settled else None,
                              players=list(settled.players) if settled else [],
                              side=view.side, game=view.game, teams=game_aids(view.game).proposes_teams,
                              me=view.player)


def review_words(view: PlayerView, request: Request, words: str | None, players: Sequence[int] | None, *,
                 heard: Iterable[tuple[str, str]], thoughts: Iterable[str], checks: Collection[str],
                 response_words: int, checked: Mapping[int, bool] | None = None) -> Review | None:
    """Check the words the player is about to say, or None when all is well (or there are none).

    Args:
        view: the speaker's view.
        request: the request answered.
        words: the words read from the reply (None or empty: nothing to check).
        players: the players chosen for a ``pick`` request, when any.
        heard: the utterances the player heard, ``(speaker, text)`` (its own included: `heard_lines`).
        thoughts: the player's own private texts behind this decision (its notes, reflection, reasoning).
        checks: the checks that run (``copy``, ``tactic``, ``team``, ``exposure``: `CheckOptions.word_checks`).
        response_words: the words' cap (the table hears at most that many).
        checked: a Werewolf Seer's own checks (player: werewolf; None: none), which rule out the players its
            words may say it will vote out (`vote_against_knowledge`).
    """
    said, _ = clean_words(words, view.player, response_words)  # what the table would hear
    if not said:
        return None
    heard = list(heard)
    reasons: list[str] = []
    copied = copied_source(said, heard, thoughts) if "copy" in checks else None
    if copied:
        reasons.append(f"near copy of {copied}")
    named = other_team(request, said, players) if "team" in checks else ()
    kill = False
    if named:
        reasons.append(f"words name players {', '.join(map(str, named))}, team is {', '.join(map(str, players or ()))}")
    elif "team" in checks and (named := other_kill(request, said, players)):
        kill = True
        chosen = f"player {players[0]}" if players else "nobody"
        reasons.append(f"words name player {named[0]} to kill, the vote names {chosen}")
    vote_out = vote_against_knowledge(view, request, said, checked) if "team" in checks else None
    if vote_out:
        reasons.append("words vote out the speaker" if vote_out[1] == "self"
                       else f"words vote out player {vote_out[0]} ({vote_out[1]})")
    stance = stance_against(view, request, said) if "team" in checks and request.audience is None else None
    if stance:
        reasons.append(f"stance against {stance[1].source}: words {'support' if stance[0] else 'reject'} the team "
                       f"({stance[1].reason})")
    tactic = stated_tactic(said) if "tactic" in checks and request.audience is None else None
    if tactic:
        reasons.append("tactic said aloud")
    exposure = exposure_of(view, said, heard) if "exposure" in checks and request.audience is None else None
    if exposure:
        reasons.append(f"words expose the speaker ({exposure})")
    if not reasons:
        return None
    return Review(tuple(reasons), copied, named, tuple(players or ()), exposure, kill, tactic, vote_out, stance)


def kept_stance(view: PlayerView, request: Request, sentence: str, found: Review) -> bool | None:
    """The stance on the team on the table that a sentence failing a check leaves to be said (True: support): the
    settled vote when the sentence's stance went against it (`Review.stance`), else the stance the sentence
    states (`roundtable.detectors.words.stated_stance`) on an Avalon speaker's turn while a team is proposed;
    None when it states none."""
    if found.stance is not None:
        return bool(found.stance[1].approve)
    if not game_aids(view.game).states_stance(view, request):
        return None
    return stated_stance(sentence)


NAMED_ROLES = {"names merlin": "merlin", "names seer": "seer"}
"""The role each exposure of another player's hidden role names (`exposure_of`)."""


def kept_trust(view: PlayerView, sentence: str, found: Review, heard: Iterable[tuple[str, str]]) -> tuple[int, ...]:
    """The players a sentence failing a check for naming whom the speaker takes for Merlin or the Seer
    (``names merlin``, ``names seer``: `exposure_of`) leaves the speaker trusting aloud: those it named as holding
    the role (`hidden_holders`), in order; ``()`` for any other fault. "I think Player 2 is the Seer." names whom the
    werewolves should kill; "I trust Player 2." says the same confidence without the role."""
    role = NAMED_ROLES.get(found.exposure or "")
    leader = game_aids(view.game).leader(view)
    return hidden_holders(sentence, role, view.player, heard, leader) if role else ()


def clean_sentences(view: PlayerView, request: Request, words: str, players: Sequence[int] | None, *,
                    heard: Iterable[tuple[str, str]], thoughts: Iterable[str], checks: Collection[str],
                    response_words: int, checked: Mapping[int, bool] | None = None,
                    stance_words: Callable[[bool], str] | None = None,
                    trust_words: Callable[[Sequence[int]], str] | None = None) -> str:
    """``words`` without the sentences that fail a check, ``""`` when none is left.

    Each sentence is checked (`review_words`), then what is left together. The arguments are `review_words`'s, and:

    - ``stance_words``: the words of a stance on the team on the table (``stance_words(approve)``); given, a
      dropped sentence that stated a stance (`roundtable.detectors.words.stated_stance`: "I support it because
      Player 6 is Merlin.") leaves that stance said in those words, or the settled vote's when the stance went
      against it (`stance_against`), once: the stance is the speaker's to state, its reason is what gave it away;
    - ``trust_words``: the words trusting players (``trust_words([6])``); given, a dropped sentence that named whom
      the speaker takes for Merlin or the Seer leaves it trusting them (`kept_trust`), once, after the stance.
    """
    heard, thoughts = list(heard), list(thoughts)
    said, _ = clean_words(words, view.player, response_words)
    kept: list[str] = []
    for sentence in sentences(said or ""):
        found = review_words(view, request, sentence, players, heard=heard, thoughts=thoughts, checks=checks,
                             response_words=response_words, checked=checked)
        if found is None:
            kept.append(sentence)
            continue
        said_instead = []
        if stance_words is not None and (stance := kept_stance(view, request, sentence, found)) is not None:
            said_instead.append(stance_words(stance))
        if trust_words is not None and (trusted := kept_trust(view, sentence, found, heard)):
            said_instead.append(trust_words(trusted))
        kept += [stated for stated in said_instead if stated not in kept]
    left = " ".join(kept)
    if left and review_words(view, request, left, players, heard=heard, thoughts=thoughts, checks=checks,
                             response_words=response_words, checked=checked) is not None:
        return ""
    return left


def restates_team(view: PlayerView, request: Request, found: Review, players: Sequence[int] | None) -> bool:
    """Whether the only fault `review_words` found is a near copy of the speaker's own words at an Avalon leader's
    final word on its team (``details["final"]``): the leader saying its team again, which the table hears as a
    decision rather than parroting, but which the measure would count (docs/agents/checks.md#dropping-sentences)."""
    return (bool(players) and bool(request.details.get("final")) and len(found.reasons) == 1
            and found.copied == f"Player {view.player}")


def words_update(context: PromptContext, view: PlayerView, request: Request, words: str | None,
                 players: Sequence[int] | None, *, heard: Iterable[tuple[str, str]], thoughts: Iterable[str],
                 checks: Collection[str], response_words: int, reviewed: bool, drop: bool = False,
                 checked: Mapping[int, bool] | None = None) -> dict[str, Any]:
    """`review_words` and `ask_again` in one: the state update of a step that wrote words said at the table.

    The arguments are `review_words`'s, and: ``context``, the kind's prompt context (the note's template);
    ``reviewed``, the words are already the second answer; ``drop``, on a second answer that still fails a check,
    drop its failing sentences (`clean_sentences`), and on a first answer whose only fault is a stance against
    the settled vote, say that sentence as the vote at once, with no second call (as ``overrule`` does a vote),
    and on a leader's final word that only copies its own first words, say the team anew (`restates_team`).

    Returns:
        As `ask_again`; when asking again, ``copied`` says whether the words were a near copy (words asked
        again after one are sampled warmer: `roundtable.aids.sampling.speech_temperature`). With
        ``drop``, a second answer that still fails has ``utterance`` (what is left, a sentence that only went
        against the settled vote said as that vote instead, template `STANCE_WORDS`, and one that named whom the
        speaker takes for Merlin or the Seer as its trust in them, template `TRUST_WORDS`; ``""``: nothing, the game's
        plain words are said) and checks ``...: sentences dropped``; a first answer with a stance only, ``...:
        overruled``; a leader's final word that only copies its own first words (`restates_team`), the team said
        anew (template `TEAM_WORDS`) and ``...: restated``.
    """
    heard, thoughts = list(heard), list(thoughts)
    found = review_words(view, request, words, players, heard=heard, thoughts=thoughts, checks=checks,
                         response_words=response_words, checked=checked)
    if found is None:
        return ask_again((), str, reviewed)
    if drop and words and not reviewed and restates_team(view, request, found, players):
        said = context.render(TEAM_WORDS, players=sorted(players or ()), quest=request.round,
                              same=set(players or ()) == set(request.subject)).strip()
        return {"recheck": None, "utterance": said, "checks": [f"{found.reasons[0]}: restated"]}
    stance_only = found.stance is not None and len(found.reasons) == 1
    if drop and words and (reviewed or stance_only):
        left = clean_sentences(view, request, words, players, heard=heard, thoughts=thoughts, checks=checks,
                               response_words=response_words, checked=checked,
                               stance_words=lambda approve: context.render(STANCE_WORDS, approve=approve).strip(),
                               trust_words=lambda trusted: context.render(TRUST_WORDS, players=list(trusted)).strip())
        ending = "sentences dropped" if reviewed else "overruled"
        return {"recheck": None, "utterance": left, "checks": [f"{reason}: {ending}" for reason in found.reasons]}
    return ask_again(found.reasons, lambda: found.note(context, view), reviewed, copied=found.copied is not None)
