"""Play-quality measures of Werewolf records, on hand-built records with known answers (events in the shapes
`roundtable.games.werewolf.rules` logs them)."""

from __future__ import annotations

from typing import Any

from roundtable.metrics.play_quality import play_quality, quality_lines
from roundtable.metrics.quality.table import RULE_GROUP, quality_table

# xu7 as in .roundtable/records/werewolf-6fe2ff6d7d.json: 1 and 2 werewolves, 3 Witch, 4 and 5 Villagers,
# 6 Guard, 7 Seer.
XU7 = ["werewolf", "werewolf", "witch", "villager", "villager", "guard", "seer"]


def record(*events: dict[str, Any]) -> dict[str, Any]:
    return {"game": "werewolf", "status": "finished", "game_id": "werewolf-test",
            "roles": {str(p): r for p, r in enumerate(XU7, start=1)}, "events": list(events), "usage": {"game": {}}}


def night(day: int, alive: list[int] | None = None) -> dict[str, Any]:
    return {"type": "night_start", "to": None, "day": day, "alive": alive or list(range(1, 8))}


def deaths(day: int, *players: int) -> dict[str, Any]:
    return {"type": "deaths", "to": None, "day": day, "players": list(players)}


def said(speaker: int, text: str, day: int = 1, phase: str = "day_talk") -> dict[str, Any]:
    return {"type": "utterance", "to": None, "speaker": speaker, "phase": phase, "day": day, "text": text}


def vote(player: int, target: int | None, day: int = 1) -> dict[str, Any]:
    return {"type": "eliminate", "to": None, "day": day, "player": player, "target": target}


def act(kind: str, by: int, target: int | None, day: int = 1) -> dict[str, Any]:
    return {"type": kind, "to": [by], "day": day, "by": by, "target": target}


def seen(target: int, werewolf: bool, day: int = 1) -> dict[str, Any]:
    return {"type": "seer_result", "to": [7], "day": day, "by": 7, "target": target, "werewolf": werewolf}


def decided(player: int, kind: str, target: int | None = None, fallback: str | None = None,
            thoughts: list[str] | None = None) -> dict[str, Any]:
    event: dict[str, Any] = {"type": "decision", "to": [], "player": player, "request": f"d1.{kind}.p{player}",
                             "kind": kind, "agent": "cga", "target": target}
    if fallback:
        event["fallback"] = fallback
    if thoughts is not None:
        event["thoughts"] = thoughts
    return event


# ------------------------------------------------------------------ talk

STATEMENT = "I observed that Player 1 is the Seer, Player 3 is the Witch, and Player 5 is the Guard."


def test_a_verbatim_copy_is_parroting_and_a_paraphrase_is_not() -> None:
    paraphrase = "From what I saw, the Witch could be Player 3; I have no idea who guards us."
    quality = play_quality(record(said(4, STATEMENT), said(5, STATEMENT), said(6, paraphrase)))
    assert (quality.parroting.hits, quality.parroting.cases) == (1, 3)


def test_a_reflection_said_aloud_is_a_thought_said_aloud() -> None:
    reflection = STATEMENT + " I can also guess that Player 2 is the other werewolf."
    quality = play_quality(record(decided(4, "speak", thoughts=[reflection]), said(4, STATEMENT),
                                  decided(5, "speak", thoughts=[reflection]), said(5, "I trust Player 3 for now.")))
    assert (quality.thoughts_aloud.hits, quality.thoughts_aloud.cases) == (1, 2)


def test_a_tactic_said_to_the_table_is_a_thought_said_aloud_but_not_to_teammates() -> None:
    tactic = "I will not reveal my identity. I trust the Seer."
    night_words = said(1, tactic, phase="werewolves") | {"to": [1, 2]}
    quality = play_quality(record(decided(1, "kill", thoughts=["Kill the Seer."]), night_words,
                                  decided(4, "speak", thoughts=["Player 2 is quiet."]), said(4, tactic),
                                  decided(5, "speak", thoughts=["Player 2 is quiet."]), said(5, "I trust Player 3.")))
    assert (quality.thoughts_aloud.hits, quality.thoughts_aloud.cases) == (1, 3)
    assert "states its tactic 'I will not reveal my identity.'" in quality.examples["thoughts_aloud"][0]


def test_a_werewolf_naming_its_side_or_its_own_number_exposes_itself() -> None:
    quality = play_quality(record(
        said(1, "As a werewolf, I will keep quiet."),  # its side, first person
        said(2, "I can also guess that Player 2 is the other werewolf."),  # its own number
        said(2, "Player 5 is a werewolf, vote him out.", day=2),  # an accusation: nothing given away
        said(4, "I am a werewolf hunter and Player 1 is the other werewolf."),  # a villager: never self-exposure
    ))
    assert (quality.self_exposure.hits, quality.self_exposure.cases) == (2, 4)
    first, second = quality.examples["self_exposure"]
    assert "werewolf side" in first and "own number" in second


def test_the_seer_named_by_a_villager_is_exposed_but_not_by_itself_or_a_wrong_guess() -> None:
    quality = play_quality(record(
        said(4, "I trust Player 7, our Seer."),  # the real Seer named by a Villager: a hit
        said(5, "Player 6 is the Seer."),  # wrong: nothing given away
        said(7, "I am the Seer and Player 7 is the Seer."),  # the Seer's own claim: no hit
        said(1, "Player 7 is the Seer."),  # a werewolf: not the village side, no case
    ))
    assert (quality.merlin_exposed.hits, quality.merlin_exposed.cases) == (1, 3)


def test_once_the_seer_has_claimed_its_role_naming_it_gives_nothing_away() -> None:
    quality = play_quality(record(
        said(4, "I trust Player 7, our Seer."),  # before any claim: a hit
        said(7, "I reveal my role as the Seer: I checked Player 1."),
        said(5, "Player 7 is the Seer, so I follow him."),  # after the claim: no hit
        said(3, "Player 6 claims nothing; I am the Seer."),  # a villager's false claim changes nothing for 7
        said(2, "Player 7 is the Seer."),
    ))
    assert (quality.merlin_exposed.hits, quality.merlin_exposed.cases) == (1, 4)


# --------------------------------------------------------- settled decisions


def rules(quality: Any) -> dict[str, tuple[int, int]]:
    return {k: (s.hits, s.cases) for k, s in quality.settled_rules.items()}


def test_a_werewolf_voting_for_its_teammate_or_itself_goes_against_what_it_knows() -> None:
    quality = play_quality(record(
        night(1), act("kill", 1, 2), act("kill", 2, 4), deaths(1, 4),
        vote(1, 5), vote(2, 1), vote(3, None),
    ))
    assert rules(quality) == {"werewolf kill": (1, 2), "werewolf vote": (1, 2)}
    assert (quality.settled_decisions.hits, quality.settled_decisions.cases) == (2, 4)


def test_at_a_sequential_night_the_second_werewolf_must_join_its_teammates_kill() -> None:
    in_turn = {"rules": {"werewolf_night": "sequential"}}
    nights = (night(1), act("kill", 1, 4), act("kill", 2, None),  # left its teammate alone: no kill
              night(2), act("kill", 1, 5), act("kill", 2, 5),  # joined
              night(3), act("kill", 1, None), act("kill", 2, 3))  # nothing to join
    quality = play_quality(record(*nights) | {"config": in_turn})
    assert rules(quality) == {"werewolf kill": (3, 4), "werewolf joins kill": (1, 2)}  # night 3's first passed
    assert "P2 (werewolf) werewolf joins kill: passed" in quality.examples["settled_decisions"][0]
    # all at once, nobody heard the other's vote: a werewolf named or a pass is wrong
    assert rules(play_quality(record(*nights))) == {"werewolf kill": (4, 6)}


def test_a_witch_poisoning_on_the_first_night_goes_against_what_she_knows() -> None:
    quality = play_quality(record(night(1), act("poison", 3, 7), night(2), act("poison", 3, None, day=2),
                                  night(3), act("poison", 3, 1, day=3)))
    assert rules(quality) == {"witch first night": (0, 1)}  # later nights: nothing cleared, no case
    assert rules(play_quality(record(night(1), act("poison", 3, None)))) == {"witch first night": (1, 1)}


def test_a_werewolf_whose_teammate_is_dead_has_no_settled_day_vote() -> None:
    quality = play_quality(record(night(1), deaths(1, 1), vote(2, 5)))
    assert quality.settled_decisions.cases == 0


def test_a_seer_voting_against_its_own_check() -> None:
    checked_good = play_quality(record(night(1), seen(4, False), vote(7, 4)))
    assert rules(checked_good) == {"seer vote": (0, 1)}
    assert "P7 (seer) seer vote: named 4" in checked_good.examples["settled_decisions"][0]
    # a living werewolf it checked is on the ballot: only a vote for it is right, a pass is not
    passed = play_quality(record(night(1), seen(1, True), vote(7, None)))
    assert rules(passed) == {"seer vote": (0, 1)}
    right = play_quality(record(night(1), seen(1, True), vote(7, 1)))
    assert rules(right) == {"seer vote": (1, 1)}
    # the werewolf it checked is dead: only its good checks settle anything, and a pass respects them
    dead_wolf = play_quality(record(night(1), seen(1, True), seen(4, False), deaths(1, 1), vote(7, None)))
    assert rules(dead_wolf) == {"seer vote": (1, 1)}
    assert play_quality(record(night(1), vote(7, 4))).settled_decisions.cases == 0  # nothing checked


def test_a_witch_poisoning_a_player_the_seer_publicly_cleared() -> None:
    cleared = [night(1), seen(4, False), deaths(1), said(7, "I am the Seer. I checked Player 4: not a werewolf."),
               night(2)]
    poisoned = play_quality(record(*cleared, act("poison", 3, 4, day=2)))
    assert rules(poisoned) == {"witch poison": (0, 1)}
    spared = play_quality(record(*cleared, act("poison", 3, 1, day=2)))
    assert rules(spared) == {"witch poison": (1, 1)}
    # said before the check, or by a player who is not the Seer: nobody is cleared
    early = play_quality(record(night(1), said(7, "Player 4 is not a werewolf."), seen(4, False), night(2),
                                act("poison", 3, 4, day=2)))
    assert early.settled_decisions.cases == 0
    other = play_quality(record(night(1), seen(4, False), said(5, "Player 4 is not a werewolf."), night(2),
                                act("poison", 3, 4, day=2)))
    assert other.settled_decisions.cases == 0


def test_a_pick_naming_a_dead_player() -> None:
    quality = play_quality(record(
        night(1), decided(6, "protect", 7), act("protect", 6, 7), deaths(1, 5),  # nobody dead yet: no case
        decided(4, "eliminate", 5), vote(4, 5),  # the dead Player 5 (a record whose game let it through)
        decided(3, "eliminate", None, fallback="illegal players dropped: player 5 cannot be chosen"), vote(3, None),
        decided(6, "eliminate", 1), vote(6, 1),
    ))
    assert (quality.dead_named.hits, quality.dead_named.cases) == (2, 3)
    assert "named dead player 5" in quality.examples["dead_named"][0]


# --------------------------------------------------------- words and actions


def test_words_naming_one_target_and_a_vote_for_another() -> None:
    quality = play_quality(record(
        said(4, "I vote for Player 5."), said(5, "We should eliminate Player 1."), said(6, "I will not vote yet."),
        said(3, "I will vote to eliminate Player 2."),
        vote(4, 1), vote(5, 1), vote(6, 2), vote(3, None),
    ))
    assert (quality.words_and_actions.hits, quality.words_and_actions.cases) == (1, 3)
    assert quality.examples["words_and_actions"] == [
        "P4 day 1 said 'I vote for Player 5.', voted for 1",
        "P3 day 1 said 'I will vote to eliminate Player 2.', voted to pass"]


def test_night_words_naming_one_victim_and_a_kill_vote_for_another_or_a_pass() -> None:
    def council(speaker: int, text: str) -> dict[str, Any]:
        return said(speaker, text, phase="werewolves") | {"to": [1, 2]}

    quality = play_quality(record(
        night(1),
        council(1, "I will pass on Player 7 as the Seer. I choose Player 4 as the next victim."), act("kill", 1, None),
        council(2, "Our target is Player 4."), act("kill", 2, 4),
        night(2), council(1, "I am not sure yet."), act("kill", 1, 5, day=2),
    ))
    assert (quality.words_and_actions.hits, quality.words_and_actions.cases) == (1, 2)
    assert quality.examples["words_and_actions"] == [
        "P1 night 1 said 'I will pass on Player 7 as the Seer. I choose Player 4 as the next victim.', voted to pass"]


def test_last_words_and_other_days_are_not_paired_with_a_vote() -> None:
    quality = play_quality(record(said(4, "I vote for Player 5.", phase="last_words"), vote(4, 1),
                                  said(6, "I vote for Player 2."), vote(6, 2, day=2)))
    assert quality.words_and_actions.cases == 0


# ------------------------------------------------------------- shown and tabled


def test_show_and_the_report_table_carry_the_werewolf_measures() -> None:
    game = record(night(1), act("kill", 1, 2), act("kill", 2, 4), said(4, STATEMENT), said(5, STATEMENT))
    talk, decisions, by_rule, aids = quality_lines(game)  # no five-rejection line: an Avalon measure
    assert aids.startswith("Small-model aids of the model seats:")
    assert "parroting 1/2 = 50% (target <= 10%, NOT met)" in talk
    assert "knowledge-settled decisions right 1/2 = 50% (target >= 80%, NOT met)" in decisions
    assert by_rule == "Knowledge-settled decisions right, by rule: werewolf kill 1/2 = 50%"
    rows = quality_table({"cga": [game, game | {"game_id": "werewolf-2"}]})
    parroting = next(r for r in rows if r.metric == "parroting")
    assert (parroting.k, parroting.n, parroting.games) == (2, 4, 2)
    assert [(r.group, r.k, r.n) for r in rows if r.group_by == RULE_GROUP] == [("werewolf kill", 2, 4)]


def test_words_stating_their_chain_of_thoughts_conclusion_are_no_thought_said_aloud() -> None:
    """pq-cga-xu7-v4-s1, day 1: the Seer's thought "I think Player 3 is the Seer because ..." and its words "I think
    Player 3 is the Seer." The words are what it chose to say, drawn from its reasoning, not the reasoning read out."""
    thought = ("I think Player 3 is the Seer because Player 3 suspects Player 1 is the Seer and Player 3's role is "
               "not revealed. I should not reveal my role now.")
    dump = "I think Player 3 is the Seer because Player 3 suspects Player 1 is the Seer and Player 3's role is hidden."
    quality = play_quality(record(decided(1, "speak", thoughts=[thought]), said(1, "I think Player 3 is the Seer."),
                                  decided(2, "speak", thoughts=[thought]), said(2, dump)))
    assert (quality.thoughts_aloud.hits, quality.thoughts_aloud.cases) == (1, 2)
    assert "P2" in quality.examples["thoughts_aloud"][0]


def test_words_stating_several_of_the_thoughts_conclusions_and_no_reason_are_no_thought_said_aloud() -> None:
    """pq-cga-xu7-v5-s1, day 1: the Witch's thought "I think Player 3 is a Werewolf, so I suspect Player 3 is the
    Witch. I trust Player 1, who is the Seer ... I suspect Player 4 is the Guard ..." and her words stating three of
    its conclusions (nine 4-grams in common, more than half of hers): what she chose to say."""
    thought = ("I think Player 3 is a Werewolf, so I suspect Player 3 is the Witch. I trust Player 1, who is the Seer "
               "and has clearly implied the roles of Player 4 and Player 7. I suspect Player 4 is the Guard.")
    said_words = "I think Player 3 is a Werewolf. I trust Player 1. I suspect Player 4 is the Guard."
    read_out = "I think Player 3 is a Werewolf, so I suspect Player 3 is the Witch. I trust Player 1."
    quality = play_quality(record(decided(2, "speak", thoughts=[thought]), said(2, said_words),
                                  decided(3, "speak", thoughts=[thought]), said(3, read_out)))
    assert (quality.thoughts_aloud.hits, quality.thoughts_aloud.cases) == (1, 2)
    assert "P3" in quality.examples["thoughts_aloud"][0]
