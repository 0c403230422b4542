"""The text heuristics the play-quality measures and the agents' checks share: who gives itself away, who is
named as holding a role, whom a statement votes for."""

from __future__ import annotations

import pytest

from roundtable.detectors.exposure import named_good, named_role_holders, sentences, werewolf_exposes
from roundtable.detectors.words import (
    exposes,
    named_kill_target,
    named_vote_target,
    stated_stance,
    stated_tactic,
)
from roundtable.games.avalon import Role
from roundtable.games.werewolf import Role as WRole

# ------------------------------------------------------------ werewolf side


@pytest.mark.parametrize("text", [
    "I am a werewolf, but I will help you.",
    "I will not say that I am a werewolf.",  # the cga talk: said by a werewolf, it says it all the same
    "I will not say that my teammate is a werewolf.",
    "My fellow werewolf and I agree on Player 4.",
    "We werewolves must stay hidden.",
    "We will kill Player 3 tonight.",
    "I should hide among the villagers and cast suspicion on others.",
    "As a werewolf, I see no reason to vote.",
])
def test_a_werewolf_naming_its_side_in_the_first_person_exposes_itself(text: str) -> None:
    assert werewolf_exposes(text, WRole.WEREWOLF, 2, [1]) == "werewolf side"


@pytest.mark.parametrize("text", [
    "I can also guess that Player 2 is the other werewolf.",  # the example, said by Player 2
    "Players 1 and 2 are werewolves.",
    "Player 2 is a werewolf, I admit it.",
])
def test_a_werewolf_naming_its_own_number_exposes_itself(text: str) -> None:
    assert werewolf_exposes(text, "werewolf", 2, [1]) == "own number"


def test_the_other_werewolf_phrasing_implies_the_speakers_side() -> None:
    assert werewolf_exposes("Player 1 is the other werewolf.", WRole.WEREWOLF, 2, [1]) == "teammate implied"
    assert werewolf_exposes("Someone here is the other werewolf.", WRole.WEREWOLF, 2, [1]) == "teammate implied"


@pytest.mark.parametrize("text", [
    "I am not a werewolf.",
    "Player 5 is a werewolf; vote him out.",
    "Player 4 is a werewolf and Player 3 is the other werewolf.",  # two accusations, not a confession
    "We must kill the werewolves before they kill us.",
    "Player 4 said Player 2 is a werewolf, but he is wrong.",
    "I am a simple villager; Player 2 is innocent.",
])
def test_a_werewolf_denying_or_accusing_does_not_expose_itself(text: str) -> None:
    assert werewolf_exposes(text, WRole.WEREWOLF, 2, [1]) is None


def test_only_a_werewolf_can_expose_the_werewolf_side() -> None:
    assert werewolf_exposes("I am a werewolf.", WRole.SEER, 7, []) is None
    assert werewolf_exposes("Player 2 is the other werewolf.", "villager", 2, []) is None


# ------------------------------------------------------- Avalon: own number


def test_an_evil_avalon_player_naming_its_own_number_as_evil_exposes_itself() -> None:
    assert exposes("Player 5 is evil, as you all know.", Role.MORGANA, [6], player=5) == "own number"
    assert exposes("Player 6 and Player 5 are evil.", Role.ASSASSIN, [5], player=5) == "own number"
    assert exposes("Player 6 is the other evil player.", Role.MORGANA, [6], player=5) == "evil side"


def test_an_evil_player_accusing_another_or_without_its_number_is_not_exposed() -> None:
    assert exposes("Player 5 is evil.", Role.MORGANA, [6]) is None  # no number given: the old rule
    assert exposes("Player 3 is evil.", Role.MORGANA, [6], player=5) is None
    assert exposes("Player 2 said Player 5 is evil, he is wrong.", Role.MORGANA, [6], player=5) is None
    assert exposes("Player 3 is evil and Player 4 is the other evil player.", Role.MORGANA, [6], player=5) is None


def test_merlin_naming_his_own_number_as_merlin_exposes_him() -> None:
    assert exposes("Trust me: Player 1 is Merlin.", Role.MERLIN, [5, 6], player=1) == "merlin"
    # cga's Merlin on lan6 (pq-cga-lan6-v8-s4)
    assert exposes("I think Player 5's team is Player 1 (the real Merlin, the good player).", Role.MERLIN, [5, 6],
                   player=1) == "merlin"
    assert exposes("Player 2 is Merlin.", Role.MERLIN, [5, 6], player=1) is None


# ------------------------------------------------------------ role holders


@pytest.mark.parametrize("text", [
    "I support it because Player 6 is Merlin.",
    "Merlin is Player 6.",
    "Player 6, our Merlin, should lead.",
    "I know Player 6 is Merlin.",
    "Player 6 is clearly Merlin.",
    "Player 6 (Merlin) and Player 2 go.",
    "I believe Player 6 is Merlin, as Percival sees you as a possible Merlin.",
    "I support the team because it includes Merlin (Player 6).",
    # a cot avalonplay game's Servants (smoke-cot-ap)
    "I suggest rejecting the team with players 1 and 3, as Player 6, as Merlin, would likely fail the quest.",
    "I support Player 6's team. I know Player 6 is known for Merlin and would likely succeed the quest.",
    # cga's formula on lan6 (pq-cga-lan6-s1, 29 of 109 utterances)
    "I think Player 6 is playing Merlin.",
    "Player 6 is playing as Merlin, and Player 1 is playing the Assassin.",
    # cga's Servant on lan6 (pq-cga-lan6-v8-s4), and its seed-1 Merlin of himself
    "I think Player 5's team is Player 6 (the real Merlin).",
    "Player 6, the true Merlin, should lead.",
    "Player 5's team is rejected due to their involvement in Player 6, who is Merlin.",
])
def test_statements_that_a_player_is_merlin(text: str) -> None:
    assert named_role_holders(text, "merlin") == (6,)


@pytest.mark.parametrize("text", [
    "Player 6 might be Merlin.",
    "Maybe Player 6 is Merlin.",
    "Player 6 is likely Merlin.",
    "I don't think Player 6 is Merlin.",
    "Player 6 is not Merlin.",
    "Player 6 claims to be Merlin.",
    "Player 6 is Merlin or Morgana.",
    "Is Player 6 Merlin? Player 6 is Merlin?",
    "I know that Merlin is Merlin.",
    "Player 6 is Merlin's friend.",
    "I support it because it is likely that Merlin is Player 6.",
    "It includes Merlin (likely Player 6).",
    "Player 6 is probably playing Merlin.",
    "Player 6 is playing Merlin's game.",
    "Player 5's team is likely Merlin (Player 6).",
    "Player 6, Merlin and Percival go.",
    "Player 6 (the real Merlin's friend) goes.",
])
def test_guesses_denials_and_questions_name_no_role_holder(text: str) -> None:
    assert named_role_holders(text, "merlin") == ()


@pytest.mark.parametrize(("text", "named"), [
    # codeact's Servants on the leader, Player 4, who was Merlin (the AvalonPlay reproduction's codeact-s0000)
    ("I believe that Merlin is the leader and that his presence might attract suspicion.", (4,)),
    ("I support the team, players 4 and 2. Merlin is the clear leader, and the other players are well-supported.",
     (4,)),
    ("Merlin is known as the leader but his presence might cause suspicion, so I support it.", (4,)),
    ("The leader is Merlin.", (4,)),
    ("I think Merlin is likely the leader and his presence might draw suspicion.", ()),
    ("Merlin is the most likely leader.", ()),
    ("Merlin is a possible lead.", ()),
    ("The next leader is Merlin.", ()),
    ("Merlin is on the leader's team.", ()),
])
def test_the_leader_named_as_merlin_names_the_current_leader(text: str, named: tuple[int, ...]) -> None:
    assert named_role_holders(text, "merlin", leader=4) == named
    assert named_role_holders(text, "merlin") == (), "no leader known: no player named"


def test_the_seer_named_in_werewolf() -> None:
    assert named_role_holders("The Seer is Player 7. Player 3 is the Witch.", "seer") == (7,)
    assert named_role_holders("Player 7, the Seer, checked Player 1.", "Seer") == (7,)
    assert named_role_holders("Player 3 is the Witch.", "seer") == ()
    assert named_role_holders("I suspect Player 1 is the Seer.", "seer") == (1,), "a belief, as 'I think'"
    assert named_role_holders("I wonder if Player 1 is the Seer.", "seer") == ()


@pytest.mark.parametrize("text", [
    "Player 3 is good.",
    "I checked Player 3 and he is not a werewolf.",
    "I checked Player 3: innocent.",
])
def test_a_seer_clearing_a_player(text: str) -> None:
    assert named_good(text) == (3,)


@pytest.mark.parametrize("text", ["Player 3 is not good.", "I don't think Player 3 is innocent.",
                                  "Player 3 might be good.", "Player 3 is a werewolf.", "Is Player 3 good?"])
def test_no_player_cleared(text: str) -> None:
    assert named_good(text) == ()


# -------------------------------------------------------------- vote targets


@pytest.mark.parametrize(("text", "target"), [
    ("I vote for Player 5.", 5),
    ("We should eliminate Player 5 today.", 5),
    ("I will vote to eliminate Player 5.", 5),
    ("Let's vote out Player 2!", 2),
    ("My vote goes to Player 6.", 6),
    ("I'm voting for Player 1.", 1),
    ("Player 4 should be eliminated.", 4),
    ("Vote for Player 2, everyone.", 2),
    ("I voted for Player 5 yesterday. Today I vote for Player 3.", 3),
    ("Don't vote for Player 5. I think we should eliminate Player 2.", 2),
])
def test_the_target_a_statement_votes_for(text: str, target: int) -> None:
    assert named_vote_target(text) == target


@pytest.mark.parametrize("text", [
    "I will not vote for Player 5.",
    "If Player 3 lies, I vote for Player 3.",
    "Should we eliminate Player 4?",
    "Player 5 is suspicious.",
    "I voted for Player 5 yesterday.",
])
def test_no_vote_stated(text: str) -> None:
    assert named_vote_target(text) is None


def test_sentences_split_at_ends_and_lines() -> None:
    assert sentences("One. Two? Three!\nFour") == ["One.", "Two?", "Three!", "Four"]
    assert sentences("  ") == []


@pytest.mark.parametrize("text", [
    "No player of my side you know of are on this team. So your side wants itrejected.",  # a lan6 game, Morgana
    "Nobody from my side is on this team.",
    "My side wants it rejected.",
])
def test_an_evil_player_speaking_of_who_is_on_its_side_exposes_it(text: str) -> None:
    assert exposes(text, Role.MORGANA, [2], player=3) == "evil side"


@pytest.mark.parametrize("text", ["I am on the side of the good players.", "Which side are you on, Player 4?",
                                  "Player 2 sided with Player 5 on quest 1."])
def test_talk_of_sides_that_claims_no_knowledge_of_ones_own_does_not_expose(text: str) -> None:
    assert exposes(text, Role.MORGANA, [2], player=3) is None


@pytest.mark.parametrize(("text", "role"), [
    ("I protect Player 2. I protect Player 5. I protect Player 3.", WRole.GUARD),  # the embedded model, xu7 day 1
    ("I will poison Player 4 tonight if he keeps lying.", WRole.WITCH),
    ("I used my antidote on Player 6 last night.", WRole.WITCH),
    ("We should protect Player 1, the Seer.", WRole.GUARD),
    ("I check Player 4. If they're a werewolf, I reveal that I am the Seer.", WRole.SEER),  # embedded, xu7 day 1
    ("Tonight I will inspect player #2.", WRole.SEER),
    ("I am Player 2, the Witch. Player 4 is likely a werewolf. Poison Player 4.", WRole.WITCH),  # embedded, xu7
])
def test_a_witch_or_guard_saying_its_night_action_aloud_gives_it_away(text: str, role: WRole) -> None:
    assert werewolf_exposes(text, role, 3, []) == "night action"


@pytest.mark.parametrize(("text", "role"), [
    ("I think Player 4 is a werewolf; let us vote him out.", WRole.WITCH),
    ("Player 2 should be protected by whoever can.", WRole.GUARD),
    ("I protect Player 2.", WRole.VILLAGER),  # a villager has no night action to give away
    ("I checked Player 4 last night: a werewolf.", WRole.SEER),  # a Seer may disclose its checks
    ("I will check Player 4 tonight.", WRole.WITCH),
    ("The werewolves may poison Player 4's mind against us.", WRole.WITCH),
    ("I am the Witch.", WRole.WITCH),  # a role claimed is a choice the player may make
])
def test_other_words_or_other_roles_give_no_night_action_away(text: str, role: WRole) -> None:
    assert werewolf_exposes(text, role, 3, []) is None


@pytest.mark.parametrize(("text", "target"), [
    ("I will pass on Player 7 as the Seer. I will choose Player 1 as the next victim.", 1),  # embedded model
    ("Let's kill Player 4 tonight.", 4),
    ("Let us attack Player 2.", 2),
    ("Our target is Player 3.", 3),
    ("Player 5 should die tonight.", 5),
    ("I think Player 3 is the Seer; I will vote to kill Player 3.", 3),
    ("Tonight I will go after Player 6, then Player 2.", 6),
    ("Player 1 to kill. I pass.", 1),  # embedded model, cga seed 1: then it passed
    ("Player 2 is our target tonight.", 2),
    ("I can cast suspicion on Player 2 and Player 3 and then kill Player 2.", 2),  # cga, pq-cga-xu7-v5-s1: it voted 3
    ("We could kill Player 5.", 5),
])
def test_kill_target_stated(text: str, target: int) -> None:
    assert named_kill_target(text) == target


@pytest.mark.parametrize("text", [
    "I will not kill Player 3.",
    "I pass on Player 5.",
    "If we kill Player 3, the Seer is safe.",
    "Kill Player 2?",
    "Player 4 is the Seer.",
    "Player 4 is the target of the village's suspicion.",
    "Player 4 is not our target.",
])
def test_no_kill_stated(text: str) -> None:
    assert named_kill_target(text) is None


@pytest.mark.parametrize("text", [
    # the smoke game's cga Avalon talk (/work/runs/smoke) and pq-cga-xu7-v2-s1's Werewolf talk
    "I choose to lead proposal 1 with players 3 and 6. I will draw suspicion by hinting that I am Merlin.",
    "I propose players 3 and 6. I will hint at the possibility of Merlin.",
    "I will draw suspicious by hinting at a possibility that I am either Merlin or Morgana.",
    "I will not reveal myself. I will trust the Seer.",
    "I'll pretend to be a loyal servant.",
    "I should blend in with the others.",
    "I support it without revealing my role.",
    "I will try to cast suspicion on Player 3.",
    "I will avoid raising suspicion.",
    "I will keep my tactics to myself.",  # the Host's note said back (pq-cga-xu7-v2-s2)
    "I hint that I might be Merlin to draw suspicion.",  # a cga Percival's first words on lan6 (69a3dd5)
    "I am pretending to be a loyal servant.",
    "I will play as a Loyal Servant of Arthur and try to make the team fail.",  # pq-cga-lan6-s2's Morgana
    "As Percival believes I is Merlin, I should not play as Merlin.",
    "I'm posing as a villager.",
    "Player 6 is Merlin. I believe this will keep my role secret.",  # pq-cga-lan6-s1's Assassin
])
def test_a_tactic_stated_in_the_first_person(text: str) -> None:
    tactic = stated_tactic(text)
    assert tactic is not None and tactic in text


@pytest.mark.parametrize("text", [
    "I support Player 5's team. I believe they are the best choice.",
    "I will vote to eliminate Player 3.",
    "I will not vote for this team.",
    "I suspect Player 3 is hiding something.",
    "Player 2 is trying to draw suspicion onto me.",
    "I will avoid suspicious teams.",
    "They hint that Player 4 is Merlin.",
    "I hinted nothing; Player 4 is the one bluffing.",
    "I will reveal that I am the Seer: Player 3 is a werewolf.",
    "I will act as the leader and propose players 1 and 2.",
    "I am a Loyal Servant of Arthur, and I play to win.",
])
def test_no_tactic_stated(text: str) -> None:
    assert stated_tactic(text) is None


# ------------------------------------------------------------ stance on the team


@pytest.mark.parametrize(("text", "stance"), [
    # archived lga, react and codeact talk (benchmarks/results/)
    ("I support it because Player 6 is the leader.", True),
    ("I strongly support the Team 4, 2.", True),
    ("I support the team with players 2 and 3.", True),
    ("I support Player 4's team because their team has no evil players.", True),
    ("I think Player 6's team is suggested: players 4, 1, 5. I support this team and want to vote for it.", True),
    ("I will vote for it.", True),
    ("I approve this team.", True),
    ("I reject it.", False),
    ("I will vote against this team.", False),
    ("I do not support the proposal.", False),
    ("I won't approve it.", False),
    ("I can't support Player 3's team.", False),
    ("I'm going to reject it.", False),
    ("I oppose the team, Player 4 failed a quest.", False),
    ("I would not send players 1 and 5.", False),  # the naive bots' words
    ("I support players 1 and 5.", True),
    # cga's wording: what should become of the team (pq-cga-lan6-v8-s1, quests 1-3)
    ("I think Player 2's team players 1, 3, 4 should be approved.", True),
    ("I think Player 4's team players 2, 4, 5, 6 should be supported.", True),
    ("I think Player 1's team, players 1, 4, should be rejected.", False),
    ("I think Player 6's team should not besupported because it involves Player 2.", False),
    ("The team should not be rejected.", True),
    ("It must be rejected.", False),
])
def test_a_stance_on_the_team_stated_in_the_first_person(text: str, stance: bool) -> None:
    assert stated_stance(text) is stance


@pytest.mark.parametrize("text", [
    "I support Merlin.",  # a player, not a team
    "I support the team but I will not vote for it.",  # both ways
    "I might support it.",
    "I would support it if Player 2 were off.",
    "Do you support it?",
    "I trust Player 5.",
    "Player 3 will reject it.",
    "I propose players 1 and 2.",
    "This team should be approved by Player 3.",  # others' stance
    "I think Player 4, the Loyal Servant of Arthur, should be approved.",  # a player, not a team
    "The next team should be approved if it has Player 2.",
])
def test_no_stance_stated(text: str) -> None:
    assert stated_stance(text) is None


@pytest.mark.parametrize("text", [
    # codeact's Morgana, round 1 of the AvalonPlay reproduction's codeact-s0000 played again on 2f105a8
    "I am the player of the Assassin, so Percival won't be able to tell what I am.",
    "I am the one playing Morgana.",
    "As the player of the Assassin, I will reject it.",
    # codeact's Minion, round 2 of the same game
    "I support this proposal because it's the best chance for us to fail three quests and secure our victory.",
    # cga's Assassin, quest 1 of pq-cga-lan6-v8-s3 (on 7dd3dbb)
    "I hope this approach will allow me to fail the quests and win the game.",
    "This team lets us sabotage the quest.",
])
def test_an_evil_player_calling_itself_the_player_of_an_evil_role_exposes_it(text: str) -> None:
    assert exposes(text, Role.MORGANA, [2], player=3) == "evil side"
    assert exposes("I am a player of this team.", Role.MORGANA, [2], player=3) is None
    assert exposes("We must make sure they do not fail three quests.", Role.MORGANA, [2], player=3) is None
    assert exposes("This team will not allow us to fail the quest.", Role.MORGANA, [2], player=3) is None
    assert exposes("Don't let us fail this quest.", Role.MORGANA, [2], player=3) is None


@pytest.mark.parametrize(("text", "exposed"), [
    # cga's Morgana, quest 3 of pq-cga-lan6-v8-s1 (its first play, on 0249255)
    ("Player 5 is the Assassin, so we need to find a way for the Assassin to find Merlin.", True),
    ("We must help the Assassin find Merlin.", True),
    ("We cannot let the Assassin find Merlin.", False),
    ("We must keep Merlin hidden from the Assassin.", False),
    ("Player 2 wants to help the Assassin find Merlin.", False),  # an accusation
])
def test_an_evil_player_wanting_the_assassin_to_find_merlin_exposes_its_side(text: str, exposed: bool) -> None:
    assert (exposes(text, Role.MORGANA, [2], player=3) == "evil side") is exposed
    assert exposes(text, Role.SERVANT, [], player=3) is None


def test_merlin_calling_himself_the_player_of_merlin_exposes_him() -> None:
    assert exposes("I am the player of Merlin, trust me.", Role.MERLIN, [5], player=1) == "merlin"
