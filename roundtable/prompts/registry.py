"""The one place prompts are loaded and rendered.

Every prompt is a Jinja2 template file, named by its path without the ``.j2``
suffix: the games' and the shared ones under ``roundtable/prompts/``
(``avalon/rules``, ``avalon/roles/merlin``, ``extraction/pick``), and each agent
kind's in its own folder, declared under the ``roundtable.prompts`` entry-point
group as ``<kind> = "<package>.prompts"`` and named ``<kind>/...``
(``roundtable/agents/lga/prompts/analyze.j2`` is ``lga/analyze``), so a kind
from another package ships its prompts the same way. Templates render in a
`jinja2.sandbox.SandboxedEnvironment` with `jinja2.StrictUndefined`, so a
template edited in Studio cannot reach Python internals and a misspelt variable
fails loudly instead of rendering as nothing.

Any template's text can be replaced for one run: callers pass ``source=``
(the lga agent takes it from its runtime context, `roundtable.agents.lga.context.LgaContext`).
"""

from __future__ import annotations

import importlib.util
import re
import threading
from enum import Enum
from functools import lru_cache
from importlib.metadata import entry_points
from pathlib import Path
from typing import Any

from jinja2 import StrictUndefined, Template
from jinja2.sandbox import SandboxedEnvironment

from roundtable.prompts.sources import record

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


RENDER_CACHE = 2048
"""How many renders are kept: a template rendered again with the same text and variables (the same system prompt
for each of a decision's calls, each in a node of its own) is not rendered twice."""
_RENDERED: dict[tuple[Any, ...], str] = {}
_RENDERED_LOCK = threading.Lock()
_PLAIN = (str, int, float, bool, type(None), Enum)


def _frozen(value: Any) -> Any:
    """``value`` as a hashable key of what it holds: plain values and enums as they are, lists and tuples as tuples,
    dicts as sorted items, sets as frozensets.

    Raises:
        TypeError: any other value (an object whose content a key could not follow: the render is not cached).
    """
    if isinstance(value, _PLAIN):
        return (type(value), value)
    if isinstance(value, list | tuple):
        return (tuple, tuple(_frozen(v) for v in value))
    if isinstance(value, dict):
        return (dict, tuple(sorted((str(k), _frozen(v)) for k, v in value.items())))
    if isinstance(value, set | frozenset):
        return (frozenset, frozenset(_frozen(v) for v in value))
    raise TypeError(type(value).__name__)


def _render_key(text: str, variables: dict[str, Any]) -> tuple[Any, ...] | None:
    """The cache key of rendering ``text`` with ``variables``, or None when a variable is not a plain value."""
    try:
        return (text, _frozen(variables))
    except TypeError:
        return None


def render_text(text: str, variables: dict[str, Any]) -> str:
    """Render template text with ``variables``: runs of blank lines collapsed to one, the result stripped (the
    rendering itself, which `PromptRegistry.render` skips for a render it has done)."""
    return _BLANK_LINES.sub("\n\n", _compile(text).render(**variables)).strip()


def package_dir(dotted: str) -> Path:
    """The folder of package ``dotted`` (``"roundtable.agents.lga.prompts"``), found by importing only its
    top-level package: a kind's package imports its prompt context, which reads the registry, so importing it
    from here could run in the middle of its own import.

    Raises:
        PromptNotFoundError: no such top-level package or folder.
    """
    top, *rest = dotted.split(".")
    spec = importlib.util.find_spec(top)
    if spec is None or not spec.submodule_search_locations:
        raise PromptNotFoundError(f"no package {top!r} for prompts {dotted!r}")
    folder = Path(next(iter(spec.submodule_search_locations))).joinpath(*rest)
    if not folder.is_dir():
        raise PromptNotFoundError(f"no prompt folder {folder} for {dotted!r}")
    return folder


class PromptRegistry:
    """The prompt templates: those of the ``roundtable.prompts`` package and of every agent kind's folder.

    Args:
        package: the package whose ``*.j2`` files are the templates with no prefix.
        group: the entry-point group naming the other folders (``None``: none).
    """

    def __init__(self, package: str = "roundtable.prompts", group: str | None = "roundtable.prompts") -> None:
        self.package = package
        self.group = group
        self._texts: dict[str, str] | None = None

    def roots(self) -> list[tuple[str, Path]]:
        """``[(name prefix, folder)]``: ``package``'s folder (no prefix), then each folder declared under the
        entry-point ``group`` (prefix ``<name>/``), found without importing the package that holds it."""
        found = [("", package_dir(self.package))]
        if self.group is not None:
            found += [(f"{point.name}/", package_dir(point.value))
                      for point in sorted(entry_points(group=self.group), key=lambda p: p.name)]
        return found

    def _load(self) -> dict[str, str]:
        if self._texts is None:
            texts: dict[str, str] = {}
            for prefix, root in self.roots():
                for path in sorted(root.rglob(f"*{SUFFIX}")):
                    name = prefix + path.relative_to(root).as_posix()[: -len(SUFFIX)]
                    if name in texts:
                        raise PromptNotFoundError(f"prompt template {name!r} is declared twice ({path})")
                    texts[name] = path.read_text(encoding="utf-8")
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

        Runs of blank lines are collapsed to one and the result is stripped. A render done before with the same text
        and plain variables is taken from `RENDER_CACHE` (it is still recorded, `roundtable.prompts.sources`).

        Raises:
            PromptNotFoundError: unknown name (when no ``source`` is given).
            jinja2.UndefinedError: the template uses a variable not passed.
            jinja2.exceptions.SecurityError: the template reaches for something the sandbox forbids.
        """
        text = source if source is not None else self.text(name)
        record(name)
        key = _render_key(text, variables)
        if key is not None and (done := _RENDERED.get(key)) is not None:
            return done
        out = render_text(text, variables)
        if key is not None:
            with _RENDERED_LOCK:
                if len(_RENDERED) >= RENDER_CACHE:
                    _RENDERED.pop(next(iter(_RENDERED)))  # the oldest first
                _RENDERED[key] = out
        return out


registry = PromptRegistry()
"""The shared registry of the package's templates."""


def render(name: str, /, source: str | None = None, **variables: Any) -> str:
    """`PromptRegistry.render` on the shared `registry`."""
    return registry.render(name, source=source, **variables)
