"""roundtable: language-model agents playing hidden-role games (Avalon, Werewolf) as LangGraph graphs."""

__version__ = "0.1.0"
