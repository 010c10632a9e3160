"""What a command answers: messages (:class:`Reply`) with buttons, select menus, files and pictures.

Every room's handler returns a list of :class:`Reply`: what to answer the caller (ephemeral or not), what to
post in the channel (pinging exactly the players whose input is needed), what to send by DM (with what to
say in the channel if the DM cannot be delivered). The transports (Discord: :mod:`bot.transports.discord_app`; the
terminal: :mod:`bot.transports.console`) deliver them.

Buttons and select menus carry a custom id ``wg:<game>:<state_id>:<verb>:<arg>`` (at most 100 characters):
the state id is the game's revision when the button was posted, so a stale or doubled click is refused.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Literal

from bot.service.game_service import Caller, Refusal, Table
from bot.service.picture_pool import PictureFailed, Superseded
from engine.arguments import closest
from engine.contract import RulesError

CUSTOM_ID = re.compile(r"wg:(?P<game>\d{1,19}):(?P<state>\d{1,19}):(?P<verb>[a-z]{1,4}):(?P<arg>[A-Za-z0-9_.\-]{1,60})")
"""The custom id of every button and select menu of the bot."""

INTERNAL_ERROR = "Something went wrong on my side; nothing changed. The error was logged for the host."
STORE_BUSY = (
    "The board is busy (another move or program holds the game store's lock); nothing changed. Try again in a moment."
)


@dataclass(frozen=True)
class Attachment:
    """A file sent with a message (a map picture)."""

    name: str
    data: bytes


PictureJob = Callable[[], Awaitable[bytes]]
"""A picture decided but not drawn yet: awaiting it draws the PNG (or raises :class:`Refusal`)."""


@dataclass(frozen=True)
class Upload:
    """A file given as a command option (a Discord attachment, or a local file at the console)."""

    name: str
    size: int
    read: Callable[[], Awaitable[bytes]]


@dataclass(frozen=True)
class Button:
    """A button; ``custom_id`` follows :data:`CUSTOM_ID`."""

    label: str
    custom_id: str
    style: Literal["primary", "secondary", "success", "danger"] = "secondary"


@dataclass(frozen=True)
class Select:
    """A select menu of up to 25 (label, value) entries."""

    custom_id: str
    placeholder: str
    entries: tuple[tuple[str, str], ...]


@dataclass(frozen=True)
class FormField:
    """One field of a :class:`Form`: a line of text, or several (``long``)."""

    key: str
    label: str
    placeholder: str = ""
    default: str = ""
    required: bool = True
    long: bool = False
    max_length: int = 1000


@dataclass(frozen=True)
class Form:
    """A form the caller fills in (a Discord modal: at most five fields); ``custom_id`` follows
    :data:`CUSTOM_ID`, its verb is a room's form verb, which gets the values when the form is sent."""

    custom_id: str
    title: str
    fields: tuple[FormField, ...]


@dataclass(frozen=True)
class Fold:
    """How a channel message that tells a seat's action and asks that seat again may be folded into the bot's
    previous message in the channel (edited, not posted anew) when that message has the same ``key`` and is
    still the channel's last: a seat's run of actions then reads as one message. ``account`` is the part of
    the text that stays when the next action of the run is folded in (the prompt after it is replaced)."""

    key: str
    account: str


@dataclass(frozen=True)
class Reply:
    """One message the bot sends.

    ``to`` says where: ``caller`` (the answer to the command, ephemeral when ``ephemeral``), ``channel`` (a
    public post in the game's channel) or ``dm`` (a direct message to ``user``; when it cannot be delivered,
    the channel gets ``dm_fallback`` and a button to answer privately).
    """

    text: str
    to: Literal["caller", "channel", "dm"] = "caller"
    ephemeral: bool = True
    mentions: tuple[int, ...] = ()
    """Users pinged by this message (exactly these)."""
    files: tuple[Attachment, ...] = ()
    buttons: tuple[Button, ...] = ()
    selects: tuple[Select, ...] = ()
    user: int | None = None
    """The addressee of a DM."""
    dm_fallback: Reply | None = None
    channel: int | None = None
    """The game's channel (for DMs and button presses from a DM)."""
    picture: PictureJob | None = None
    """A picture to draw and attach once every answer is sent (:func:`draw_picture`): the message follows."""
    picture_name: str = "map.png"
    """The name of the file the picture job makes (a game's record is a web page: ``game-N-record.html``)."""
    fold: Fold | None = None
    """Set on an acting seat's account merged with its own next prompt, pinging nobody (see :class:`Fold`)."""
    form: Form | None = None
    """A form to open for the caller (the answer to a command that opens forms); ``text`` is what a transport
    without forms shows instead."""


@dataclass(frozen=True)
class Context:
    """Where a command comes from: who, in which channel or thread, in which server."""

    caller: Caller
    channel: int
    guild: int | None = None
    names: Mapping[int, str] = field(default_factory=dict)
    """The server names of the users given as options (a transport that knows them fills it in)."""


Handler = Callable[[Context, dict[str, Any]], Awaitable[list[Reply]]]


async def draw_picture(reply: Reply) -> Reply | None:
    """The reply with its picture drawn and attached (or, when the game has none, a note saying so); ``None``
    when a newer picture of the same game took its place before it was drawn (the newer one is posted)."""
    if reply.picture is None:
        return reply
    try:
        png = await reply.picture()
    except Superseded:
        return None
    except PictureFailed:
        return replace(reply, text=reply.text + " (the map could not be drawn this time; `map` draws it)", picture=None)
    except Refusal as error:
        if reply.picture_name != "map.png":  # a game's record, refused (too large for a message)
            return replace(reply, text=f"{reply.text} ({error})", picture=None)
        return replace(reply, text=reply.text + " (this game has no map picture)", picture=None)
    except RulesError as error:  # an option the drawing refused (an unknown overlay, a hex off the map)
        return replace(reply, text=refusal_text(error), picture=None)
    return replace(reply, files=(*reply.files, Attachment(reply.picture_name, png)), picture=None)


async def with_pictures(replies: Sequence[Reply]) -> list[Reply]:
    """Every reply with its picture drawn (for transports that simply print, like the console); a picture a
    newer one replaced is left out."""
    return [drawn for r in replies if (drawn := await draw_picture(r)) is not None]


def refusal_text(error: RulesError) -> str:
    """A refusal as the player reads it: the reason, then the rule number."""
    reason = getattr(error, "reason", str(error))
    reason = reason[:1].upper() + reason[1:]
    return f"Refused: {reason}" + (f" (rule {error.rule})." if error.rule else ("" if reason.endswith(".") else "."))


def custom_id(game: int, state: int, verb: str, arg: str) -> str:
    """A custom id for a button or select menu of a game."""
    made = f"wg:{game}:{state}:{verb}:{arg}"
    assert len(made) <= 100 and CUSTOM_ID.fullmatch(made), made
    return made


SQLITE_MAX_INTEGER = 2**63 - 1


def parse_custom_id(custom: str) -> re.Match[str] | None:
    """A custom id's parts, or ``None`` when it is not one of ours: a forged id whose game or position
    overflows the store's integers is refused here, before any query."""
    match = CUSTOM_ID.fullmatch(custom)
    if match is None or int(match["game"]) > SQLITE_MAX_INTEGER or int(match["state"]) > SQLITE_MAX_INTEGER:
        return None
    return match


def parse_args(text: str) -> dict[str, Any]:
    """``key=value key2=value2`` into a dict (values stay text).

    :raises Refusal: for a piece without ``=``.
    """
    found: dict[str, Any] = {}
    for piece in text.split():
        key, sep, value = piece.partition("=")
        if not sep or not key:
            raise Refusal(f"write the arguments as key=value, not {piece[:40]!r}")
        found[key] = value
    return found


def unknown_option(command: str, name: str, names: Sequence[str]) -> str:
    """The refusal of an option name ``command`` does not take: the names it takes, and the closest one."""
    close = closest(name, names)
    hint = f" (did you mean {close}?)" if close else ""
    takes = ", ".join(names) or "no options"
    return f"`{command}` has no option {name}{hint}; it takes {takes}. Nothing changed."


def who(table: Table, seat: str) -> str:
    """The mention of a seat's player, ``the computer, LEVEL``, or ``empty``."""
    user = table.user_of(seat)
    if user is None and (level := table.computer_of(seat)) is not None:
        return f"the computer, {level}"
    return f"<@{user}>" if user is not None else "empty"


def seats_line(table: Table) -> str:
    """``Seats: allied: <@1>, german: the computer (normal).``"""

    def holder(seat: str) -> str:
        level = table.computer_of(seat)
        return f"the computer ({level})" if level is not None else who(table, seat)

    return "Seats: " + ", ".join(f"{s}: {holder(s)}" for s in table.seats) + "."
