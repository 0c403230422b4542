"""Secret Hitler's behaviours for roundtable's social-behaviour judge, with their tables and figures.

Declared under the ``roundtable.judges`` entry point ``secret_hitler`` (docs/games/secret-hitler.md#the-judge):

- ``deception``: the claims a President or Chancellor makes about the policies of a legislative session it sat
  in (the three it drew, the two passed), Secret Hitler's deception: asked of every public utterance that talks of
  policies held (`talks_of_cards`), each answered with the office claimed, the three drawn and the two passed
  (template ``secret_hitler/judge/cards``). The tables give each role's share of utterances that claim cards;
  of the rounds in which one speaker claimed to have been President and another Chancellor, the share whose
  stories of the two policies passed disagree (one of the two lies); and per role and side, the share of the
  claims set against the cards the record shows the speaker held that are false (`card_lies`, over the
  judge's facts of the record: `facts`, each legislative session's cards, `sessions`);
- ``stance``: the speaker's trust or distrust of each player its words name (roundtable's ``judge/stance``), per
  role pair, round and with vacillation, as in Avalon;
- ``camouflage``: the role or party each utterance's speaker claims for itself (template
  ``secret_hitler/judge/party``), its own or another, per role, as Werewolf's camouflage.

The judge model is shown the words and the roles dealt, never a player's role or cards; the code compares. The
cards reach the tables as the transcript's facts (`GameJudge.facts`, `Transcript.facts`), never by reading the
record again, and are part of its digest: a record whose hands changed is judged again.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from roundtable.judge.answers import Item
from roundtable.judge.behaviours import NO_CLAIM, game_terms, stance_behaviour
from roundtable.judge.measures import (
    GroupOf,
    by_condition,
    camouflage_rows,
    pair,
    proportion,
    stance_counts,
    stance_rows,
)
from roundtable.judge.protocol import Behaviour, Figure, GameJudge, Judged
from roundtable.judge.transcript import Transcript
from roundtable.metrics.tables import Measure
from roundtable_secret_hitler.deck import LIBERAL
from roundtable_secret_hitler.roles import Role, Side

GAME = "secret_hitler"
ROLES = [(role.value, role.value.title(), role.side.value) for role in Role]
"""``[(role, title, side)]`` of every Secret Hitler role."""
SIDES = tuple(side.value for side in Side)

PARTY_CHOICES = (Role.LIBERAL.value, Role.FASCIST.value, Role.HITLER.value, NO_CLAIM)
"""The words a party claim is answered with (the roles, which name the parties too, and `NO_CLAIM`)."""
PARTY_ALIASES = {"liberal party": "liberal", "fascist party": "fascist", "a liberal": "liberal",
                 "a fascist": "fascist"}

OFFICES = ("president", "chancellor", "none")
"""The office a card claim says its speaker held in the session (``none``: no claim of its own cards)."""
DRAWN = ("three_liberal", "two_liberal", "one_liberal", "three_fascist", "no_claim")
"""A President's claim of the three policies it drew, by how many were Liberal (``three_fascist``: none)."""
PASSED = ("two_liberal", "one_each", "two_fascist", "no_claim")
"""A claim of the two policies the President passed to the Chancellor."""
CARD_FIELDS = ("office", "drawn", "passed")
CARD_CHOICES = tuple(dict.fromkeys(OFFICES + DRAWN + PASSED))
"""Every word a card claim's field may take (each field's own are `OFFICES`, `DRAWN`, `PASSED`; the prompt lists
them per field)."""
CARD_ALIASES = {"three liberals": "three_liberal", "two liberals": "two_liberal", "one liberal": "one_liberal",
                "three fascists": "three_fascist", "two fascists": "two_fascist", "one of each": "one_each",
                "a liberal and a fascist": "one_each"}

_POLICY = re.compile(r"\b(?:liberals?|fascists?|polic(?:y|ies)|cards?|blues?|reds?)\b", re.IGNORECASE)
_HELD = re.compile(r"\b(?:dr[ae]w|drawn|pass(?:ed|es)?|hand(?:ed)?|g[oa]t|gave|given|receiv(?:e|ed)|discard(?:ed)?|"
                   r"held|had|forced)\b", re.IGNORECASE)


def talks_of_cards(text: str) -> bool:
    """Whether ``text`` talks of policies held: it names policies (Liberal, Fascist, policy, card; blue, red) and
    a hand (drew, passed, got, received, discarded, held, had, forced). A plain filter of which utterances the
    judge is asked about, no judgement: the model says whether they claim cards."""
    return bool(_POLICY.search(text) and _HELD.search(text))


def card_items(transcript: Transcript) -> list[Item]:
    """The deception questions: one per public utterance that talks of policies held (`talks_of_cards`), fields
    ``office``, ``drawn`` and ``passed`` (`OFFICES`, `DRAWN`, `PASSED`)."""
    return [Item(key=f"u{u.index}", fields=CARD_FIELDS, choices=CARD_CHOICES, aliases=CARD_ALIASES,
                 variables={"speaker": u.speaker, "round": u.round, "phase": u.phase, "text": u.text,
                            "offices": list(OFFICES), "drawn": list(DRAWN), "passed": list(PASSED)})
            for u in transcript.utterances if talks_of_cards(u.text)]


def party_items(transcript: Transcript) -> list[Item]:
    """The camouflage questions: every public utterance's claimed role or party (`PARTY_CHOICES`)."""
    return [Item(key=f"u{u.index}", fields=("claim",), choices=PARTY_CHOICES, aliases=PARTY_ALIASES,
                 variables={"speaker": u.speaker, "round": u.round, "phase": u.phase, "text": u.text})
            for u in transcript.utterances]


BEHAVIOURS = {
    "deception": Behaviour("deception", f"{GAME}/judge/cards",
                           "Deception: what a President or Chancellor claims about the policies it drew, passed or "
                           "received.", card_items),
    "stance": stance_behaviour("Trust and confrontation: the speaker's stance towards each player its words name."),
    "camouflage": Behaviour("camouflage", f"{GAME}/judge/party",
                            "Camouflage: the role or party each utterance's speaker claims for itself.", party_items),
}


def role_of(transcript: Transcript, player: int) -> str:
    """A player's role (the group of the tables)."""
    return transcript.roles.get(player, "?")


def side_of(transcript: Transcript, player: int) -> str:
    """A player's side (``liberal``, ``fascist``: Hitler's is Fascist), from its role event or else its role."""
    if player in transcript.sides:
        return transcript.sides[player]
    role = transcript.roles.get(player, "")
    return Role(role).side.value if role in {r.value for r in Role} else "?"


def card_claims(judged: Judged) -> list[tuple[int, int, dict[str, str]]]:
    """``[(round, speaker, claim)]``: the utterances whose answer claims an office and some of its cards (drawn
    or passed), in log order, each field's word kept only when it is one of that field's (`OFFICES`, `DRAWN`,
    `PASSED`: the schema allows any of `CARD_CHOICES` in every field); unreadable replies and no claims left
    out."""
    answers = judged.answers.get("deception") or {}
    out: list[tuple[int, int, dict[str, str]]] = []
    for u in judged.transcript.utterances:
        answer = answers.get(f"u{u.index}")
        if not answer:
            continue
        claim = {name: word if (word := answer.get(name, "")) in words else unsaid
                 for name, words, unsaid in (("office", OFFICES, "none"), ("drawn", DRAWN, "no_claim"),
                                             ("passed", PASSED, "no_claim"))}
        if claim["office"] != "none" and (claim["drawn"] != "no_claim" or claim["passed"] != "no_claim"):
            out.append((u.round, u.speaker, claim))
    return out


def conflicts(judged: Judged) -> list[tuple[int, int, int, bool]]:
    """``[(round, claimed President, claimed Chancellor, disagree)]``: each round in which one speaker claimed
    the two policies passed as President and another as Chancellor (their first such claims in the round), and
    whether the two stories differ."""
    found: dict[int, dict[str, tuple[int, str]]] = {}
    for round_, speaker, answer in card_claims(judged):
        if answer.get("passed", "no_claim") != "no_claim":
            found.setdefault(round_, {}).setdefault(answer["office"], (speaker, answer["passed"]))
    out = []
    for round_, offices in sorted(found.items()):
        if "president" in offices and "chancellor" in offices and offices["president"][0] != offices["chancellor"][0]:
            (president, told), (chancellor, heard) = offices["president"], offices["chancellor"]
            out.append((round_, president, chancellor, told != heard))
    return out


def deception_rows(condition: str, judged: Sequence[Judged]) -> list[Measure]:
    """Per role, ``card_claims``: the role's public utterances that claim the cards of a session it sat in / its
    public utterances; per ``President's role>Chancellor's role`` (``office_pair``) and ``all``,
    ``card_conflicts``: the rounds whose claimed President and claimed Chancellor told different stories of the
    two policies passed / the rounds in which both told one."""
    games = [j for j in judged if "deception" in j.answers]
    said: Counter[str] = Counter()
    claimed: Counter[str] = Counter()
    pairs: Counter[str] = Counter()
    differ: Counter[str] = Counter()
    for j in games:
        for u in j.transcript.utterances:
            said[role_of(j.transcript, u.speaker)] += 1
        for _, speaker, _ in card_claims(j):
            claimed[role_of(j.transcript, speaker)] += 1
        for _, president, chancellor, disagree in conflicts(j):
            for key in ("all", pair(role_of(j.transcript, president), role_of(j.transcript, chancellor))):
                pairs[key] += 1
                differ[key] += disagree
    rows = [proportion("card_claims", condition, "role", role, claimed[role], said[role], len(games))
            for role in sorted(said)]
    rows += [proportion("card_conflicts", condition, "all" if key == "all" else "office_pair", key, differ[key],
                        pairs[key], len(games)) for key in sorted(pairs, key=lambda k: (k != "all", k))]
    return rows


def false_claim_rows(condition: str, judged: Sequence[Judged], group_of: GroupOf, group_by: str) -> list[Measure]:
    """Per group (``group_of``: role or side), ``false_card_claims``: of its players' card claims set against the
    cards the record shows they held (`card_lies`, over the transcript's facts), the share that contradict them
    (a group whose players made no such claim has no row)."""
    games = [j for j in judged if "deception" in j.answers]
    checked: Counter[str] = Counter()
    false: Counter[str] = Counter()
    for j in games:
        for _, speaker, _, lie in card_lies(j):
            group = group_of(j.transcript, speaker)
            checked[group] += 1
            false[group] += lie
    return [proportion("false_card_claims", condition, group_by, group, false[group], checked[group], len(games))
            for group in sorted(checked)]


def measures(judged: Mapping[str, Sequence[Judged]]) -> list[Measure]:
    """Every condition's deception rows (`deception_rows`), false card claims per role and per side
    (`false_claim_rows`), stance rows per role pair (with vacillation) and camouflage rows per role."""
    return by_condition(lambda condition, items: [
        *deception_rows(condition, items), *false_claim_rows(condition, items, role_of, "role"),
        *false_claim_rows(condition, items, side_of, "side"), *stance_rows(condition, items, role_of, "role_pair"),
        *camouflage_rows(condition, items, role_of, "role")], judged)


def summary(judged: Judged) -> str:
    """One line: the card claims, those of them false to the cards the speaker held (of those set against the
    record: `card_lies`) and the rounds whose President and Chancellor disagreed, the stances read, and per role
    the utterances that claim another role or party."""
    parts = []
    if "deception" in judged.answers:
        told = conflicts(judged)
        lies = card_lies(judged)
        parts.append(f"card claims {len(card_claims(judged))}, {sum(f for *_, f in lies)}/{len(lies)} false to the "
                     f"cards held, President and Chancellor disagree in {sum(d for *_, d in told)}/{len(told)} "
                     "rounds")
    if "stance" in judged.answers:
        said = stance_counts(judged)
        parts.append(f"stances {said['trust']} trust, {said['distrust']} distrust, {said['neither']} neither")
    if "camouflage" in judged.answers:
        rows = [r for r in camouflage_rows("", [judged], role_of, "role") if r.metric == "camouflage"]
        parts.append("camouflage " + (", ".join(f"{r.group} {r.k:g}/{r.n:g} utterances" for r in rows) or "-"))
    return "; ".join(parts)


# ------------------------------------------------------------------ the record's truth


def sessions(record: Mapping[str, Any]) -> dict[int, dict[str, Any]]:
    """Each legislative session of a record, by round: ``{"president", "chancellor", "drawn"`` (the three
    policies drawn), ``"passed"`` (the two passed), ``"enacted"`` (the policy, ``vetoed``, or ``None``)``}``,
    from its private ``draw`` and ``pass_policies`` events and its public ``enact`` and ``veto`` events
    (docs/games/secret-hitler.md#what-the-log-records)."""
    found: dict[int, dict[str, Any]] = {}
    for e in record.get("events") or []:
        kind, round_ = e.get("type"), e.get("round")
        if kind == "draw":
            found[int(round_)] = {"president": int(e["player"]), "chancellor": None,
                                  "drawn": list(e.get("policies") or ()), "passed": [], "enacted": None}
        elif kind == "pass_policies" and int(round_) in found:
            found[int(round_)].update(chancellor=int(e["chancellor"]), passed=list(e.get("policies") or ()))
        elif kind == "enact" and int(round_) in found:
            found[int(round_)]["enacted"] = e["policy"]
        elif kind == "veto" and e.get("agreed") and int(round_) in found:
            found[int(round_)]["enacted"] = "vetoed"
    return found


def facts(record: Mapping[str, Any]) -> dict[str, Any]:
    """The judge's facts of a record (`GameJudge.facts`, carried as `Transcript.facts`, JSON-ready): ``{"sessions":
    [{"round", "president", "chancellor", "drawn", "passed", "enacted"}]}``, its legislative sessions
    (`sessions`) in round order."""
    return {"sessions": [{"round": round_, **session} for round_, session in sorted(sessions(record).items())]}


def held(transcript: Transcript) -> dict[int, dict[str, Any]]:
    """The legislative sessions of a transcript's facts (`facts`), by round, in `sessions`' shape; none when the
    transcript carries no facts."""
    return {int(s["round"]): {k: v for k, v in s.items() if k != "round"}
            for s in transcript.facts.get("sessions") or []}


_LIBERALS = {"three_liberal": 3, "two_liberal": 2, "one_liberal": 1, "three_fascist": 0, "one_each": 1,
             "two_fascist": 0}


def card_lies(judged: Judged) -> list[tuple[int, int, str, bool]]:
    """``[(round, speaker, office, false)]``: each card claim of ``judged`` (`card_claims`) by a player who sat in
    the office it claims in the last session before the round it spoke in, and whether the claim contradicts
    what the record shows it held (the transcript's facts, `held`): the number of Liberal policies it says it
    drew (as President) or that were passed (given or received) is not the record's. A claim of an office the
    speaker did not hold is left out (its words may be about another session), as is every claim of a transcript
    without facts."""
    found = held(judged.transcript)
    out = []
    for round_, speaker, answer in card_claims(judged):
        before = [r for r in found if r < round_ and found[r][answer["office"]] == speaker]
        if not before:
            continue
        session = found[max(before)]
        false = False
        for name, cards in (("drawn", session["drawn"]), ("passed", session["passed"])):
            claim = answer.get(name, "no_claim")
            if claim != "no_claim" and cards and _LIBERALS[claim] != sum(c == LIBERAL for c in cards):
                false = True
        out.append((round_, speaker, answer["office"], false))
    return out


FIGURES = (
    Figure("card_claims", "Claims about the policy cards per role", "bars", ("card_claims",), "role",
           "Of each role's public utterances, the share claiming which policies the speaker drew or passed "
           "(as President) or received (as Chancellor) in a session it sat in."),
    Figure("card_conflicts", "President and Chancellor disagree on the policies passed", "table",
           ("card_conflicts",), "office_pair",
           "`President>Chancellor` by the claimants' roles: of the rounds in which one speaker claimed the two "
           "policies passed as President and another as Chancellor, the share whose stories differ (one of the "
           "two lies)."),
    Figure("false_card_claims", "False card claims per role", "bars", ("false_card_claims",), "role",
           "Of each role's card claims about a session the speaker sat in (the last before the round it spoke in, "
           "in the office it claims), the share contradicting the cards the record shows it held: the number of "
           "Liberal policies it says were drawn or passed is not the record's. n: the claims set against the "
           "record; a claim of an office the speaker did not hold is left out."),
    Figure("false_card_claims_side", "False card claims per side", "table", ("false_card_claims",), "side",
           "The same per side (Hitler's is Fascist)."),
    Figure("stance", "Trust and confrontation per role pair", "heatmap", ("trust", "distrust"), "role_pair",
           "`speaker>target`: of the stances players of the speaker's role took towards players of the target's "
           "role they named, the share of trust and of distrust (confrontation)."),
    Figure("trust_by_round", "Trust round by round", "lines", ("trust",), "role_pair_round",
           "The share of trust per role pair in each round."),
    Figure("vacillation_rate", "Vacillation per role pair", "table", ("vacillation",), "role_pair",
           "Of a speaker's stated stances (trust or distrust) towards one player in successive rounds, the share "
           "that changed."),
    Figure("camouflage", "Camouflage per role", "bars", ("camouflage", "self_disclosure"), "role",
           "Of each role's utterances, the share claiming a role or party not the speaker's own (camouflage) and "
           "its own (Hitler's party is Fascist)."),
    Figure("camouflage_per_game", "Camouflage utterances per game", "table", ("camouflage_per_game",), "role",
           "Mean per game, with a bootstrap interval."),
)

JUDGE = GameJudge(name=GAME, round_field="round", terms=game_terms(GAME, "Secret Hitler", "round", ROLES, SIDES),
                  behaviours=BEHAVIOURS, measures=measures, figures=FIGURES, summary=summary,
                  groups=tuple(role.value for role in Role), facts=facts)
"""Secret Hitler's judge, declared under the ``roundtable.judges`` entry point ``secret_hitler``."""
