"""Prompt templates (Jinja2, sandboxed) and the registry that loads them.

Layout: ``avalon/`` game texts (rules, one role card per role), ``lga/`` the
Lan et al. agent's modules, ``extraction/`` the extractor prompts with worked
examples. See `roundtable.prompts.registry`.
"""

from roundtable.prompts.registry import PromptNotFoundError, PromptRegistry, registry, render

__all__ = ["PromptNotFoundError", "PromptRegistry", "registry", "render"]
