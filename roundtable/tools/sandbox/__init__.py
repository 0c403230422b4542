"""A sandboxed Python interpreter for the CodeAct agent: programs run in a separate, confined process.

See docs/agents/codeact.md#the-sandbox.

`Sandbox` (``client``) drives one long-lived worker process (``worker``) that
confined itself with resource limits, Linux namespaces, Landlock and a seccomp
filter (``confine``), all from the standard library, so a plain ``pip
install`` leaves a working sandbox on Linux 5.13+. `isolation` reports what is
in force on this machine (``roundtable doctor``).
"""

from roundtable.tools.sandbox.client import REQUIRED_LAYERS, RunResult, Sandbox, SandboxLimits, SandboxUnavailable
from roundtable.tools.sandbox.pool import close_all, isolation, sandbox_for

__all__ = ["REQUIRED_LAYERS", "RunResult", "Sandbox", "SandboxLimits", "SandboxUnavailable", "close_all",
           "isolation", "sandbox_for"]
