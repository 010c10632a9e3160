"""Reading an action's arguments: ids, words, whole numbers and free notes."""

from __future__ import annotations

from engine.contract import (
    Action,
    InvalidActionError,
)


def split_ids(text: str) -> list[str]:
    return [part.strip() for part in text.replace(";", ",").split(",") if part.strip()]


def arg_str(action: Action, key: str, default: str | None = None) -> str:
    value = action.args.get(key, default)
    if value is None:
        raise InvalidActionError(f"{action.verb!r} needs the argument {key!r}")
    return str(value)


def arg_int(action: Action, key: str, default: int | None = None) -> int:
    value = action.args.get(key, default)
    if value is None:
        raise InvalidActionError(f"{action.verb!r} needs the argument {key!r} (a whole number)")
    if isinstance(value, bool):
        raise InvalidActionError(f"argument {key!r} must be a whole number, not {value!r}")
    try:
        return int(value)
    except (TypeError, ValueError):
        raise InvalidActionError(f"argument {key!r} must be a whole number, not {value!r}") from None


def action_note(action: Action) -> str:
    return str(action.args.get("note") or action.args.get("label") or "")[:200]


def action_note_text(action: Action) -> str:
    return f" ({action_note(action)})" if action_note(action) else ""
