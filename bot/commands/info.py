"""The information commands a commander asks during play: ``hex``, ``unit``, ``hq``, ``oob``, ``victory``,
``brief``, ``stats``, ``replay``, ``map overlay:combats``, the turn-start report and ``reports`` (its setting).

The command layer (:mod:`bot.commands.layer`) registers these handlers and passes the presses of their buttons
here. Each answer comes from the game system's ``inform`` (:meth:`bot.service.game_service.GameService.info`) as the
asking seat sees the game, and is sent privately as one message (a long one goes whole as an attached file:
:func:`bot.commands.paging.fit`, which the transport applies to every reply).

Buttons and menus (custom id verbs): ``im`` where a unit may move (the reachable overlay); ``io`` one
formation of the order of battle; ``ip`` one past activation; ``ir`` the turn report, for a player whose
direct messages are closed. An answer's buttons that act (attack this hex, dig in ...) are its system's: the
room lists their verbs in its ``press_verbs`` and runs its own commands (:class:`bot.systems.base.Room`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from bot.commands.replies import Attachment, Button, Context, Handler, Reply, Select, custom_id
from bot.service.game_service import Caller, Info, Outcome, Refusal

if TYPE_CHECKING:
    from bot.systems.base import Layer

PRESS_VERBS = frozenset({"im", "io", "ip", "ir"})
"""Custom id verbs of the information buttons and menus."""

INFORM_COMMANDS = frozenset({"hex", "unit", "hq", "oob", "victory", "brief", "stats", "replay", "reports"})
"""The commands answered through the system's ``inform`` (a system without it answers none of them)."""

TURN_REPORTS = "turn_reports"
"""The preference key of the turn-start reports (on unless turned off)."""
DM_PICTURES = "dm_pictures"
"""The preference key of the pictures in a player's direct messages (on unless turned off)."""
CLOSE_UP = "close_up_radius"
"""The preference key of a player's close-up size: hexes round the centre of ``map hex:`` (the system's own
size unless set)."""


def handlers(layer: Layer) -> dict[str, Handler]:
    """The handlers of the information commands."""

    def topic(name: str, key: str | None = None) -> Handler:
        async def handler(ctx: Context, o: dict[str, Any]) -> list[Reply]:
            answer = await layer.service.info(ctx.channel, ctx.caller, name, str(o.get(key, "")) if key else "")
            return await answer_replies(layer, ctx, answer, name)

        return handler

    async def replay(ctx: Context, o: dict[str, Any]) -> list[Reply]:
        key = f"{int(o['turn'])}.{int(o.get('activation', 1))}"
        answer = await layer.service.info(ctx.channel, ctx.caller, "replay", key, seat=o.get("seat"))
        return await answer_replies(layer, ctx, answer, "replay")

    async def oob(ctx: Context, o: dict[str, Any]) -> list[Reply]:
        answer = await layer.service.info(ctx.channel, ctx.caller, "oob", str(o.get("formation", "")))
        return await answer_replies(layer, ctx, answer, "oob")

    async def reports(ctx: Context, o: dict[str, Any]) -> list[Reply]:

        on = bool(o["on"])
        await layer.service.store.set_preference(ctx.caller.user_id, TURN_REPORTS, "on" if on else "off")
        return [Reply("Turn-start reports: " + ("on, by DM (or here if DMs are closed)." if on else "off."))]

    async def prefs(ctx: Context, o: dict[str, Any]) -> list[Reply]:
        store, user = layer.service.store, ctx.caller.user_id
        if o.get("pictures") is not None:
            await store.set_preference(user, DM_PICTURES, "on" if o["pictures"] else "off")
        if o.get("closeup") is not None:
            await store.set_preference(user, CLOSE_UP, str(int(o["closeup"])))
        if o.get("reports") is not None:
            await store.set_preference(user, TURN_REPORTS, "on" if o["reports"] else "off")
        pictures = await store.preference(user, DM_PICTURES) != "off"
        reports = await store.preference(user, TURN_REPORTS) != "off"
        close_up = await store.preference(user, CLOSE_UP)
        return [
            Reply(
                "Your display preferences: pictures in your DMs "
                + ("on" if pictures else "off")
                + "; close-ups "
                + (f"{close_up} hexes round their centre" if close_up else "of the game's own size")
                + "; turn-start reports "
                + ("on" if reports else "off")
                + ". Change them with `prefs pictures:... closeup:... reports:...`."
            )
        ]

    return {
        "prefs": prefs,
        "hex": topic("hex", "hex"),
        "unit": topic("unit", "unit"),
        "hq": topic("hq", "hq"),
        "oob": oob,
        "victory": topic("victory"),
        "brief": topic("brief"),
        "stats": topic("stats"),
        "replay": replay,
        "reports": reports,
    }


async def answer_replies(layer: Layer, ctx: Context, answer: Info, name: str) -> list[Reply]:
    """An answer as a private message, with its picture, buttons and menu."""

    table = await layer.service.table(ctx.channel, live=False)
    game, state = table.game.id, table.game.revision
    buttons = tuple(Button(label[:80], custom_id(game, state, verb, arg)) for label, verb, arg in answer.buttons)
    selects: tuple[Select, ...] = ()
    if answer.menu:
        selects = (Select(custom_id(game, state, answer.menu_verb, "m"), answer.menu_placeholder, answer.menu),)
    files = (Attachment(f"{name}.png", answer.picture),) if answer.picture else ()
    return [Reply(answer.text, files=files, buttons=buttons[:20], selects=selects)]


async def press(layer: Layer, ctx: Context, verb: str, arg: str, state: int, values: Sequence[str]) -> list[Reply]:
    """A press on an information button or menu."""
    if verb == "im":
        return await layer.run("map", ctx, {"overlay": "reachable", "unit": arg})
    if verb == "io":
        formation = values[0] if values else ""
        answer = await layer.service.info(ctx.channel, ctx.caller, "oob", formation)
        return await answer_replies(layer, ctx, answer, "oob")
    if verb == "ip":
        answer = await layer.service.info(ctx.channel, ctx.caller, "replay", arg)
        return await answer_replies(layer, ctx, answer, "replay")
    if verb == "ir":
        answer = await layer.service.info(ctx.channel, ctx.caller, "turn-report", seat=arg)
        return await answer_replies(layer, ctx, answer, "report")
    raise Refusal("this button is not one of mine")


async def map_combats(layer: Layer, ctx: Context, turns: int) -> list[Reply]:
    """``map overlay:combats``: the combats of the last ``turns`` turns."""
    answer = await layer.service.info(ctx.channel, ctx.caller, "combats", str(turns))
    return await answer_replies(layer, ctx, answer, "combats")


# --- Posted by the bot ---------------------------------------------------------------------------------------


async def brief_at_start(layer: Layer, ctx: Context) -> list[Reply]:
    """The scenario's briefing, posted once in the channel when the game starts."""

    try:
        answer = await layer.service.info(ctx.channel, Caller(0), "brief")
    except Refusal:
        return []
    return [Reply(answer.text, to="channel", ephemeral=False, channel=ctx.channel)]


async def turn_reports(layer: Layer, ctx: Context, outcome: Outcome, at_start: bool = False) -> list[Reply]:
    """[2.1] Each player's report of the turn just begun, by DM (with a button in the channel for a player
    whose DMs are closed), unless he turned the reports off; at a new turn, or at the start of the game."""

    began = at_start or any(e.get("kind") == "turn" for e in outcome.events)
    if outcome.result is not None or not began:
        return []
    table = outcome.table
    replies = []
    for seat, row in table.seats.items():
        user = row.user_id
        if user is None or await layer.service.store.preference(user, TURN_REPORTS) == "off":
            continue
        try:
            answer = await layer.service.info(ctx.channel, Caller(user), "turn-report", seat=seat)
        except Refusal:
            return []  # the system writes no turn report
        button = Button("Show my turn report", custom_id(table.game.id, table.game.revision, "ir", seat))
        fallback = Reply(
            f"<@{user}>: I cannot send you direct messages (they are closed). "
            "Use the button to see your turn report here, visible only to you.",
            to="channel",
            ephemeral=False,
            mentions=(user,),
            buttons=(button,),
            channel=ctx.channel,
        )
        report = Reply(answer.text, to="dm", ephemeral=False, user=user, channel=ctx.channel, dm_fallback=fallback)
        replies.append(report)
    return replies
