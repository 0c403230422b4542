"""The ``infos`` of the PettingZoo environments, whose costly values are computed when read (docs/envs.md#speed).

The view and the observation text of an agent asked something cost far more than a step of the rules (a view
several steps, the text most of a millisecond), and most trainers read neither. `LazyInfo` is a ``dict``
(PettingZoo's API test asks for one) whose ``view`` and ``text`` are computed on their first read, from the state of
the step that made the info, and kept: every way of reading a value (``info[key]``, ``get``, ``items``, ``values``,
``dict(info)``, ``{**info}``, ``|``, ``copy``, equality, ``repr``) gives the computed value, never the placeholder;
``copy.copy``, ``copy.deepcopy`` and pickling give a plain ``dict`` of the computed values.
"""

from __future__ import annotations

from collections.abc import Callable, ItemsView, Iterator, ValuesView
from typing import Any


class Deferred:
    """A value computed by ``compute()`` on the first `get`, then kept (shared by the copies of its info)."""

    __slots__ = ("_compute", "_value")

    def __init__(self, compute: Callable[[], Any]) -> None:
        self._compute: Callable[[], Any] | None = compute
        self._value: Any = None

    def get(self) -> Any:
        """The value (computed now on the first call)."""
        if self._compute is not None:
            self._value, self._compute = self._compute(), None
        return self._value


class Keyed:
    """The values of several keys, each computed by ``build(key)`` on its first read (one object for all the keys
    of an info: ``LazyInfo(dict.fromkeys(keys, Keyed(build)))``)."""

    __slots__ = ("build",)

    def __init__(self, build: Callable[[Any], Any]) -> None:
        self.build = build


def _resolved(key: Any, value: Any) -> Any:
    kind = type(value)
    if kind is Deferred:
        return value.get()
    if kind is Keyed:
        return value.build(key)
    return value


class LazyInfo(dict[str, Any]):
    """A ``dict`` whose `Deferred` and `Keyed` values are computed when first read (module docstring): an agent's
    info, or the ``infos`` of all agents, each built when read.

    Build it with the values in key order, a `Deferred` where the value waits: ``LazyInfo({"player": 3, "view":
    Deferred(lambda: ...)})``.
    """

    __slots__ = ()

    def __getitem__(self, key: str) -> Any:
        value = dict.__getitem__(self, key)
        if type(value) is Deferred or type(value) is Keyed:
            value = _resolved(key, value)
            dict.__setitem__(self, key, value)
        return value

    def get(self, key: str, default: Any = None) -> Any:
        """``info[key]``, or ``default`` when the key is absent."""
        return self[key] if key in self else default

    def __iter__(self) -> Iterator[str]:
        # Overridden (as dict's own) so that dict(info), {**info} and dict.update read values through __getitem__.
        return dict.__iter__(self)

    def items(self) -> ItemsView[str, Any]:  # type: ignore[override]
        """The items, values computed."""
        return ItemsView(self)

    def values(self) -> ValuesView[Any]:  # type: ignore[override]
        """The values, computed."""
        return ValuesView(self)

    def resolved(self) -> dict[str, Any]:
        """A plain ``dict`` of the info, every value computed."""
        return {key: self[key] for key in dict.keys(self)}

    def copy(self) -> LazyInfo:
        """A shallow copy whose waiting values stay waiting (a `Deferred` is computed once for both, a `Keyed` value
        once in each)."""
        return LazyInfo(dict.items(self))

    def pop(self, key: str, *default: Any) -> Any:
        """Remove ``key`` and give its value (computed)."""
        return _resolved(key, dict.pop(self, key, *default))

    def popitem(self) -> tuple[str, Any]:
        """Remove the last item and give it (its value computed)."""
        key, value = dict.popitem(self)
        return key, _resolved(key, value)

    def setdefault(self, key: str, default: Any = None) -> Any:
        """``info[key]``, set to ``default`` first when absent."""
        if key in self:
            return self[key]
        dict.__setitem__(self, key, default)
        return default

    def __or__(self, other: Any) -> Any:
        if not isinstance(other, dict):
            return NotImplemented
        merged = self.copy()
        dict.update(merged, dict.items(other) if isinstance(other, LazyInfo) else other.items())
        return merged

    def __ror__(self, other: Any) -> Any:
        if not isinstance(other, dict):
            return NotImplemented
        return {**other, **self.resolved()}

    def __eq__(self, other: object) -> bool:
        if self is other:
            return True
        return self.resolved() == (other.resolved() if isinstance(other, LazyInfo) else other)

    def __ne__(self, other: object) -> bool:
        return not self == other

    __hash__ = None  # a dict

    def __repr__(self) -> str:
        return repr(self.resolved())

    def __reduce__(self) -> tuple[Any, ...]:
        # copy.copy, copy.deepcopy and pickle give a plain dict of the computed values
        return (dict, (self.resolved(),))
