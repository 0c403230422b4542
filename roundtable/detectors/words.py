"""What agents and measures read in utterances: near copies, named teams and vote targets.

Plain text heuristics over words, no model: `copy_share` (how much of an
utterance repeats an earlier one, by word 4-grams; `joined_share` the same with
the spaces removed, for words glued together), `repeats_thought` (words
reading out the speaker's own private thoughts), `named_team` (the team an Avalon player's
words name), `named_vote_target` (whom a Werewolf statement says it votes to
eliminate) and `named_kill_target` (whom a werewolf's words to its teammates say
to kill tonight). `exposes` (an evil Avalon player giving itself away) lives in
`roundtable.detectors.exposure` with the other self-exposure checks and is
re-exported here. The aids check an agent's words with them before they are said;
`roundtable.metrics` counts them over a finished game (docs/measures.md#play-quality).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from roundtable.detectors.exposure import SUPPOSITION, sentences
from roundtable.detectors.exposure import exposes as exposes

NGRAM = 4
"""Word n-gram length of the parroting measure."""
COPY_SHARE = 0.5
"""An utterance is a copy when more than this share of its n-grams appear in one earlier utterance."""

_WORD = re.compile(r"[a-z0-9']+")
_PLAYER_LIST = re.compile(
    r"\bplayers?\s+(\d+(?:\s*(?:,|and|&|\+)\s*(?:and\s+)?(?:players?\s+)?\d+)*)", re.IGNORECASE)
_NUMBER = re.compile(r"\d+")
_TEAM_WORD = re.compile(r"\b(propos|choos|chose|pick|select|tak|send|team|go with|suggest|nam)\w*", re.IGNORECASE)


# ------------------------------------------------------------------ parroting


def words(text: str) -> list[str]:
    """The lower-case words of ``text`` (letters, digits and apostrophes)."""
    return _WORD.findall((text or "").lower())


def ngrams(tokens: Sequence[str], n: int = NGRAM) -> set[tuple[str, ...]]:
    """The set of word ``n``-grams of ``tokens`` (empty when there are fewer than ``n`` words)."""
    return {tuple(tokens[i:i + n]) for i in range(len(tokens) - n + 1)}


def copy_share(text: str, earlier: str, n: int = NGRAM) -> float:
    """The share (0..1) of ``text``'s word ``n``-grams that appear in ``earlier``.

    Utterances of fewer than ``n`` words: 1.0 when their words equal ``earlier``'s, else 0.0.
    """
    mine = words(text)
    if len(mine) < n:
        return 1.0 if mine and mine == words(earlier) else 0.0
    grams = ngrams(mine, n)
    return len(grams & ngrams(words(earlier), n)) / len(grams)


JOINED_GRAM = 20
"""Length in characters of the n-grams of `joined_share`: about four words."""
JOINED_SHARE = 0.6
"""A copy whose spaces were lost (`joined_share`) is a copy when more than this share of its character n-grams
appear in the earlier utterance; higher than `COPY_SHARE`, since overlapping character n-grams match more easily
than word ones."""
_NOT_ALNUM = re.compile(r"[^a-z0-9]+")


def joined(text: str) -> str:
    """``text`` lower-cased with everything but letters and digits removed, spaces included."""
    return _NOT_ALNUM.sub("", (text or "").lower())


def _joined_overlap(text: str, other: str, n: int = JOINED_GRAM) -> tuple[int, int]:
    """``(shared, total)``: how many of ``text``'s character ``n``-grams (`joined`) appear in ``other``'s, of how
    many."""
    mine, theirs = joined(text), joined(other)
    grams = {mine[i:i + n] for i in range(len(mine) - n + 1)}
    return len(grams & {theirs[i:i + n] for i in range(len(theirs) - n + 1)}), len(grams)


def joined_share(text: str, earlier: str, n: int = JOINED_GRAM) -> float:
    """The share (0..1) of ``text``'s character ``n``-grams, spaces and punctuation removed (`joined`), that appear
    in ``earlier`` likewise; 0.0 for a text shorter than ``n`` such characters.

    It finds copies whose words were glued together: a 1.5B model under the DRY sampler
    (`roundtable.aids.sampling`) that goes on copying a sentence escapes the penalty on each repeated
    word by writing it without its space ("The team hasone fail card (whichis a success) andtwo ..."), which
    leaves few word 4-grams in common (docs/measurements.md#dry-and-player-names)."""
    shared, total = _joined_overlap(text, earlier, n)
    return shared / total if total else 0.0


def copies(text: str, earlier: str, threshold: float = COPY_SHARE) -> bool:
    """Whether ``text`` nearly copies the utterance ``earlier``: more than ``threshold`` of its word 4-grams appear in
    it (`copy_share`), or more than `JOINED_SHARE` of its character n-grams with the spaces removed (`joined_share`:
    a copy with words glued together), and it names no number ``earlier`` does not (a player, a team), and it is
    not a bare move (`bare_move`). A formula said with other players, "I propose players 1 and 3." after "I
    propose players 1 and 5.", states a move of one's own, not another's words; the same reasoning said of another
    player shares few 4-grams anyway; and two players rejecting one team may both say "I will vote against this
    team." (docs/measures.md#play-quality)."""
    return ((copy_share(text, earlier) > threshold or joined_share(text, earlier) > JOINED_SHARE)
            and set(_NUMBER.findall(text)) <= set(_NUMBER.findall(earlier)) and not bare_move(text))


BARE_WORDS = 8
"""The most words (player references not counted) of a bare move (`bare_move`)."""
_PLAYER_TOKEN = re.compile(r"players?|\d+(?:'s)?")  # "Player 2's team": only "team" counts
_REASONED = re.compile(r"\b(?:because|since|given|due|but|though|although|so|as(?!\s+(?:the|my|a|our)\s+(?:\w+\s+)?"
                       r"team))\b", re.IGNORECASE)


_VOTE_WORD = re.compile(r"\W*(?:i\s+)?(?:approve|reject|agree|disagree|yes|no)\W*", re.IGNORECASE)
_TRUST = re.compile(r"\W*i\s+(?:still\s+|also\s+|do\s+not\s+|don't\s+)?(?:trust|suspect)\s+"
                    r"(?:players?\s+)?\d+(?:\s*(?:,|,?\s*and)\s*(?:player\s+)?\d+)*\W*", re.IGNORECASE)


def bare_move(text: str) -> bool:
    """Whether ``text`` only states its speaker's own move, as a vote said aloud: one sentence of at most `BARE_WORDS`
    words (player references, "Player 2's", not counted) with no reason given (no "because", "since", "as", "but",
    ...) that states a stance on the team on the table (`stated_stance`: "I will vote against this team."), names a
    team it proposes ("I propose players 1 and 3.", "My final team is players 1, 4 and 6."), names the player it
    votes out (`named_vote_target`: "I will vote to eliminate Player 4."), is a vote word ("I approve."), or only
    names whom it trusts or suspects ("I trust Player 2.", "I suspect Players 4 and 5.": the words
    `roundtable.aids.review.kept_trust` leaves).

    Such words are never a near copy (`copies`): the same move said in the same few words, by the rule's own
    formulas or by the model, is no parroting (docs/measures.md#play-quality). "I support it because Player 6 is
    the leader." gives a reason and stays a copy when repeated."""
    flat = " ".join((text or "").split())
    if not flat or first_sentence(flat)[1] != 1 or _REASONED.search(flat):
        return False
    if len([w for w in words(flat) if not _PLAYER_TOKEN.fullmatch(w)]) > BARE_WORDS:
        return False
    team = _PLAYER_LIST.search(flat)
    proposes = (team is not None and len(set(_NUMBER.findall(team.group(1)))) >= 2
                and _TEAM_WORD.search(flat) is not None)
    return (proposes or stated_stance(flat) is not None or named_vote_target(flat) is not None
            or _VOTE_WORD.fullmatch(flat) is not None or _TRUST.fullmatch(flat) is not None)


THOUGHT_GRAMS = 8
"""The fewest word 4-grams words must share with a private thought to read it out (about eleven words in a row):
a shorter statement is a conclusion, not reasoning read out."""


THOUGHT_CHARS = 40
"""The fewest character n-grams (`JOINED_GRAM`, spaces removed) words whose spaces were lost must share with a
private thought to read it out: about eleven words in a row, as `THOUGHT_GRAMS`."""


def repeats_thought(text: str, thought: str) -> bool:
    """Whether words ``text`` read out the private ``thought``: more than `COPY_SHARE` of their word 4-grams appear
    in it (`copy_share`), and they share at least `THOUGHT_GRAMS` of them; or, with the spaces removed
    (`joined_share`, words glued together), more than `JOINED_SHARE` of their character n-grams and at least
    `THOUGHT_CHARS` of them.

    A chain of thought written in the speaker's voice ("I think Player 3 is the Seer because ...") and words stating
    its conclusion ("I think Player 3 is the Seer.") share every 4-gram of the words; that is what the speaker
    chose to say, not its reasoning read out. A reflection or reasoning said aloud (the issue's "I observed that
    Player 1 is the Seer, Player 3 is the Witch, and Player 5 is the Guard") is longer. A short private line said
    aloud that takes no stance ("I should not reveal my role now.") is empty talk instead
    (docs/measures.md#play-quality). Words that only state the speaker's opinions, several of the thought's
    conclusions with none of its reasons (`opinions_only`: "I think Player 3 is a Werewolf. I trust Player 1. I
    suspect Player 4 is the Guard."), are likewise what it chose to say, however many 4-grams they share.
    """
    mine = words(text)
    if len(mine) < NGRAM or opinions_only(text):
        return False
    grams = ngrams(mine, NGRAM)
    shared = len(grams & ngrams(words(thought), NGRAM))
    if shared >= THOUGHT_GRAMS and shared / len(grams) > COPY_SHARE:
        return True
    common, total = _joined_overlap(text, thought)  # the same with the spaces lost (`joined_share`)
    return common >= THOUGHT_CHARS and common / total > JOINED_SHARE


_OPINION = re.compile(r"^\W*(?:(?:and|but|also|so)\s+)?i\s+(?:(?:also|still|strongly|really|do\s+not|don't|"
                      r"can\s*not|can't|will|would)\s+)*(?:think|suspect|believe|trust|doubt|distrust|propose|support|"
                      r"oppose|reject|approve|agree|disagree|vote|choose|feel)\b", re.IGNORECASE)
_REASONING = re.compile(r"\b(?:because|since|so|as|given|based\s+on|observed?|noticed?|infer\w*|conclud\w*|"
                        r"reflect\w*|reason\w*|means|therefore|thus|impl(?:y|ies|ied))\b", re.IGNORECASE)


def opinions_only(text: str) -> bool:
    """Whether every sentence of ``text`` states an opinion or a move of its speaker in the first person ("I think
    ...", "I suspect ...", "I trust ...", "I will vote ...") and none gives a reason or an observation ("because",
    "so", "as", "based on", "I observed", ...): conclusions, never a thought read out (`repeats_thought`)."""
    parts = [p for p in sentences(text) if p.strip()]
    return bool(parts) and all(_OPINION.search(p) for p in parts) and not _REASONING.search(text)


def copied_from(texts: Sequence[str], index: int, threshold: float = COPY_SHARE) -> int | None:
    """The index of the first earlier utterance that ``texts[index]`` copies (`copies`), or None."""
    for j in range(index):
        if copies(texts[index], texts[j], threshold):
            return j
    return None


# ------------------------------------------------------------------ sentences

_SENTENCE_END = re.compile(r"[.!?][\"')\]]*(?=\s+\S)")


def first_sentence(text: str) -> tuple[str, int]:
    """The first sentence of ``text`` and how many sentences ``text`` holds (its lines joined).

    A sentence ends at ``.``, ``!`` or ``?`` (closing quotes or brackets kept) followed by more text; a number
    such as ``2.5`` does not end one. ``("", 0)`` for blank text. AvalonBench's players say one sentence a turn
    (docs/agents/react.md#the-steps).
    """
    flat = " ".join((text or "").split())
    if not flat:
        return "", 0
    ends = list(_SENTENCE_END.finditer(flat))
    return (flat[:ends[0].end()] if ends else flat), len(ends) + 1


# --------------------------------------------------------- words and actions


def named_team(text: str, size: int) -> tuple[int, ...] | None:
    """The team of exactly ``size`` different players that ``text`` names, or None.

    A list is a run of numbers after "player"/"players" joined by commas,
    "and", "&" or "+" ("players 1, 3 and 5", "Player 2 and Player 4"); a run
    of another length names no team. The team is the first list of the right
    size that a team word shortly precedes ("I propose players 1 and 4",
    "my team: players 2, 5"), else the first list of the right size.
    """
    lists = []
    for match in _PLAYER_LIST.finditer(text or ""):
        numbers = tuple(dict.fromkeys(int(n) for n in _NUMBER.findall(match.group(1))))
        if len(numbers) == size:
            lists.append((match.start(), numbers))
    for start, numbers in lists:
        if _TEAM_WORD.search((text or "")[max(0, start - 40):start]):
            return numbers
    return lists[0][1] if lists else None


_VOTE_VERB = (r"(?:vote\s+(?:for|against|to\s+(?:eliminate|kill|lynch|exile|execute|remove|banish))|vote\s+out|"
              r"eliminate|lynch|exile|execute|banish|get\s+rid\s+of)")
_VOTE_TARGET = re.compile(
    rf"(?:\b(?:i|we)\s*(?:will\s+|'ll\s+|shall\s+|am\s+going\s+to\s+|'m\s+going\s+to\s+|plan\s+to\s+|intend\s+to\s+|"
    rf"want\s+to\s+|would\s+|would\s+like\s+to\s+|'d\s+like\s+to\s+|must\s+|should\s+|need\s+to\s+|have\s+to\s+|"
    rf"have\s+decided\s+to\s+|(?:will\s+|'ll\s+)?(?:also\s+)?)?{_VOTE_VERB}"
    rf"|\b(?:i'm|i\s+am|we're|we\s+are)\s+voting(?:\s+(?:for|against|out|to\s+eliminate))?"
    rf"|\blet's\s+(?:all\s+)?{_VOTE_VERB}"
    rf"|\bmy\s+vote\s+(?:goes\s+to|is\s+for|is\s+on|is\s+against|will\s+be\s+for|will\s+go\s+to|:)"
    rf"|(?:^|[.!?;]\s*)(?:so\s+|please\s+|everyone,?\s+)?{_VOTE_VERB})"
    rf"\s+player\s*#?\s*(\d+)",
    re.IGNORECASE,
)
_VOTE_PASSIVE = re.compile(r"\bplayer\s*#?\s*(\d+)\s+(?:should|must|needs\s+to|has\s+to|will)\s+be\s+"
                           r"(?:eliminated|voted\s+out|lynched|exiled|executed|banished)", re.IGNORECASE)
_SUPPOSE = re.compile(SUPPOSITION + r"|\?", re.IGNORECASE)  # a supposition, or a question


def _first_stated(text: str, patterns: Sequence[re.Pattern[str]]) -> int | None:
    """The player number of the first match of any of ``patterns`` (group 1) in the first sentence of ``text``
    that holds one and is no supposition or question, else None."""
    for sentence in sentences(text):
        if _SUPPOSE.search(sentence):
            continue
        hits = [(m.start(), int(m.group(1))) for p in patterns for m in p.finditer(sentence)]
        if hits:
            return min(hits)[1]
    return None


def named_vote_target(text: str) -> int | None:
    """Whom a Werewolf day statement says its speaker votes to eliminate, or None.

    A vote statement is one of "I vote for Player 5", "I will vote to eliminate Player 5", "we should
    eliminate Player 5", "I'm voting for Player 5", "let's vote out Player 5", "my vote goes to Player 5",
    "Player 5 should be eliminated", or a sentence starting "Vote for Player 5". The first such statement
    counts. A denial ("I will not vote for Player 5": the negation breaks the phrase), a supposition or a
    question ("if", "unless", "whether", "?") and a past vote ("I voted for Player 5") name no target.

    Args:
        text: the words said.

    Returns:
        The player's number, or None when the text states no vote.
    """
    return _first_stated(text, (_VOTE_TARGET, _VOTE_PASSIVE))


_TEAM_OBJECT = (r"(?:it\b|this\b|that\b|the\s+(?:\w+\s+)?(?:team|proposal)\b|(?:player\s*#?\s*\d+|his|her|their)['’]?s?"
                r"\s+(?:\w+\s+)?(?:team|proposal)\b|players?\s*#?\s*\d)")
_BACKING = r"(?:support|approve|back|endorse|accept|agree\s+with|vote\s+for|vote\s+to\s+approve|send)"
_REFUSING = r"(?:reject|oppose|disapprove\s+of|disapprove|vote\s+against|vote\s+to\s+reject)"
_STANCE_SUBJECT = (r"\bi\s*(?:(?:will|'ll|shall|am\s+going\s+to|'m\s+going\s+to|plan\s+to|want\s+to|must|"
                   r"(?:do|does|did|will|shall|can|could|would)(?:\s*n['’]t|\s+not|\s+never)|won['’]t|can['’]t|"
                   r"cannot|am|'m|also|fully|strongly|still|therefore|thus|so|now|definitely|really|truly|"
                   r"(?:am|'m)\s+(?:not\s+)?going\s+to)\s+){0,3}?")
_SUPPORTS = re.compile(rf"{_STANCE_SUBJECT}(?:{_BACKING})\w*\s+{_TEAM_OBJECT}", re.IGNORECASE)
_REFUSES = re.compile(rf"{_STANCE_SUBJECT}(?:{_REFUSING})\w*\s+{_TEAM_OBJECT}", re.IGNORECASE)
_TEAM_SUBJECT = (r"(?:\bit|\bthis|\bthat|\bthe\s+(?:\w+\s+)?(?:team|proposal)|\b(?:player\s*#?\s*\d+|his|her|their)"
                 r"['’]?s?\s+(?:\w+\s+)?(?:team|proposal))(?:\s+(?:team|proposal))?"
                 rf"(?:\s*,?\s*(?:of\s+)?{_PLAYER_LIST.pattern}\s*,?)?")  # "Player 2's team, players 1, 3, 4,"
_TEAM_OUGHT = (rf"{_TEAM_SUBJECT}\s+(?:should|must|needs\s+to|has\s+to|ought\s+to|deserves\s+to)"
               r"\s*(?:not\s*|n['’]t\s*|never\s*)?(?:be|get)\s*")
_SUPPORTED = re.compile(rf"{_TEAM_OUGHT}(?:approved|supported|accepted|backed|endorsed|sent)\b(?!\s+by\b)",
                        re.IGNORECASE)
_REJECTED = re.compile(rf"{_TEAM_OUGHT}(?:rejected|opposed|vetoed|refused|voted\s+down|turned\s+down)\b(?!\s+by\b)",
                       re.IGNORECASE)
_STANCE_DENIAL = re.compile(r"\bnot\b|\bnever\b|n['’]t\b|\bcannot\b", re.IGNORECASE)
_STANCE_DOUBT = re.compile(r"\b(?:if|unless|whether|might|may|maybe|could|perhaps|or)\b|\?", re.IGNORECASE)


def stated_stance(text: str) -> bool | None:
    """The stance on the team on the table that an Avalon player's words state in the first person: True for
    support ("I support it", "I approve this team", "I will vote for Player 3's team", "I strongly support the
    team"), False for opposition ("I reject it", "I will vote against this team", "I do not support the
    proposal", "I won't approve it", "I would not send players 1 and 5", the rule bots' words), or what should
    become of the team on the table ("Player 2's team, players 1, 3, 4, should be approved", "this team should not
    be supported", "the proposal must be rejected": `cga`'s usual wording), None when they
    state neither, or both (a sentence each way: "I support the team but I will not vote for it"). A sentence
    with a supposition, a hedge or a question ("if", "might", "could", "or", "?") states nothing, nor does
    backing a player rather than a team ("I support Merlin").

    The words-and-actions measure sets it against the speaker's team vote (docs/measures.md#play-quality),
    and the words check against the vote the speaker's knowledge settles (docs/agents/checks.md#words-checks).

    Args:
        text: the words said while the team was on the table.

    Returns:
        True, False or None.
    """
    stances = set()
    for sentence in sentences(text):
        if _STANCE_DOUBT.search(sentence):
            continue
        for match in (*_SUPPORTS.finditer(sentence), *_SUPPORTED.finditer(sentence)):
            stances.add(not _STANCE_DENIAL.search(match.group()))
        for match in (*_REFUSES.finditer(sentence), *_REJECTED.finditer(sentence)):
            stances.add(bool(_STANCE_DENIAL.search(match.group())))
    return stances.pop() if len(stances) == 1 else None


_KILL_VERB = r"(?:kill|attack|eat|bite|hunt|target|go\s+after|go\s+for|take\s+out)"
_KILL_TARGET = re.compile(
    rf"(?:\b(?:i|we)\s*(?:will\s+|'ll\s+|shall\s+|am\s+going\s+to\s+|'m\s+going\s+to\s+|plan\s+to\s+|"
    rf"want\s+to\s+|would\s+like\s+to\s+|'d\s+like\s+to\s+|should\s+|must\s+|need\s+to\s+|"
    rf"have\s+decided\s+to\s+|can\s+|could\s+)?(?:also\s+)?(?:{_KILL_VERB}|choose|pick|name|vote\s+(?:for|to\s+kill))"
    rf"|\blet(?:'s|\s+us)\s+{_KILL_VERB}|(?:^|[.!?;]\s*)(?:so\s+)?{_KILL_VERB}|\bthen\s+{_KILL_VERB}"
    rf"|\b(?:our|my|the|tonight's)\s+(?:next\s+)?(?:target|victim|kill)\s*(?:is|will\s+be|should\s+be|:))"
    rf"\s+player\s*#?\s*(\d+)",
    re.IGNORECASE,
)
_KILL_AS = re.compile(r"\bplayer\s*#?\s*(\d+)\s+(?:as\s+(?:the\s+|our\s+|my\s+)?(?:next\s+)?(?:victim|target)"
                      r"|to\s+(?:kill|be\s+killed)\b|is\s+(?:our|my)\s+(?:next\s+)?(?:target|victim)\b"
                      r"|(?:should|must|will)\s+(?:die|be\s+(?:killed|our\s+(?:target|victim)|the\s+(?:target|"
                      r"victim))))", re.IGNORECASE)


def named_kill_target(text: str) -> int | None:
    """Whom a werewolf's night words to its teammates say to kill, or None.

    A kill statement is one of "I will kill Player 1", "let's attack Player 1", "I choose Player 1 as the
    next victim", "our target is Player 1", "Player 1 is our target", "Player 1 to kill", "Player 1 should
    die", "I vote to kill Player 1". The first
    such statement counts. A denial ("I will not kill Player 1", "I pass on Player 1": the negation or
    another verb breaks the phrase), a supposition or a question ("if", "unless", "whether", "?") name no
    target.

    Args:
        text: the words said to the teammates.

    Returns:
        The player's number, or None when the text states no kill.
    """
    return _first_stated(text, (_KILL_TARGET, _KILL_AS))


# ------------------------------------------------------------------ tactics said aloud

_INTENT = (r"\bi\s*(?:will|'ll|shall|am\s+going\s+to|'m\s+going\s+to|plan\s+to|want\s+to|intend\s+to|should|must|"
           r"need\s+to|have\s+to|can|could|would|try\s+to|aim\s+to)\s+(?:\w+\s+){0,2}?")
_ROLE_POSED = (r"(?:loyal|good|servant|merlin|percival|morgana|assassin|evil|innocent|villager|seer|witch|guard|"
               r"werewolf)\b")
"""The roles (and sides) a player may say it will play or pose as: "I will play as a Loyal Servant of Arthur"
(a `cga` Morgana in ``pq-cga-lan6-s2``) states the pose it plans, not a role it claims."""
_TACTIC = re.compile(
    rf"{_INTENT}(?:(?:draw|cast|divert|deflect|shift|throw)\s+(?:\w+\s+){{0,2}}?suspici\w*"
    rf"|(?:avoid|stay\s+(?:out\s+of|under)|not\s+raise)\s+(?:\w+\s+){{0,2}}?suspicion\b"
    rf"|(?:not|never)\s+(?:reveal|disclose|expose|give\s+away|say\s+openly|tell\s+(?:anyone|anybody|them|the\s+table))"
    rf"|(?:subtly\s+|gently\s+)?hint\b|pretend\b|bluff\b|blend\s+in\b|lie\s+low\b|lay\s+low\b|stay\s+hidden\b"
    rf"|hide\s+(?:my|myself|among)\b|keep\s+my\s+(?:role|identity|side)\s+(?:hidden|secret)\b"
    rf"|keep\s+my\s+(?:tactics?|plans?|strategy|strategies)\s+to\s+myself\b"
    rf"|mislead\b|deceive\b|manipulate\b"
    rf"|(?:play|pose|act|pass)\s+(?:myself\s+(?:off\s+)?)?as\s+(?:an?\s+|the\s+)?{_ROLE_POSED})"
    r"|\bwithout\s+reveal(?:ing)?\s+(?:my|myself|that\s+i)\b"
    r"|\bkeep(?:s|ing)?\s+my\s+(?:role|identity|side)\s+(?:hidden|secret)\b"
    r"|\bi(?:\s+am\s+|'m\s+|\s+)(?:subtly\s+|gently\s+)?(?:hint(?:ing)?|pretend(?:ing)?|bluff(?:ing)?|pos(?:e|ing)\s+as)\b",
    re.IGNORECASE,
)


def stated_tactic(text: str) -> str | None:
    """The first sentence of ``text`` in which the speaker states its own table tactic, or None.

    A tactic is a first-person intent to conceal or mislead, the private plan behind words rather than words
    for the table: "I will draw suspicion by hinting that I am Merlin", "I will not reveal my identity", "I
    will hint at Merlin", "I will pretend to be a Servant", "I will blend in", "without revealing my role"
    (the 1.5B model's reading of its role card's strategy line, said aloud). Saying what one thinks or does
    ("I suspect Player 3", "I will vote to eliminate Player 3", "I will not vote for this team") is no
    tactic. Said to the whole table it is a thought said aloud (docs/measures.md#play-quality).

    Args:
        text: the words said.

    Returns:
        The sentence that states it, stripped, or None.
    """
    return next((s.strip() for s in sentences(text) if _TACTIC.search(s)), None)


_CONTENT = re.compile(
    r"\b(?:players?\s*#?\s*\d|p\d\b|#\d)"  # a player, by number
    r"|\b(?:merlin|percival|morgana|assassin|mordred|oberon|servants?|minions?|arthur|seers?|witch(?:es)?|guards?|"
    r"villagers?|werewol(?:f|ves)|wol(?:f|ves)|good|evil|loyal|village)\b"  # a role or a side
    r"|\b(?:support|approv|reject|oppos|agree|disagree|trust|distrust|suspect|suspici|accus|vote|eliminat|kill|"
    r"protect|sav(?:e|ed|ing)\b|poison|check|innocent|lie|lying|liar|fail|succe|propos|choos|chose|team|"
    r"pass(?:es|ed|ing)?\b)",  # a stance (a pass is one: "I pass tonight")
    re.IGNORECASE)


def says_nothing(text: str) -> bool:
    """Whether ``text`` says nothing: it names no player (by number), no role or side, and takes no stance.

    Empty talk is words with no substantive content, as Xu et al. (2023, Appendix A.3) set aside "I agree with
    what Player 2 is saying" (docs/measures.md#play-quality): "I have no information yet", "I will think about it
    and then decide what to say". A stance is a word of support, rejection, trust, suspicion, a vote or a pass, a
    night action or a proposal. Words that name a player or a role but say nothing of them still count as content, so
    the measure is a lower bound of empty talk.

    Args:
        text: the words said.

    Returns:
        True when no player, role, side or stance word appears; False for any text that has one. Empty text is
        no talk at all and gives False.
    """
    return bool(text.strip()) and _CONTENT.search(text) is None


_RUN_ON = re.compile(r"^(?!i\b)[a-z][^.!?]*(?:[.!?]+\s*|$)")
"""Words that begin in lower case, mid-sentence: the rest of a thought the model ran on into its words when its
reasoning field ran out of tokens (a `cga` Assassin's words "success card to fail the third quest. This will ensure
that ..." in ``lan-table2``'s ``lga-good-s0001``; 9 of the 1,692 kept utterances began so, every one a run-on). The
fragment up to the first sentence end counts when it has three words or more, or words follow it ("ok" alone is a
reply, not a run-on); a lone "i" starts a sentence."""


def run_on_fragment(text: str) -> str | None:
    """The first fragment of words that begin in lower case mid-sentence, a thought the model ran on into its words
    (`_RUN_ON`: up to and with the first sentence end and the blank after it, three words or more or words after it),
    or None. The aids' words cleaning drops it (`roundtable.aids.cleaning`); the thoughts-said-aloud measure counts
    it in words said before it did (docs/measures.md#play-quality)."""
    run_on = _RUN_ON.match(text or "")
    if run_on and (len(run_on.group().split()) >= 3 or run_on.end() < len((text or "").rstrip())):
        return run_on.group()
    return None
