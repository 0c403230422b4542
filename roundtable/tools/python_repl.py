"""The ``Python_REPL`` tool: LangChain-experimental's ``PythonREPLTool`` interface over the sandbox.

Same name, description and contract as ``langchain_experimental.tools.PythonREPLTool``:
one string of Python in (markdown fences and a leading ``python`` are
stripped, as its ``sanitize_input`` does), printed output out, or the error
text; variables persist between calls (until `reset`). Unlike it, the code
runs in a separate sandboxed process (`roundtable.tools.sandbox`), never by
``exec`` in the game's process. Source: Shi et al., *Cooperation on the Fly*
(the CodeAct agent calls a Python REPL tool); langchain-experimental
``langchain_experimental/tools/python/tool.py``.
"""

from __future__ import annotations

import re
from typing import Any

from langchain_core.tools import BaseTool
from pydantic import ConfigDict, Field

from roundtable.tools.sandbox import Sandbox, SandboxUnavailable

_FENCE = re.compile(r"^(\s|`)*(?i:python)?\s*|(\s|`)*$")


def sanitize_input(query: str) -> str:
    """Strip whitespace, backticks and a leading ``python`` (langchain-experimental's ``sanitize_input``)."""
    return _FENCE.sub("", query)


class PythonREPLTool(BaseTool):
    """A Python shell in a sandbox: ``invoke(code) -> printed output``, or the error text (a string either way).

    Raises:
        Nothing for the program's own faults, a timeout or a dead worker (the
        returned text reports them); the tool returns the sandbox's refusal text
        when isolation is unavailable.
    """

    model_config = ConfigDict(arbitrary_types_allowed=True)

    name: str = "Python_REPL"
    description: str = (
        "A Python shell. Use this to execute python commands. Input should be a valid python command. "
        "If you want to see the output of a value, you should print it out with `print(...)`."
    )
    sandbox: Any = Field(default_factory=Sandbox)
    """The `Sandbox` the code runs in (one per agent; see `roundtable.tools.sandbox.sandbox_for`)."""
    sanitize: bool = True

    def _run(self, query: str, run_manager: Any = None) -> str:
        code = sanitize_input(query) if self.sanitize else query
        try:
            result = self.sandbox.run(code)
        except SandboxUnavailable as error:
            return f"SandboxUnavailable: {error}"
        if result.error:
            return f"{result.output}{result.error}" if result.output else result.error
        return result.output

    def reset(self) -> None:
        """Forget the variables of earlier calls (one decision's variables do not reach the next)."""
        self.sandbox.reset()
