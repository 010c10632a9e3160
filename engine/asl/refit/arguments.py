"""What the RePh reads from an action's arguments beyond :mod:`engine.arguments` (which reads and refuses
every argument in one wording for every system): lists of ids, and a free note."""

from __future__ import annotations

from engine import arguments
from engine.contract import Action


def split_ids(text: str) -> list[str]:
    """Ids written with commas or semicolons between them (``B3,B4``), blanks dropped."""
    return [part.strip() for part in text.replace(";", ",").split(",") if part.strip()]


def optional_ids(action: Action, key: str) -> list[str]:
    """The ids an optional argument lists (none when it is absent or empty)."""
    return split_ids(arguments.optional_text(action.args, key) or "")


def action_note(action: Action) -> str:
    """The action's free note (``note``, else ``label``), at most 200 characters."""
    args = action.args
    return (arguments.optional_text(args, "note") or arguments.optional_text(args, "label") or "")[:200]


def action_note_text(action: Action) -> str:
    """The note in brackets after a sentence, or nothing."""
    return f" ({action_note(action)})" if action_note(action) else ""
