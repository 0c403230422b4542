"""The agents' runtime contexts: prompt templates and temperatures as fields, built alike for every kind (a
`TemplateContext` with the `context_fields` of its prompts and temperatures).

A context class names the templates it carries (``TEMPLATE_FIELDS``: template
name -> field name); any other template is read from its file (not
overridable in that context).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar, Protocol

from pydantic import BaseModel, ConfigDict, Field

from roundtable.prompts.registry import registry


class PromptContext(Protocol):
    """What code shared by several agent kinds needs of a kind's runtime context: its templates' text for this run,
    rendered (`TemplateContext`)."""

    def template(self, name: str) -> str:
        """The text of template ``name`` for this run."""
        ...

    def render(self, name: str, /, **variables: Any) -> str:
        """Render template ``name`` with this run's text."""
        ...

    def has(self, name: str) -> bool:
        """Whether template ``name`` exists for this run."""
        ...

    def describe(self, field: str, **facts: Any) -> str:
        """The description of a JSON answer-schema field."""
        ...


def studio_nodes(kinds: tuple[str, ...], nodes: list[str]) -> list[str]:
    """The nodes a context field's Studio metadata names: the agent graph's own (``act``), the same steps
    as a game graph draws them inside each kind's node (``lga:act``), and those nodes (``lga``)."""
    return [*nodes, *(f"{kind}:{node}" for kind in kinds for node in nodes), *kinds]


def prompt_field(template: str, description: str, kinds: tuple[str, ...], nodes: list[str]) -> Any:
    """A context field holding template ``template``'s text (default: its file), editable in Studio and
    shown at ``studio_nodes(kinds, nodes)``."""
    extra: dict[str, Any] = {"langgraph_nodes": studio_nodes(kinds, nodes), "langgraph_type": "prompt"}
    return Field(default=registry.text(template),
                 description=f"{description} (template {template}.j2, Jinja2, sandboxed)", json_schema_extra=extra)


def temperature_field(default: float, description: str, kinds: tuple[str, ...], nodes: list[str]) -> Any:
    """A context field holding a sampling temperature in [0, 2], shown at ``studio_nodes(kinds, nodes)``."""
    extra: dict[str, Any] = {"langgraph_nodes": studio_nodes(kinds, nodes)}
    return Field(default=default, ge=0.0, le=2.0, description=description, json_schema_extra=extra)


class TemplateContext(BaseModel):
    """Template lookup and rendering over a context's prompt fields."""

    model_config = ConfigDict(extra="forbid")

    TEMPLATE_FIELDS: ClassVar[dict[str, str]] = {}

    def template(self, name: str) -> str:
        """The text of template ``name`` for this run: its field, or the file's text for a template the
        context does not carry.

        Raises:
            PromptNotFoundError: no such template.
        """
        field = self.TEMPLATE_FIELDS.get(name)
        return getattr(self, field) if field is not None else registry.text(name)

    def render(self, name: str, /, **variables: Any) -> str:
        """Render template ``name`` with this run's text."""
        return registry.render(name, source=self.template(name), **variables)

    def describe(self, field: str, **facts: Any) -> str:
        """The description of a JSON answer-schema field (template ``answers/field``)."""
        return self.render("answers/field", field=field, **{"words": None, "name": None, **facts})

    def has(self, name: str) -> bool:
        """Whether template ``name`` exists (a field of this context or a file)."""
        return name in self.TEMPLATE_FIELDS or name in registry.names()


PromptFields = Mapping[str, tuple[str, list[str], str]]
"""A context's prompt fields: ``{field name: (template name, agent nodes that read it, description)}``."""

TemperatureFields = Mapping[str, tuple[float, list[str], str]]
"""A context's temperatures: ``{field name: (default, agent nodes that sample with it, description)}``."""


def context_fields(kinds: tuple[str, ...], prompts: PromptFields, temperatures: TemperatureFields) -> dict[str, Any]:
    """The fields of an agent kind's runtime context, for ``pydantic.create_model``: one per prompt, defaulting to
    its template file's text and carrying Studio's prompt metadata (`prompt_field`), and one per temperature
    (`temperature_field`).

    Args:
        kinds: the agent kinds whose graphs the context serves (Studio's node names).
        prompts: see `PromptFields`.
        temperatures: see `TemperatureFields`.
    """
    fields: dict[str, Any] = {field: (str, prompt_field(template, description, kinds, nodes))
                              for field, (template, nodes, description) in prompts.items()}
    return fields | {field: (float, temperature_field(default, description, kinds, nodes))
                     for field, (default, nodes, description) in temperatures.items()}


def template_fields(prompts: PromptFields) -> dict[str, str]:
    """``{template name: field name}`` of a context's prompt fields (`TemplateContext.TEMPLATE_FIELDS`)."""
    return {template: field for field, (template, _, _) in prompts.items()}
