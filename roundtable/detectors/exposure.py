"""What words give away: a player exposing its own side, and statements of who holds a role.

Plain text heuristics over words, no model, shared by the aids (to check an agent's words before they are said)
and by `roundtable.metrics` (to count them over a finished game; docs/measures.md#play-quality):

* `exposes(text, role, known_evil, player=None, leader=None)`: an evil Avalon player naming its side, role or
  intent to fail, in the first person or by its own number, or Merlin saying he is Merlin or whom he sees as evil;
* `werewolf_exposes(text, role, player, teammates)`: a werewolf naming its side or intent, in the first person,
  by its own number, or by "the other werewolf"/"my teammate" phrasings that imply its side; a Witch or Guard
  saying its own night action or plan aloud, or the Seer a check still to come;
* `named_role_holders(text, role_word, leader=None)`: the players a text states hold a role ("Player 6 is
  Merlin", "the Seer is Player 3", "Player 6, our Merlin", "Merlin is the leader");
* `named_good(text)`: the players a text states are good, as a Seer clears a player it checked ("Player 3 is
  not a werewolf").

Each is a heuristic: it counts what its phrase patterns catch. A sentence that hedges ("might", "maybe",
"if", ...) or denies is not a statement. ``roundtable.detectors.words`` re-exports `exposes`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from roundtable.games.avalon import Role
from roundtable.games.werewolf import Role as WerewolfRole

_SENTENCE = re.compile(r"(?<=[.!?;])\s+|\n+")
_NUMBER = re.compile(r"\d+")
_PLAYER = r"player\s*#?\s*(\d+)"

# ------------------------------------------------------------------ sentences


def sentences(text: str) -> list[str]:
    """``text`` cut into sentences: after ``.``, ``!``, ``?`` or ``;`` followed by blank space, and at line breaks.

    Blank pieces are dropped; ``[]`` for blank text.
    """
    return [s for s in _SENTENCE.split(text or "") if s.strip()]


_HEDGE = re.compile(r"\b(suspect|think|might|may|maybe|could|seems?|probably|likely|possibly|perhaps|if|unless|"
                    r"not sure|doubt|wonder|feel|guess|believe|whether|or)\b", re.IGNORECASE)
_DOUBT = re.compile(r"\b(might|may|maybe|could|perhaps|possibly|probably|likely|if|unless|whether|not sure|doubt|"
                    r"wonder|possible|or)\b", re.IGNORECASE)
"""Words before a statement of who holds a role that make it a guess rather than a statement. "I suspect" is
not one: like "I think", it states the speaker's belief, and "I suspect Player 1 is the Seer" tells the werewolves
as much (a Guard's day-1 words in ``pq-cga-xu7-v4-s1``, right)."""
_DENIAL = re.compile(r"\b(not|never|no)\b|n't\b", re.IGNORECASE)
_REPORTED = re.compile(r"\b(claims?|claimed|says|said|thinks|accus\w*|suspects|believes|if|whether|wrong)\b",
                       re.IGNORECASE)
"""Words that make a sentence naming the speaker's number someone else's claim or a supposition."""
_KNOW = re.compile(r"\b(i know|i see|i can see|i saw|i am certain|i'm certain|for sure)\b", re.IGNORECASE)

# ------------------------------------------------------------- Avalon: evil side

_EVIL_WORD = r"(evil|a minion|minions?|the assassin|assassin|morgana|mordred|oberon|a spy|bad)"
_EVIL_SELF = re.compile(
    r"(\b(i am|i'm)|(^|[.!?;]\s*)as)\s+(an?\s+|the\s+)?((player|one|role)\s+(of|playing|as)\s+(an?\s+|the\s+)?)?"
    r"(evil|minion|minions of mordred|assassin|morgana?|mordred|oberon)\b"
    r"|\b(i am|i'm|we are|we're)\s+(on\s+)?(the\s+)?evil(\s+side)?\b"
    r"|\b(my|our)\s+(fellow\s+)?(evil|minions?|assassin)\b"
    r"|\bthe\s+evil\s+(teammates?|partners?|ally|allies)\b(?!\s+of\b)"
    r"|\b(my|our)\s+(evil\s+)?(side|team)\s+(needs|wants|will|must)\s+(to\s+)?fail"
    r"|\b(i|we)\s*(will|'ll|shall|am going to|plan to|want to|must)\s+(play\s+(a\s+)?)?(fail|sabotage)\b"
    r"|(^|[.!?;]\s*)fail\s+(the|this|that|every|each)\s+quests?\b"
    r"|\b(i|we)('ll|'m|'d)?(\s+\w+){0,3}?\s+(and|to)\s+fail\s+"
    r"((the\s+)?(first|second|third|fourth|fifth|next|last)|the|this|that|every|each|two|three)\s+quests?\b"
    r"|\b(i|we)\s*(will|'ll|shall|am going to|'m going to|plan to|want to|must|should|need to)\s+"
    r"(?:(?!(?:not|never|he|she|they|player|someone|anyone|who)\b)\w+\s+){1,4}?to\s+fail\s+(the\s+|this\s+|that\s+)?"
    r"(quests?|team|mission)\b"
    r"|\b(i|we)\s+(should|will|'ll|must|want to|plan to|can|shall)\s+(suggest|propose|pick|choose|send|put|include|"
    r"recommend)\b[^.;!?]*?\bso\s+(that\s+)?(they|it|the\s+(team|quest|mission))\s+(will\s+|can\s+|would\s+)?fail\b"
    r"|\bfor\s+(me|us)\s+to\s+(fail|sabotage)\b"
    r"|(?<!not\s)(?<!n't\s)(?<!never\s)(?<!cannot\s)\b(allows?|enables?|helps?|lets?)\s+(me|us)\s+(to\s+)?"
    r"(fail|sabotage)\b"
    r"|\b(i|we|us)\b(\s+(?!not\b|never\b|cannot\b)\w+){0,5}?\s+(help|let|get|for)\s+(the\s+|our\s+|my\s+)?assassin\s+(to\s+)?"
    r"(find|identify|kill|shoot|spot|guess|pick|name|assassinate)\s+merlin\b"
    r"|\b(i|i'm|i am|we|we're)\s+(?:(?!(?:assassin|he|she|they|player|evil|someone|who|not|never|whether|if)\b)"
    r"\w+\s+){0,3}?(take|taking|took|use|using|fire|firing|spend|spending|save|saving|hold|holding|keep|keeping)\s+"
    r"(the|my|our)\s+(one\s+)?(shot|assassination)\b"
    r"|\bmy\s+(one\s+)?(shot|assassination)\b"
    r"|\b(fool|deceive|trick|mislead)\s+(percival|merlin|the good|good players|everyone|the others|the table)\b"
    r"|\bpretend(ing)?\s+to\s+be\b"
    r"|\b(players?|members?|none|no one|nobody|anyone|someone|one|two)\s+(else\s+)?(of|from)\s+(my|our)\s+side\b"
    r"|\b(my|our)\s+side\s+(wants|needs|is|are|on)\b"
    r"|\byour\s+side\s+(wants\s+it|on\s+this\s+team)\b|\bno\s+(player|one|member)\s+of\s+your\s+side\b",
    re.IGNORECASE,
)
"""An intent to fail put a step away from "I will fail the quest": "I will vote for them to fail quest 3", "I should
consider recommending myself to fail the team", "I want to support the team to fail quest 2", "I should suggest
players 4 and 2 so that they fail quests" (evil `cga` and `react` seats of ``lan-table2``, ``pq-cga-lan6-v8-s2``
and ``pq-react-bench5-v8-s4``), "... and fail the third quest"; no one else is the subject between the "I" and the
fail. The Assassin's shot taken, kept or spent in the first person ("I'm thinking about taking the shot at once if the
first quest fails", a `cga` Assassin's words in ``lan-table2``'s ``lga-good-s0001``; "my shot") is the Assassin's
act alone, unless another player is its subject ("I think the Assassin will take the shot"). The last line's "your
side" phrasings are the Host's private team lines read back ("No player of your side is on
this team, so your side wants it rejected", ``avalon/team_knowledge``): a `lga` Morgana asked again for words said
"No player of your side knows of this team. Your side wants it rejected." in ``pq-lga-lan6-v6-s1``."""
_MAKE_FAIL = re.compile(r"\b(make|let|help)\s+(it|them|the\s+(team|quests?|mission)|this\s+(team|quest|mission)|"
                        r"quests?)\s+fail\b", re.IGNORECASE)
_SOMEONE_ELSE = r"player\s*#?\s*\d+|he|she|they|someone|somebody|anyone|who|whoever|evil|minions?|spy|spies"
"""'Make the team fail' with no one else named before it in the sentence: the speaker's own intent ("I will play
as a Loyal Servant of Arthur and try to make the team fail", a `cga` Morgana's first words in ``pq-cga-lan6-s2``),
not an accusation ("Player 2 will make the quest fail")."""
_BACKS = re.compile(r"\b(?:i|we)\s+(?:\w+\s+){0,2}?(?:support|approve|back|choose|pick|propose|want)\b",
                    re.IGNORECASE)
_EVIL_REASON = re.compile(r"\b(?:because|as|since|so)\b(?P<reason>.*?)"
                          r"(?:\b(?:is|are)\s+(?:all\s+|both\s+|also\s+)?evil\b|\bwill\s+(?:\w+\s+)?fail\b)",
                          re.IGNORECASE)


SUPPOSITION = r"\b(if|unless|whether)\b"
"""A word that makes a sentence a supposition ("if Player 3 is Merlin, ..."), which states nothing as fact."""
_SUPPOSED = re.compile(SUPPOSITION, re.IGNORECASE)


def _backs_for_evil(text: str) -> bool:
    """Whether a sentence backs a team or players for being evil or for failing the quest: "I support Player 3's
    team, as I know they are evil", "I support Player 5's team, as they have one fail card, which will fail the
    quest" (evil seats of ``pq-react-bench5-s3`` and ``-s4``), with no denial in the stance or before the reason's
    end ("I do not support ...", "... because no one on it will fail") and no supposition in the reason ("...
    because if the Assassin targets Player 3, it will fail")."""
    for sentence in sentences(text):
        stance = _BACKS.search(sentence)
        if stance is None or _DENIAL.search(stance.group()):
            continue
        reason = _EVIL_REASON.search(sentence, stance.end())
        if reason is not None and not _DENIAL.search(reason.group("reason")) and not _SUPPOSED.search(
                reason.group("reason")):
            return True
    return False


_EVIL_OTHER = re.compile(r"\bthe\s+other\s+(evil|minion|spy|bad)\b", re.IGNORECASE)
"""'The other evil player': said by an evil player, it implies the speaker is the first."""
_EVIL_NAMED = (r"(?:(?:the|an?|one of the|other|another|also|clearly|definitely|really|on the)\s+)*"
               r"(?:evil|minions?|assassin|morgana|mordred|oberon|spy|bad)\b")
_MERLIN_SELF = re.compile(r"\b(i am|i'm)\s+((the\s+)?(player|one)\s+(of|playing|as)\s+)?merlin\b|\bas merlin,?\s+i\b",
                          re.IGNORECASE)
_IS_EVIL = re.compile(r"\b(is|are)\s+(?:(?:all|both|clearly|definitely|surely|certainly|obviously|really|also)\s+)*"
                      + _EVIL_WORD + r"\b", re.IGNORECASE)


def exposes(text: str, role: Role, known_evil: Iterable[int], player: int | None = None,
            leader: int | None = None) -> str | None:
    """Why an utterance exposes its public speaker in Avalon, or None (docs/measures.md#play-quality).

    Args:
        text: what the player said to the whole table.
        role: the speaker's role.
        known_evil: the players the speaker sees as evil (Merlin's sight; an evil player's teammates).
        player: the speaker's number; with it, an evil player calling its own number evil ("Player 5 is
            evil" said by Player 5) and Merlin calling his own number Merlin expose them too.
        leader: the current leader's number (None: none), for Merlin calling himself Merlin as the leader
            ("Merlin is the leader", `named_role_holders`).

    Returns:
        ``"evil side"`` (an evil player naming its side, role or intent to fail in the first person, backing
        a team for being evil or failing, or "the other evil player" phrasings that imply it), ``"own number"``
        (an evil player stating that its own number is evil), ``"merlin names evil"`` (Merlin stating
        outright, with no hedge word in the sentence, that a player he sees is evil), ``"merlin"`` (Merlin
        saying he is Merlin), or None.
    """
    text = text or ""
    if role.side.value == "evil":
        if (_EVIL_SELF.search(text) or _implies_side(text, _EVIL_OTHER, r"evil|minion|spy|bad")
                or _implies_side(text, _MAKE_FAIL, _SOMEONE_ELSE) or _backs_for_evil(text)):
            return "evil side"
        if player is not None and _names_own_number(text, player, _EVIL_NAMED):
            return "own number"
        return None
    if role is not Role.MERLIN:
        return None
    if _MERLIN_SELF.search(text) or (player is not None and player in named_role_holders(text, "merlin", leader)):
        return "merlin"
    seen = set(known_evil)
    for sentence in sentences(text):
        named = {int(n) for n in _NUMBER.findall(sentence)} & seen
        if not named:
            continue
        certain = _KNOW.search(sentence) or not _HEDGE.search(sentence)
        if certain and _IS_EVIL.search(sentence):
            return "merlin names evil"
    return None


# --------------------------------------------------------- Werewolf: werewolf side

_WOLF = r"(?:were)?wol(?:f|ves)"
_NIGHT_ACTION = re.compile(
    r"\b(i|we)\s*(?:(?:will|'ll|shall|am going to|'m going to|plan to|want to|must|should|need to|can|could|"
    r"would)\s+)?(?:protect|guard|poison|save|heal|use\s+(?:my|the|our)\s+(?:antidote|poison|potions?))\b"
    r"|\b(my|our)\s+(?:antidote|poison|potions?|protection)\b"
    r"|(?:^|[.!?;:]\s*)(?:protect|guard|poison|save|heal)\s+player\s*#?\s*\d+",
    re.IGNORECASE)
"""A Witch's or Guard's own night action said in the first person ("I protect Player 2", "my antidote") or as an
order to itself ("Poison Player 4.")."""

_SEER_PLAN = re.compile(
    r"\b(i|we)\s*(?:(?:will|'ll|shall|am going to|'m going to|plan to|want to|must|should|need to|can|could|"
    r"would)\s+)?(?:check|inspect|verify|investigate)\s+player\s*#?\s*\d+",
    re.IGNORECASE)
"""A Seer's check to come said in the first person ("I check Player 4", "I will inspect Player 2 tonight"): it
names the Seer to the werewolves and tells nothing; a check already made ("I checked Player 4: a werewolf") is
play."""

_WOLF_SELF = re.compile(
    rf"\b(i am|i'm)\s+(?:(?:a|an|the|one of the|also|really|actually)\s+)*(?:other\s+)?{_WOLF}\b"
    rf"|(^|[.!?;]\s*)as\s+(a|the|one of the)\s+{_WOLF}\b"
    rf"|\b(we are|we're)\s+(?:(?:the|both|all)\s+)*{_WOLF}\b"
    rf"|\bwe\s+{_WOLF}\b"
    rf"|\b(my|our)\s+(fellow\s+)?({_WOLF}|teammates?|partners?|pack)\b"
    r"|\b(my|our)\s+(kill|victim|prey)\b"
    r"|\b(i|we)\s*(will|'ll|shall|am going to|'m going to|plan to|want to|must|should|need to)\s+"
    r"((eat|devour|bite)\b|kill\b(\s+\w+){0,3}\s+(tonight|at night|this night|next night))"
    r"|\b(we|i)\s+((ate|devoured|bit)\b|killed\b(\s+\w+){0,3}\s+(last night|tonight))"
    r"|\bhide\s+among\s+(the\s+)?villagers\b"
    r"|\bpretend(ing)?\s+to\s+be\s+(a\s+|the\s+)?(villager|seer|witch|guard)\b",
    re.IGNORECASE,
)
_WOLF_OTHER = re.compile(rf"\bthe\s+other\s+{_WOLF}\b", re.IGNORECASE)
"""'The other werewolf': said by a werewolf about its teammate or itself, it implies the speaker's side."""
_WOLF_NAMED = rf"(?:(?:the|an?|one of the|other|another|also|clearly|definitely|really)\s+)*{_WOLF}\b"


def werewolf_exposes(text: str, role: WerewolfRole | str, player: int, teammates: Iterable[int]) -> str | None:
    """Why a werewolf's public words expose it, or a Witch's or Guard's give its night actions away, or None.

    Args:
        text: what the player said to the whole table.
        role: the speaker's Werewolf role (`roundtable.games.werewolf.Role` or its value).
        player: the speaker's number.
        teammates: the other werewolves the speaker knows.

    Returns:
        ``"werewolf side"`` (naming its side or intent in the first person: "I am a werewolf", "my fellow
        werewolf", "we will kill Player 3", "I should hide among the villagers"), ``"own number"`` (stating that
        its own number is a werewolf: "Player 2 is the other werewolf" said by Player 2), ``"teammate implied"``
        ("Player 1 is the other werewolf" said of its teammate, or "the other werewolf" with no werewolf named
        before it in the sentence), or None. A denial ("I am not a werewolf") or an accusation of another player
        ("Player 4 is a werewolf") is not exposure. For a Witch or a Guard: ``"night action"``, its own night
        action or plan said by day in the first person ("I protect Player 2", "I will poison Player 5", "my
        antidote") or as an order ("Poison Player 4."), which tells the listening werewolves whom to avoid or
        kill (the issue's Witch who announced her potion plans); for the Seer, a check still to come said aloud
        ("I check Player 4", "I will inspect Player 2 tonight"), which names the Seer and tells nothing (a check
        already made, "I checked Player 4: a werewolf", is a disclosure the Seer may choose).
    """
    if WerewolfRole(role) in (WerewolfRole.WITCH, WerewolfRole.GUARD):
        return "night action" if _NIGHT_ACTION.search(text or "") else None
    if WerewolfRole(role) is WerewolfRole.SEER:
        return "night action" if _SEER_PLAN.search(text or "") else None
    if WerewolfRole(role) is not WerewolfRole.WEREWOLF:
        return None
    text = text or ""
    if _WOLF_SELF.search(text):
        return "werewolf side"
    if _names_own_number(text, player, _WOLF_NAMED):
        return "own number"
    mates = set(teammates)
    for sentence in sentences(text):
        for match in re.finditer(rf"{_PLAYER}\s+(?:is|was|must be)\s+the\s+other\s+{_WOLF}\b", sentence,
                                 re.IGNORECASE):
            if int(match.group(1)) in mates:
                return "teammate implied"
    if _implies_side(text, _WOLF_OTHER, _WOLF):
        return "teammate implied"
    return None


def _names_own_number(text: str, player: int, side: str) -> bool:
    """Whether a sentence of ``text`` states that ``player`` (alone or in a list) is on the ``side`` pattern,
    in the speaker's own voice (not a reported claim, not a supposition)."""
    pattern = re.compile(rf"\bplayers?\s+((?:\d+\s*(?:,|and|&)?\s*(?:players?\s+)?)+)"
                         rf"(?:is|are|was|were|must be)\s+{side}", re.IGNORECASE)
    for sentence in sentences(text):
        if _REPORTED.search(sentence):
            continue
        for match in pattern.finditer(sentence):
            if player in {int(n) for n in _NUMBER.findall(match.group(1))}:
                return True
    return False


def _implies_side(text: str, other: re.Pattern[str], side: str) -> bool:
    """Whether a sentence has a match of ``other`` ("the other <side>", "make the team fail") with no word of
    ``side`` before it in that sentence (after an accusation, "the other" counts a second suspect, not the
    speaker; "Player 2 will make the team fail" names whose intent it is)."""
    for sentence in sentences(text):
        match = other.search(sentence)
        if match and not re.search(rf"\b({side})", sentence[:match.start()], re.IGNORECASE):
            return True
    return False


# ------------------------------------------------------------ who holds a role

_ADVERBS = r"(?:(?:the|our|a|an|real|true|actual|clearly|obviously|definitely|surely|certainly|really|indeed|" \
           r"actually|in fact|of course)\s+)*"


_LEADER = re.compile(
    r"\b(?:the|our|this)\s+(?:(?!(?:most|more|possible|possibly|probable|probably|likely|potential|suspected|unknown|"
    r"next|new|previous|last|first|former|other)\b)[\w-]+\s+){0,2}?(?:team\s+|quest\s+)?lead(?:er)?\b(?!['’]s)",
    re.IGNORECASE)
"""An Avalon phrase naming the current leader: "the leader", "our leader", "the clear leader", "the well-known team
leader", "the lead". Not "the next leader", "the most likely leader", "the leader's team"."""


def named_role_holders(text: str, role_word: str, leader: int | None = None) -> tuple[int, ...]:
    """The players that ``text`` states hold the role ``role_word``, in order of mention, without repeats.

    A statement is one of "Player 6 is (our / the / clearly) Merlin", "Player 6 must be Merlin", "Merlin is
    Player 6", "the Seer is Player 3", "Player 6, our Merlin", "Player 6, who is Merlin", "Player 6 (the Seer)",
    "Player 6 (the real Merlin)" (`cga` on ``lan6``, ``pq-cga-lan6-v8-s4``), "Merlin (Player 6)",
    "Player 6 as our Merlin", "Player 6, as Merlin, ...", "Player 6 is known for Merlin", "Player 6 is playing
    (as) Merlin" (`cga`'s formula on the embedded model, ``pq-cga-lan6-s1``), also after "I know",
    "I think" or "I believe". A guess word ("might", "maybe",
    "likely", "if", "or", ...) or a denial before the statement in its sentence ("Maybe Player 6 is Merlin", "I
    don't think Player 6 is Merlin"), a question, and "Player 6 is not Merlin", "Player 6 claims to be Merlin",
    "Player 6 is likely Merlin", "Player 6 is Merlin or Morgana" state nothing. With ``leader``, the current
    Avalon leader named as such stands for that player (`_LEADER`): "Merlin is the clear leader", "I believe that
    Merlin is the leader" (`codeact` in the AvalonPlay reproduction's ``codeact-s0000``, said of the leader who was
    Merlin), "Merlin is known as the leader"; "Merlin is likely the leader" states nothing.

    Args:
        text: the words said.
        role_word: the role's name, case-insensitive ("merlin", "seer", "witch", ...).
        leader: the current leader's number, when the words are said about a team (None: no leader).

    Returns:
        The players' numbers (empty: none stated).
    """
    if leader is not None:
        text = _LEADER.sub(f"Player {leader}", text or "")
    role = rf"{_ADVERBS}{re.escape(role_word)}\b(?!['’]s)(?!\s+or\b)"
    genuine = r"(?:(?:real|true|actual)\s+)?"  # "the real Merlin", "the true Seer"
    patterns = [
        re.compile(rf"\b{_PLAYER}\s*(?:is|must be|has to be|=|is known (?:for|as|to be)|"
                   rf"(?:is playing|plays|is acting|acts)(?:\s+as)?)\s+{role}", re.IGNORECASE),
        re.compile(rf"\b{_PLAYER}\s*(?:,\s*(?:who is\s+(?:(?:our|the)\s+)?|(?:our|the)\s+)|\(\s*(?:(?:the|our)\s+)?)"
                   rf"{genuine}{re.escape(role_word)}\b(?!['’]s)", re.IGNORECASE),
        re.compile(rf"\b{_PLAYER}\s*,?\s+as\s+(?:our\s+|the\s+)?{re.escape(role_word)}\b(?!['’]s)", re.IGNORECASE),
        re.compile(rf"(?<![\w'’])(?:(?:the|our)\s+)?{genuine}{re.escape(role_word)}"
                   rf"\s+(?:is|must be|has to be|=|is known as|is seen as)\s+"
                   rf"(?:clearly\s+|obviously\s+|definitely\s+|really\s+)?"
                   rf"{_PLAYER}", re.IGNORECASE),
        re.compile(rf"(?<![\w'’]){re.escape(role_word)}\s*\(\s*(?:is\s+|=\s*)?{_PLAYER}\s*\)", re.IGNORECASE),
    ]
    return _stated(text, patterns)


def claims_role(text: str, role_word: str) -> bool:
    """Whether ``text`` claims the role ``role_word`` for its speaker in the first person: "I am the Seer", "I'm
    Merlin", "my role is the Seer", "I reveal my role as the Seer", "As the Seer, I checked ...". A supposition, a
    question or a denial before the claim in its sentence ("If I were the Seer", "I am not the Seer") claims
    nothing. Once a player has claimed a role at the table, others naming it as that role give nothing away
    (`roundtable.aids.review.exposure_of`, docs/measures.md#play-quality)."""
    role = rf"(?:the\s+|a\s+)?{re.escape(role_word)}\b(?!['’]s)"
    claim = re.compile(rf"\b(?:i\s+am|i['’]m)\s+{role}|\bmy\s+role\s+is\s+{role}"
                       rf"|\b(?:reveal|claim|declare|announce)\w*\s+(?:my\s+role\s+|myself\s+)?(?:as|to\s+be)\s+{role}"
                       rf"|^\W*as\s+{role}\s*,?\s+i\b", re.IGNORECASE)
    for sentence in sentences(text):
        if sentence.rstrip().endswith("?"):
            continue
        match = claim.search(sentence)
        if match and not _DOUBT.search(sentence[:match.start()]) and not _DENIAL.search(sentence[:match.start()]):
            return True
    return False


_GOOD = (r"(?:(?:definitely|clearly|really|certainly|surely|confirmed|)\s*)"
         r"(?:good|innocent|clean|trustworthy|a villager|on the village(?:'s)? side|on our side|one of us|"
         r"not (?:a |one of the |the )?(?:were)?wol(?:f|ves))\b")


def named_good(text: str) -> tuple[int, ...]:
    """The players that ``text`` states are good, as a Seer clears a player it checked: "Player 3 is good",
    "Player 3 is not a werewolf", "Player 3 is innocent", "I checked Player 3 and he is good", "I checked
    Player 3: not a werewolf", in order of mention, without repeats.

    A guess word or a denial before the statement in its sentence, or a question, states nothing (as in
    `named_role_holders`); "Player 3 is not good" is no statement of good.
    """
    patterns = (
        re.compile(rf"\b{_PLAYER}(?:[^.!?;]{{0,30}}?\b(?:he|she|they|who|it)\b)?\s*(?:is|are|was|were|'s)\s+"
                   rf"{_GOOD}", re.IGNORECASE),
        re.compile(rf"\b(?:checked|verified|saw|tested|inspected)\s+{_PLAYER}\s*(?::|,|-|—|and found)\s*"
                   rf"(?:(?:he|she|they|it)\s+(?:is|are)\s+)?{_GOOD}", re.IGNORECASE),
    )
    return _stated(text, patterns)


def _stated(text: str, patterns: Iterable[re.Pattern[str]]) -> tuple[int, ...]:
    """The player numbers (group 1) that ``patterns`` find in the statements of ``text``: sentences that are not
    questions, with no guess word (`_DOUBT`) nor denial before the match; in order, without repeats."""
    found: list[int] = []
    for sentence in sentences(text):
        if sentence.rstrip().endswith("?"):
            continue
        hits = sorted((m.start(), int(m.group(1))) for p in patterns for m in p.finditer(sentence))
        for start, number in hits:
            before = sentence[:start]
            if not _DOUBT.search(before) and not _DENIAL.search(before) and number not in found:
                found.append(number)
    return tuple(found)
