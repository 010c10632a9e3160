"""The Ardennes Wargame Commander's own commands and clock: the frame report (a file, a text or a form), its
timed dispute window, the basing plan from a file, the plan sheets and the score ledger.

- ``frame report`` - the campaign manager (a moderator holding the ``cm`` seat) enters a flown frame's report
  from a CSV or JSON file posted in the channel (``url``) or a short text (``text``, ``\\n`` for new lines);
  during the dispute window the same command corrects it. Every bad line is listed; nothing changes then.
- ``frame form`` - the same report in a form (a Discord modal of five fields, filled with the report under
  dispute when correcting it); its fields may also be given as the command's options.
- ``frame window`` - how long the Frame COs may dispute a report (4.2d, a setting of the series).
- ``frame accept`` / ``frame dispute`` (and the Accept button) - the Frame COs' answers, stamped with the
  bot's clock: an answer after the window is refused. :func:`expire_windows` runs with the reminders: a
  window whose time is up is closed by the clock (the report stands, or an open dispute goes to the CM).
- ``frame basing`` - a side's sealed plan as text or as a file (a league's plan may not fit in an option);
  the DM's menus are the other way (:mod:`bot.systems.wargame_commander.sealed`).
- ``frame plan`` - the side's plan sheet as a picture; each Frame CO also gets it by DM before each frame.
- ``frame battles`` / ``score`` - information (``describe`` topics of the adapter).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from bot.commands import posted_files
from bot.commands.replies import Button, Context, Form, FormField, Handler, Reply, Upload, custom_id
from bot.service.game_service import Caller, Outcome, Refusal, Table
from engine.contract import RulesError

if TYPE_CHECKING:
    from bot.systems.base import Components, Layer
    from engine.contract import Prompt

MAX_PLAN_FILE = 64 * 1024
"""The largest basing plan file read."""
FORM_VERB = "wfr"
"""The custom id verb of the frame report form."""
CLOCK_NAME = "the clock"
"""Who closes a dispute window whose time is up (the log names the CM's seat; the event says the clock)."""


def handlers(layer: Layer) -> dict[str, Handler]:
    """The handlers of the Wargame Commander's own commands for a command layer."""

    async def report(ctx: Context, o: dict[str, Any]) -> list[Reply]:
        if bool(o.get("text")) == bool(o.get("url")):
            raise Refusal("give either `url` (a CSV or JSON file posted here) or `text` (\\n for new lines)")
        if o.get("url"):
            posted_files.check_url(str(o["url"]))
            _, text = await posted_files.FETCH(str(o["url"]))
        else:
            text = str(o["text"]).replace("\\n", "\n")
        return await enter_report(layer, ctx, text)

    async def form(ctx: Context, o: dict[str, Any]) -> list[Reply]:
        fields = {key: str(o[key]).replace("; ", "\n").replace(";", "\n") for key in FORM_KEYS if o.get(key)}
        if fields:
            return await submit_report(layer, ctx, fields)
        return [await report_form(layer, ctx)]

    async def window(ctx: Context, o: dict[str, Any]) -> list[Reply]:
        _check_cm(ctx)
        outcome = await layer.service.act(ctx.channel, ctx.caller, "window", {"hours": o["hours"]}, seat="cm")
        return await layer.outcome_replies(ctx, outcome, "The dispute window is set.")

    async def accept_command(ctx: Context, o: dict[str, Any]) -> list[Reply]:
        return await answer(layer, ctx, "accept", {})

    async def dispute(ctx: Context, o: dict[str, Any]) -> list[Reply]:
        return await answer(layer, ctx, "dispute", {"reason": o["reason"]})

    async def basing(ctx: Context, o: dict[str, Any]) -> list[Reply]:
        if bool(o.get("plan")) == bool(o.get("file")):
            raise Refusal("give the plan as `plan` (squad@airfield=steps, ...) or as a `file`")
        plan = str(o.get("plan") or "")
        if o.get("file"):
            plan = await _plan_file(o["file"])
        outcome = await layer.service.act(ctx.channel, ctx.caller, "basing", {"plan": plan})
        return await layer.outcome_replies(ctx, outcome, "Basing plan sent.")

    async def plan(ctx: Context, o: dict[str, Any]) -> list[Reply]:
        table = await layer.service.table(ctx.channel, live=False)
        mine = [s for s in table.seats_of(ctx.caller.user_id) if s in ("allied", "german")]
        side = str(o.get("side") or (mine[0] if mine else "")).lower()
        if not side:
            raise Refusal("name the side (`side: allied` or `german`)")
        if side not in mine and not ctx.caller.moderator:
            raise Refusal(f"only the {side} Frame CO (or a moderator) sees the {side} plan sheet")
        text = await layer.service.describe(ctx.channel, ctx.caller, "plan", side)
        if not layer.pictures:
            return [Reply(text + "\n(pictures are off: the sheet's text only)", channel=ctx.channel)]
        return [Reply(text, picture=await _sheet_job(layer, table, side), channel=ctx.channel)]

    return {
        "frame report": report,
        "frame form": form,
        "frame window": window,
        "frame accept": accept_command,
        "frame dispute": dispute,
        "frame basing": basing,
        "frame battles": layer.info_handler("battles", None),
        "frame plan": plan,
        "score": layer.info_handler("score", None),
    }


# --- The frame report and its window ------------------------------------------------------------------


def _check_cm(ctx: Context) -> None:
    if not ctx.caller.moderator:
        raise Refusal("only a moderator (the campaign manager) enters frame reports and sets their window")


async def enter_report(layer: Layer, ctx: Context, text: str) -> list[Reply]:
    """Enter the report (or correct it during its window), stamped with the bot's clock."""
    _check_cm(ctx)
    table = await layer.service.table(ctx.channel)
    state = await layer.service.state(table.game)
    verb = "correct" if getattr(state, "phase", "") == "dispute" else "report"
    args = {"text": text, "at": layer.service.clock()}
    outcome = await layer.service.act(ctx.channel, ctx.caller, verb, args, seat="cm")
    return await layer.outcome_replies(ctx, outcome, "Frame report entered." if verb == "report" else "Corrected.")


FORM_KEYS = ("shot_down", "airfields", "targets", "corps", "pilots")
DRAFTS: dict[tuple[int, int], dict[str, str]] = {}
"""A refused form's values by (game, campaign manager), so that the form opens again with what was typed
(in memory: lost at a restart, which only costs retyping)."""


async def report_form(layer: Layer, ctx: Context) -> Reply:
    """The frame report form, filled with the report under dispute when there is one (to correct it)."""
    from engine.wargame_commander.report import FORM_FIELDS, form_values

    _check_cm(ctx)
    table = await layer.service.table(ctx.channel)
    state = await layer.service.state(table.game)
    values = DRAFTS.get((table.game.id, ctx.caller.user_id)) or form_values(getattr(state, "report", None))
    frame = getattr(state, "frame", 0)
    title = f"Frame {frame} report" + (" (correction)" if getattr(state, "phase", "") == "dispute" else "")
    fields = tuple(
        FormField(key, label, hint, values.get(key, ""), required=False, long=key != "targets", max_length=3000)
        for key, label, hint in FORM_FIELDS
    )
    form = Form(custom_id(table.game.id, table.game.revision, FORM_VERB, "r"), title, fields)
    return Reply(
        "The frame report form opens in Discord (elsewhere: `frame report text:` or the command's fields).",
        form=form,
        channel=ctx.channel,
    )


async def submit_report(layer: Layer, ctx: Context, values: Mapping[str, str]) -> list[Reply]:
    """The form sent: every line checked against the board (each bad one named by field and line), then the
    report entered or corrected like a file."""
    from engine.wargame_commander.report import ReportError, parse_form, report_csv
    from engine.wargame_commander.state import board_of

    _check_cm(ctx)
    table = await layer.service.table(ctx.channel)
    state = await layer.service.state(table.game)
    fields = {k: v for k, v in values.items() if k in FORM_KEYS}
    try:
        report = parse_form(fields, board_of(state))
    except ReportError as error:
        DRAFTS[(table.game.id, ctx.caller.user_id)] = fields
        error.reason += "\n`frame form` opens the form again with what you typed."
        raise
    DRAFTS.pop((table.game.id, ctx.caller.user_id), None)
    return await enter_report(layer, ctx, report_csv(report))


async def answer(layer: Layer, ctx: Context, verb: str, args: dict[str, Any]) -> list[Reply]:
    """A Frame CO's accept or dispute, stamped with the bot's clock (refused once the window has closed)."""
    outcome = await layer.service.act(ctx.channel, ctx.caller, verb, {**args, "at": layer.service.clock()})
    return await layer.outcome_replies(ctx, outcome, "Accepted." if verb == "accept" else "Disputed.")


async def accept(layer: Layer, ctx: Context, arg: str, state_id: int) -> list[Reply]:
    """The Accept button of the dispute prompt (``wac``)."""
    seat = arg.split(".")[0]
    table = await layer.service.table(ctx.channel)
    if seat not in table.seats_of(ctx.caller.user_id):
        raise Refusal(f"only the {seat} Frame CO may answer this")
    if state_id != table.game.revision:
        prompts = await layer.service.prompts(table.game)
        prompt = prompts.get(seat)
        if prompt is None or arg.split(".")[-1] != await layer.freshness(table, seat, prompt):
            raise Refusal("that report has changed since (or was answered); nothing changed")
    outcome = await layer.service.act(ctx.channel, ctx.caller, "accept", {"at": layer.service.clock()}, seat=seat)
    return await layer.outcome_replies(ctx, outcome, "Accepted.")


async def dispute_components(layer: Layer, table: Table, seat: str, prompt: Prompt) -> Components:
    """The dispute prompt's Accept button (stamped with the clock when pressed); disputing takes a reason:
    ``frame dispute``."""
    fresh = await layer.freshness(table, seat, prompt)
    accept_id = custom_id(table.game.id, table.game.revision, "wac", f"{seat}.{fresh}")
    button = Button("Accept the report", accept_id, "primary")
    return (button,), ()


async def after_correct(layer: Layer, ctx: Context) -> tuple[list[Reply], Table] | None:
    """After ``mod correct``: a new correction epoch in the CM's seat (fresh salts for what is sealed next, so a
    salt a taken-back reveal published opens no new receipt). ``None`` when the series is over or has no CM."""
    table = await layer.service.table(ctx.channel, live=False)
    cm = table.user_of("cm")
    if not table.game.live or table.game.status != "active" or cm is None:
        return None
    caller = Caller(cm, ctx.caller.name, moderator=True)  # the moderator's correction, carried by the CM's seat
    outcome = await layer.service.act(ctx.channel, caller, "corrected", {}, seat="cm")
    lines = [f"- {e['text']}" for e in outcome.public_events]
    return [Reply("\n".join(lines), to="channel", ephemeral=False, channel=ctx.channel)], outcome.table


async def expire_windows(layer: Layer) -> list[Reply]:
    """Close every dispute window whose time is up (run with the reminders): the report stands when nobody
    disputes it, or the campaign manager is asked to decide. Returns the channel messages."""
    service = layer.service
    replies: list[Reply] = []
    now = service.clock()
    for game in await service.store.games(("active",)):
        if game.system != "wargame-commander":
            continue
        adapter: Any = service.system(game.system)
        state = await service.state(game)
        closes = adapter.dispute_deadline(state)
        if closes is None or closes > now:
            continue
        table = Table(game, await service.store.seats(game.id))
        cm = table.user_of("cm")
        if cm is None:
            continue
        ctx = Context(Caller(cm, CLOCK_NAME, moderator=True), game.channel)
        try:
            outcome = await service.act(game.channel, ctx.caller, "expire", {"at": now}, seat="cm")
        except RulesError:  # answered meanwhile, or the CM left the seat
            continue
        replies += [r for r in await layer.outcome_replies(ctx, outcome, "") if r.to != "caller"]
    return replies


# --- Basing files and plan sheets ---------------------------------------------------------------------


async def _plan_file(upload: Upload) -> str:
    if upload.size > MAX_PLAN_FILE:
        raise Refusal(f"the plan file is over {MAX_PLAN_FILE // 1024} KB")
    try:
        text = (await upload.read()).decode("utf-8")
    except UnicodeDecodeError:
        raise Refusal("the plan file is not text (UTF-8)") from None
    lines = [line.split("#")[0].strip() for line in text.splitlines()]
    return ",".join(line for line in lines if line)


async def _sheet_job(layer: Layer, table: Table, side: str) -> Any:
    adapter: Any = layer.service.system(table.game.system)
    state = await layer.service.state(table.game)
    service = layer.service

    async def drawn() -> bytes:
        png: bytes = await service.renderer.draw(lambda: adapter.plan_sheet(state, side))
        return png

    return drawn


async def plan_sheets(layer: Layer, ctx: Context, outcome: Outcome) -> list[Reply]:
    """4.2r: when a frame is about to be flown (its report is due), each Frame CO gets the side's plan sheet
    by DM (in the channel, privately, when DMs are closed: `frame plan`)."""
    due = any(e.get("kind") == "phase" and e.get("data", {}).get("phase") == "report" for e in outcome.events)
    if not due:
        return []
    table = outcome.table
    replies = []
    for side in ("allied", "german"):
        user = table.user_of(side)
        if user is None:
            continue
        text = f"**{side.title()} plan sheet** for the next frame (4.2r); `frame plan` shows it again."
        if not layer.pictures:
            sheet = await layer.service.describe(ctx.channel, Caller(user, side), "plan", side)
            text = f"{sheet}\n(pictures are off: `frame plan` shows this text again)"
        replies.append(
            Reply(
                text,
                to="dm",
                ephemeral=False,
                user=user,
                picture=await _sheet_job(layer, table, side) if layer.pictures else None,
                channel=ctx.channel,
                dm_fallback=Reply(
                    f"<@{user}>: your plan sheet could not be sent by DM (they are closed): use `frame plan`.",
                    to="channel",
                    ephemeral=False,
                    mentions=(user,),
                    channel=ctx.channel,
                ),
            )
        )
    return replies
