"""Undo and redo: a bounded history of states, pure and immutable.

A :class:`History` holds the ``present`` state, the states before it (``past``, oldest
first) and the states undone since (``future``, next first). Every change is one step
(:meth:`History.push`); a change made after an undo clears what could be redone, as in
every editor; at most ``limit`` steps are kept. :meth:`History.visit` is the browser's Back
and Forward: the address names a state, and the history moves to it when it holds it (so
Back after a change is an undo, Forward a redo) or records it as a new step.

The playground keeps its :class:`lab.playground.Playground` values here (``ui.state`` owns
the session's history); any immutable value with ``==`` will do.

>>> h = History("a").push("b").push("c")
>>> h.undo().present, h.undo().undo().present, h.undo().redo().present
('b', 'a', 'c')
>>> h.undo().push("d").can_redo  # a new change after an undo: nothing to redo
False
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any, Generic, TypeVar

S = TypeVar("S")

LIMIT = 100  # steps kept: more than a lecture's worth of moves, a few kB per session


@dataclass(frozen=True)
class History(Generic[S]):
    present: S
    past: tuple = ()    # oldest first: undo returns past[-1]
    future: tuple = ()  # next first: redo returns future[0]
    limit: int = LIMIT

    def __post_init__(self):
        if not isinstance(self.limit, int) or self.limit < 1:
            raise ValueError(f"limit must be a whole number of steps ≥ 1; got {self.limit!r}")

    @property
    def can_undo(self) -> bool:
        return bool(self.past)

    @property
    def can_redo(self) -> bool:
        return bool(self.future)

    def push(self, state: S) -> History[S]:
        """``state`` as one new step (nothing changes when it equals the present); what
        could be redone is dropped, and the oldest step once more than ``limit`` are kept.

        >>> h = History(0, limit=2).push(1).push(2).push(3)
        >>> h.past, h.present
        ((1, 2), 3)
        >>> h.push(3) is h
        True
        """
        if state == self.present:
            return self
        past = (self.past + (self.present,))[-self.limit:]
        return replace(self, present=state, past=past, future=())

    def undo(self) -> History[S]:
        """One step back; the same history when there is nothing to undo."""
        if not self.past:
            return self
        return replace(self, present=self.past[-1], past=self.past[:-1],
                       future=(self.present,) + self.future)

    def redo(self) -> History[S]:
        """One step forward again; the same history when there is nothing to redo."""
        if not self.future:
            return self
        return replace(self, present=self.future[0], past=self.past + (self.present,),
                       future=self.future[1:])

    def visit(self, state: S, same: Callable[[S], Any] = lambda s: s) -> History[S]:
        """The history at ``state`` (the browser's Back or Forward to an address):
        undone or redone to the nearest state it holds that is the ``same`` as it (then
        that stored state is present, not ``state``: it keeps its own item ids), else
        ``state`` pushed as a new step.

        >>> h = History("a").push("b").push("c")
        >>> h.visit("a").present, h.visit("a").future
        ('a', ('b', 'c'))
        >>> h.undo().undo().visit("c").past
        ('a', 'b')
        >>> h.visit("A", same=str.lower).present, h.visit("x").past
        ('a', ('a', 'b', 'c'))
        """
        key = same(state)
        if same(self.present) == key:
            return self
        for back, old in enumerate(reversed(self.past), start=1):
            if same(old) == key:
                out = self
                for _ in range(back):
                    out = out.undo()
                return out
        for ahead, new in enumerate(self.future, start=1):
            if same(new) == key:
                out = self
                for _ in range(ahead):
                    out = out.redo()
                return out
        return self.push(state)
