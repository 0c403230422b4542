"""Agent kind ``naive``: each game's own rule bot (`roundtable.games.protocol.RuleBot`, ``GameRules.bot``), no
model: AvalonBench's in Avalon (docs/agents/naive.md), simple role heuristics in Werewolf. A game that declares no
bot is not played by this kind. The seat option ``flavour`` (`roundtable.agents.naive.options.NaiveOptions`) picks
another bot of the game (``RuleBot.flavours``), e.g. Avalon's ``avalonbench``; the seat option ``words=model`` has
the seat's words written by a model while the bot still decides every action, as AvalonBench's bots spoke with
discussion on (`roundtable.agents.naive.words`, docs/agents/naive.md#words-from-a-model): such a seat plays the
run's model (``AgentKind.model_options``)."""

from collections.abc import Callable
from typing import Any

from langgraph.runtime import Runtime

from roundtable.agents.common.model_calls import FactoryModels, ModelProvider
from roundtable.agents.naive import words
from roundtable.agents.naive.context import NaiveContext
from roundtable.agents.naive.options import FLAVOURS, MODEL_OPTIONS, OURS, TEMPLATE, NaiveOptions
from roundtable.agents.protocol import AgentInput, AgentKind, AgentOutput, agent_context, parse_view, policy_node
from roundtable.games import GAMES
from roundtable.games.errors import ConfigurationError
from roundtable.games.protocol import Decision, Request, RuleBot

BOTS = {name: rules.bot for name, rules in GAMES.items() if rules.bot is not None}


def flavour_bots(flavour: str) -> dict[str, RuleBot]:
    """``{game: bot}``: the bot of ``flavour`` in every game that has one (``ours``: every game's own)."""
    if flavour == OURS:
        return dict(BOTS)
    return {game: bot.flavours[flavour] for game, bot in BOTS.items() if flavour in bot.flavours}


def naive_node(models: ModelProvider | None = None) -> Callable[..., AgentOutput]:
    """The ``naive`` kind's game-graph node: the seat's flavour of the game's bot (`policy_node` of each), its
    words from ``models`` (default: the model factory) for a seat with ``words=model``.

    With template words (the default) the node is the bot's policy node and nothing else. With ``words=model`` it
    returns the same decision but for its words (`with_model_words`), and keeps in the player's pool, beside what
    the bot keeps (``events``), the lines the player has seen and heard (``seen``, ``heard``:
    `roundtable.agents.naive.words.remember`). The node takes the run's `Runtime` when a graph runs it (the
    ``naive`` field of the game's context: `NaiveContext`; ``seeded_calls``), and the defaults when called alone.

    Raises (from the node):
        ConfigurationError: invalid seat options; a flavour the game's bot does not have (the message names the
            games that do); ``words=model`` on a seat with no model, before any model call.
    """
    provider: ModelProvider = models if models is not None else FactoryModels()
    nodes = {}
    for flavour in FLAVOURS:
        bots = flavour_bots(flavour)
        nodes[flavour] = (policy_node("naive", {game: bot.decide for game, bot in bots.items()},
                                      {game: bot.remembers for game, bot in bots.items() if bot.remembers}),
                          frozenset(bots))

    def node(task: AgentInput, runtime: Runtime[Any] | None = None) -> AgentOutput:
        options = NaiveOptions.parse(task["seat"].get("options"))
        play, games = nodes[options.flavour]
        game = str(task["view"].get("game"))
        if game not in games:
            raise ConfigurationError(f"the naive flavour {options.flavour!r} is not played in {game}; games that "
                                     f"have it: {', '.join(sorted(games))}")
        if options.words == TEMPLATE:
            return play(task)
        return with_model_words(task, play, provider, runtime)

    node.__name__ = "naive"
    node.__doc__ = nodes[OURS][0].__doc__
    return node


def with_model_words(task: AgentInput, play: Callable[[AgentInput], AgentOutput], models: ModelProvider,
                     runtime: Runtime[Any] | None) -> AgentOutput:
    """The bot's output for ``task`` (``play``, its policy node) with its words, where the request wants words,
    from one call of the seat's model (`roundtable.agents.naive.words.model_words`), and the player's pool with the
    lines it has seen and heard.

    Raises:
        ConfigurationError: the seat names no model (checked before the bot decides and before any call).
    """
    model = task["seat"].get("model")
    player = str(task["view"].get("player"))
    if not model:
        raise ConfigurationError(f"the naive seat of player {player} has words=model but no model: give it one "
                                 "(--model, an experiment condition's models, or the run's default model)")
    context = agent_context(NaiveContext, "naive", runtime.context if runtime is not None else None)
    seeded = getattr(runtime.context, "seeded_calls", True) if runtime is not None else True
    pool = dict(task["pool"] or {})
    out = play(task)
    view = parse_view(task["view"])
    request = Request.model_validate(task["request"])
    memory = {**((out.get("memory") or {}).get(player) or {}), **words.remember(pool, view)}
    decision = Decision.model_validate(out["decisions"][request.id])
    if request.wants_words and decision.utterance:
        decision = words.model_words(models, context, str(model), view, request, decision, memory["heard"],
                                     int(task["seed"]) if seeded else None)
    return {"decisions": {request.id: decision.model_dump(mode="json")}, "memory": {player: memory}}


KIND = AgentKind(name="naive", description="Rule-based bots: AvalonBench's (quest outcomes only) in Avalon, simple "
                 "role heuristics in Werewolf (no model).", games=frozenset(BOTS), node=naive_node,
                 options=NaiveOptions, context=NaiveContext, model_options=MODEL_OPTIONS,
                 beliefs={game: bot.beliefs for game, bot in BOTS.items() if bot.beliefs is not None})
