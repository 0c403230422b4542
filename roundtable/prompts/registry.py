"""The one place prompts are loaded and rendered.

Every prompt is a Jinja2 template file under ``roundtable/prompts/``, named by
its path without the ``.j2`` suffix: ``avalon/rules``, ``avalon/roles/merlin``,
``lga/analyze``, ``extraction/team``. Templates render in a
`jinja2.sandbox.SandboxedEnvironment` with `jinja2.StrictUndefined`, so a
template edited in Studio cannot reach Python internals and a misspelt variable
fails loudly instead of rendering as nothing.

Any template's text can be replaced for one run: callers pass ``source=``
(the lga agent takes it from its runtime context, `roundtable.agents.lga.context.LgaContext`).
"""

from __future__ import annotations

import re
from functools import lru_cache
from importlib import resources
from typing import Any

from jinja2 import StrictUndefined, Template
from jinja2.sandbox import SandboxedEnvironment

SUFFIX = ".j2"

_ENV = SandboxedEnvironment(
    undefined=StrictUndefined,
    autoescape=False,
    trim_blocks=True,
    lstrip_blocks=True,
    keep_trailing_newline=False,
)
_BLANK_LINES = re.compile(r"\n{3,}")


class PromptNotFoundError(KeyError):
    """No template of that name (the message lists the known names)."""

    def __str__(self) -> str:  # KeyError quotes its argument otherwise
        return str(self.args[0])


@lru_cache(maxsize=256)
def _compile(source: str) -> Template:
    return _ENV.from_string(source)


class PromptRegistry:
    """The prompt templates shipped in the ``roundtable.prompts`` package.

    Args:
        package: the package whose ``*.j2`` files are the templates.
    """

    def __init__(self, package: str = "roundtable.prompts") -> None:
        self.package = package
        self._texts: dict[str, str] | None = None

    def _load(self) -> dict[str, str]:
        if self._texts is None:
            texts: dict[str, str] = {}
            root = resources.files(self.package)

            def walk(node: Any, prefix: str) -> None:
                for child in sorted(node.iterdir(), key=lambda c: c.name):
                    if child.is_dir():
                        walk(child, f"{prefix}{child.name}/")
                    elif child.name.endswith(SUFFIX):
                        texts[prefix + child.name[: -len(SUFFIX)]] = child.read_text(encoding="utf-8")

            walk(root, "")
            self._texts = texts
        return self._texts

    def names(self) -> list[str]:
        """All template names, sorted (e.g. ``["avalon/roles/assassin", ..., "lga/respond"]``)."""
        return sorted(self._load())

    def text(self, name: str) -> str:
        """The file text of template ``name``.

        Raises:
            PromptNotFoundError: unknown name.
        """
        texts = self._load()
        if name not in texts:
            raise PromptNotFoundError(f"no prompt template {name!r}; known: {', '.join(sorted(texts))}")
        return texts[name]

    def render(self, name: str, /, source: str | None = None, **variables: Any) -> str:
        """Render template ``name`` (or ``source``, its replacement text for this run).

        Runs of blank lines are collapsed to one and the result is stripped.

        Raises:
            PromptNotFoundError: unknown name (when no ``source`` is given).
            jinja2.UndefinedError: the template uses a variable not passed.
            jinja2.exceptions.SecurityError: the template reaches for something the sandbox forbids.
        """
        template = _compile(source if source is not None else self.text(name))
        return _BLANK_LINES.sub("\n\n", template.render(**variables)).strip()


registry = PromptRegistry()
"""The shared registry of the package's templates."""


def render(name: str, /, source: str | None = None, **variables: Any) -> str:
    """`PromptRegistry.render` on the shared `registry`."""
    return registry.render(name, source=source, **variables)
