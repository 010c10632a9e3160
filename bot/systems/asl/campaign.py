"""The campaign commands of the ASL campaign-game keeper, transport-independent like :mod:`bot.commands.layer`.

The generic commands (``game ...``, ``choose``, ``act``, the prompt buttons) run the Refit Phase; these add
what a campaign needs around them:

- ``campaign create`` - a campaign for a module and a CG, with its start date, ELR, SAN, CPP and chit limits;
- ``campaign report`` - the end of a CG Scenario (CVP, Sudden Death, the CG winner, notes on control and on
  the units and leaders to roll for); the other side confirms it with a button;
- ``campaign roll`` / ``campaign cvp`` - a public roll on one of the step's tables, CVP awarded in the RePh;
- ``campaign buy`` - the sealed RG or Fortification purchase, privately (the same basket as in the DM);
- ``campaign roster`` / ``campaign purchases`` - the CG roster and the RG Purchase Record (9.6178), all of it
  for its owner, the public parts for anyone else; the receipts of every sealed decision;
- ``campaign reveal`` - the owner reveals a sealed purchase; ``campaign verify`` checks every receipt;
- ``mod load-table`` - a moderator (the organiser) loads or corrects the RG chart or any table from a TOML text.

Sealed purchases are built in a *basket*: a private message (DM, or ephemeral when DMs are closed) with a menu
to add an item, one to take one out, and Commit. The basket lives in the custom ids of its components
(``wg:<game>:<state>:bk?:<seat>.<counts>.<freshness>.<page>``, one base-36 digit per item), so nothing is stored
until the commit and a basket survives a restart. Only the commit reaches the engine, sealed: the channel sees
the receipt, never the content.

One module: the campaign commands and the basket they share (the basket's codes are its custom ids).
"""

from __future__ import annotations

import asyncio
import hashlib
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from bot.commands import posted_files
from bot.commands.replies import Button, Context, Handler, Reply, Select, custom_id, parse_args
from bot.service.game_service import Caller, Outcome, Refusal, Table
from bot.store.records import ActionRow, NewAction, RevisionError
from engine.contract import Action, Prompt
from engine.dice import linked, recording

if TYPE_CHECKING:
    from bot.systems.asl.adapter import AslAdapter, BasketItem
    from bot.systems.base import Layer

ROSTER_PAGE = "rsp"
"""Custom id verb of the roster sheet's page buttons (anyone may turn the pages of the answer they got)."""

PRESS_VERBS = frozenset({"bka", "bkr", "bkc", "bkx", ROSTER_PAGE})
"""Custom id verbs of the basket: add, remove (select menus), commit, clear (buttons); and the roster's pages."""

MAX_ITEMS = 40
"""The most items a basket can hold kinds of (one base-36 digit each in a custom id)."""

DIGITS = "0123456789abcdefghijklmnopqrstuvwxyz"


# --- Registration ----------------------------------------------------------------------------------------


def handlers(layer: Layer) -> dict[str, Handler]:
    """The handlers of the campaign commands for a command layer (called once per layer)."""
    campaign = Campaign(layer)
    return {
        "campaign create": campaign.create,
        "campaign report": campaign.report,
        "campaign roll": campaign.roll,
        "campaign cvp": campaign.cvp,
        "campaign buy": campaign.buy,
        "campaign roster": campaign.roster,
        "campaign areas": campaign.areas,
        "campaign add-units": campaign.add_units,
        "campaign update-units": campaign.update_units,
        "campaign recombine": campaign.recombine,
        "campaign purchases": campaign.purchases,
        "campaign reveal": campaign.reveal,
        "campaign verify": campaign.verify,
        "mod load-table": campaign.load_table,
    }


async def press(layer: Layer, ctx: Context, verb: str, arg: str, state: int, values: Sequence[str]) -> list[Reply]:
    """A click in a basket (add, remove, clear, commit)."""
    return await Campaign(layer).press(ctx, verb, arg, state, values)


async def after_correct(layer: Layer, ctx: Context) -> tuple[list[Reply], Table] | None:
    """After ``mod correct``: in a campaign, a new correction epoch (fresh salts and secret dice); else ``None``."""
    return await Campaign(layer).after_correct(ctx)


async def components(
    layer: Layer, table: Table, seat: str, prompt: Prompt
) -> tuple[tuple[Button, ...], tuple[Select, ...]] | None:
    """The components of a sealed purchase prompt (its choices plus the basket's add menu), else ``None``."""
    return await Campaign(layer).prompt_components(table, seat, prompt)


# --- Baskets ----------------------------------------------------------------------------------------------


def encode_basket(counts: Sequence[int]) -> str:
    """Counts as base-36 digits, trailing zeros dropped (``"0"`` when empty).

    >>> encode_basket([2, 0, 1, 0])
    '201'
    """
    return "".join(DIGITS[n] for n in counts).rstrip("0") or "0"


def decode_basket(code: str, size: int) -> list[int]:
    """The counts of a basket code for ``size`` items.

    :raises Refusal: for a code that is not one of the bot's.

    >>> decode_basket("201", 4)
    [2, 0, 1, 0]
    """
    if len(code) > size or any(ch not in DIGITS for ch in code):
        raise Refusal("this basket does not match the items of the purchase any more; open it again")
    return [DIGITS.index(ch) for ch in code] + [0] * (size - len(code))


def basket_words(items: Sequence[BasketItem], counts: Sequence[int]) -> str:
    """The engine's argument for a basket: ``I1,I1,I4`` (RGs) or ``trench=1,ap-mine=3`` (Fortifications)."""
    pairs = [(item, n) for item, n in zip(items, counts, strict=True) if n]
    return ",".join(f"{item.key}={n}" if item.most > 9 else ",".join([item.key] * n) for item, n in pairs)


@dataclass
class PostedReceipt:
    """A receipt posted in the channel at a commit, and what became of it."""

    secret: str
    receipt: str
    superseded: bool
    """Its action was taken back (by a moderator's correction)."""
    reveal: dict[str, Any] | None = None
    """The reveal event's data once revealed (the last one, if a correction made it happen twice)."""


def posted_receipts(rows: Sequence[ActionRow]) -> list[PostedReceipt]:
    """Every receipt the channel saw, in order, matched to its reveal (by id and receipt: a re-sealed decision
    keeps its id but never its receipt)."""
    found: list[PostedReceipt] = []
    for row in rows:
        for event in row.events:
            data = event.get("data", {})
            if event.get("kind") == "sealed":
                found.append(PostedReceipt(str(data["secret"]), str(data["receipt"]), row.undone))
            elif event.get("kind") == "reveal":
                for item in reversed(found):
                    if item.secret == data.get("secret") and item.receipt == data.get("receipt"):
                        item.reveal = dict(data)
                        break
                else:
                    found.append(
                        PostedReceipt(str(data.get("secret")), str(data.get("receipt")), row.undone, dict(data))
                    )
    return found


class Campaign:
    """The campaign commands over a command layer (its service, its replies)."""

    def __init__(self, layer: Layer) -> None:
        self.layer = layer
        self.service = layer.service

    # --- Helpers ------------------------------------------------------------------------------------

    async def _campaign(self, channel: int, live: bool = True) -> tuple[Table, AslAdapter]:
        table = await self.service.table(channel, live=live)
        system = self.service.system(table.game.system)
        if not getattr(system, "campaign", False):
            raise Refusal(f"the game in this channel is {system.name}, not an ASL campaign game")
        return table, system  # type: ignore[return-value]

    @staticmethod
    def _my_seat(table: Table, caller: Caller, prompts: Mapping[str, Prompt] | None = None) -> str:
        mine = table.seats_of(caller.user_id)
        if not mine:
            raise Refusal("you hold no seat in this game: only a seated player acts for a side")
        if prompts is not None:
            waiting = [s for s in mine if s in prompts]
            if waiting:
                return waiting[0]
        return mine[0]

    async def _outcome(self, ctx: Context, outcome: Outcome, note: str = "Done.") -> list[Reply]:
        return await self.layer.outcome_replies(ctx, outcome, note)

    @staticmethod
    def _private(text: str) -> list[Reply]:

        chunks, current = [], ""
        for line in text.splitlines():
            if len(current) + len(line) + 1 > 1900:
                chunks.append(current)
                current = ""
            current += line[:1900] + "\n"
        chunks.append(current)
        return [Reply(chunk.rstrip() or "-") for chunk in chunks if chunk.strip()]

    # --- campaign create ----------------------------------------------------------------------------

    async def create(self, ctx: Context, o: dict[str, Any]) -> list[Reply]:
        from bot.systems.asl.adapter import SIDE_OPTIONS, parse_side_numbers, parse_side_values

        system_id = next(
            (s for s in self.service.system_ids if getattr(self.service.system(s), "campaign", False)), None
        )
        if system_id is None:
            raise Refusal("this bot offers no ASL campaign-game system")
        system = self.service.system(system_id)
        module = str(o.get("module") or system.scenarios[0])
        sides = system.seats
        options: dict[str, Any] = {}
        for key in ("cg", "start", "end"):
            if o.get(key):
                options[key] = str(o[key])
        for key in SIDE_OPTIONS:
            if o.get(key):
                options[key] = parse_side_numbers(str(o[key]), sides, key)
        if o.get("initial_rgs"):
            options["initial_rgs"] = parse_side_values(str(o["initial_rgs"]), sides, "initial_rgs")
        table = await self.service.create(
            guild=ctx.guild,
            channel=ctx.channel,
            caller=ctx.caller,
            system_id=system_id,
            scenario=module,
            options=options,
            days_per_move=float(o.get("days_per_move", 0)),
            reserve_days=float(o.get("reserve_days", 0)),
        )
        game = table.game
        state = await self.service.state(game)
        view = system.view(state, None)
        cg = view["cg"]
        text = (
            f"**Campaign #{game.id} created**: {view['module']['title']}, CG {cg['title']} from {cg['start']} to "
            f"{cg['end']}.\nSeats: {', '.join(table.seats)}. Take one with `game join`, then `game start`; the "
            "Refit Phase before the CG Initial Scenario begins with the Begin button.\n"
            f"Dice commitment (SHA-256 of the secret seed, revealed at the end): `{game.seed_hash}`"
        )
        if view["rg_chart_status"] != "loaded":
            text += f"\nRG chart: {view['rg_chart_status']}."
        return [Reply("Campaign created."), Reply(text, to="channel", ephemeral=False, channel=ctx.channel)]

    # --- Playing ------------------------------------------------------------------------------------

    async def report(self, ctx: Context, o: dict[str, Any]) -> list[Reply]:
        table, system = await self._campaign(ctx.channel)
        seat = self._my_seat(table, ctx.caller)
        other = next(s for s in system.seats if s != seat)
        args: dict[str, Any] = {f"cvp_{seat}": int(o["my_cvp"]), f"cvp_{other}": int(o["their_cvp"])}
        if o.get("sudden_death"):
            args["sudden_death"] = True
        if o.get("winner"):
            args["winner"] = str(o["winner"]).lower()
        if o.get("notes"):
            args["notes"] = str(o["notes"])
        args |= {key: str(o[key]).lower() for key in ("weather", "ec", "wind") if o.get(key)}
        outcome = await self.service.act(ctx.channel, ctx.caller, "report_end", args, seat=seat)
        return await self._outcome(ctx, outcome, "Reported; your opponent confirms it.")

    async def roll(self, ctx: Context, o: dict[str, Any]) -> list[Reply]:
        await self._campaign(ctx.channel)
        args = {k: str(o[k]) for k in ("table", "column", "drms", "label", "units", "to") if o.get(k)}
        outcome = await self.service.act(ctx.channel, ctx.caller, "roll", args)
        return await self._outcome(ctx, outcome, "Rolled.")

    async def cvp(self, ctx: Context, o: dict[str, Any]) -> list[Reply]:
        table, _ = await self._campaign(ctx.channel)
        by = str(o.get("by") or self._my_seat(table, ctx.caller)).lower()
        args: dict[str, Any] = {"by": by, "amount": int(o["amount"])}
        if o.get("note"):
            args["note"] = str(o["note"])
        outcome = await self.service.act(ctx.channel, ctx.caller, "cvp", args)
        return await self._outcome(ctx, outcome, "Awarded; the other side confirms it.")

    async def areas(self, ctx: Context, o: dict[str, Any]) -> list[Reply]:
        await self._campaign(ctx.channel)
        args = {k: str(o[k]) for k in ("setup", "strategic", "perimeter") if o.get(k)}
        outcome = await self.service.act(ctx.channel, ctx.caller, "areas", args)
        return await self._outcome(ctx, outcome, "Recorded.")

    async def add_units(self, ctx: Context, o: dict[str, Any]) -> list[Reply]:
        await self._campaign(ctx.channel)
        args = {k: o[k] for k in ("kind", "name", "count", "experience", "area") if o.get(k)}
        outcome = await self.service.act(ctx.channel, ctx.caller, "add_units", args)
        return await self._outcome(ctx, outcome, "Added.")

    async def recombine(self, ctx: Context, o: dict[str, Any]) -> list[Reply]:
        await self._campaign(ctx.channel)
        outcome = await self.service.act(ctx.channel, ctx.caller, "recombine", {"units": str(o["units"])})
        return await self._outcome(ctx, outcome, "Recombined.")

    async def update_units(self, ctx: Context, o: dict[str, Any]) -> list[Reply]:

        await self._campaign(ctx.channel)
        args = {"units": str(o["units"]), **parse_args(str(o["changes"]).replace(",", " "))}
        outcome = await self.service.act(ctx.channel, ctx.caller, "update_units", args)
        return await self._outcome(ctx, outcome, "Recorded.")

    async def reveal(self, ctx: Context, o: dict[str, Any]) -> list[Reply]:
        await self._campaign(ctx.channel)
        outcome = await self.service.act(ctx.channel, ctx.caller, "reveal", {"secret": str(o["secret"]).upper()})
        return await self._outcome(ctx, outcome, "Revealed.")

    async def buy(self, ctx: Context, o: dict[str, Any]) -> list[Reply]:
        """The sealed purchase of the step in progress: at once with ``items``, else the basket."""
        table, system = await self._campaign(ctx.channel)
        if table.game.status != "active":
            raise Refusal("the campaign has not started yet" if table.game.status == "open" else "the game is over")
        prompts = await self.service.prompts(table.game)
        seat = self._my_seat(table, ctx.caller, prompts)
        kind = _basket_kind(prompts.get(seat))
        if kind is None:
            raise Refusal("you have no sealed purchase to make now (9.617 RGs, 9.619 Fortifications)")
        if o.get("items"):
            key = "rgs" if kind == "purchase" else "items"
            outcome = await self.service.act(ctx.channel, ctx.caller, kind, {key: str(o["items"])}, seat=seat)
            return await self._outcome(ctx, outcome, "Sealed.")
        state = await self.service.state(table.game)
        return [await self._basket_reply(table, system, state, seat, prompts[seat], kind, None)]

    # --- Information --------------------------------------------------------------------------------

    async def roster(self, ctx: Context, o: dict[str, Any]) -> list[Reply]:
        """The roster sheet of a side, one page at a time with buttons to turn them."""
        return [await self._roster_page(ctx, str(o.get("side") or "").lower(), int(o.get("page") or 1))]

    async def _roster_page(self, ctx: Context, side: str, page: int) -> Reply:

        table, _ = await self._campaign(ctx.channel, live=False)
        pages = (await self.service.describe(ctx.channel, ctx.caller, "roster", side)).split("\f")
        page = min(max(page, 1), len(pages))
        text = pages[page - 1] + (f"\n-# Page {page}/{len(pages)}" if len(pages) > 1 else "")
        game, revision = table.game.id, table.game.revision
        buttons = tuple(
            Button(label, custom_id(game, revision, ROSTER_PAGE, f"{side or '-'}.{target}"), "secondary")
            for label, target in (("Previous page", page - 1), ("Next page", page + 1))
            if 1 <= target <= len(pages)
        )
        return Reply(text[:1990], buttons=buttons)

    async def purchases(self, ctx: Context, o: dict[str, Any]) -> list[Reply]:
        await self._campaign(ctx.channel, live=False)
        record = await self.service.describe(ctx.channel, ctx.caller, "purchases", str(o.get("side", "")))
        receipts = await self.service.describe(ctx.channel, ctx.caller, "secrets")
        return self._private(record + "\n\n" + receipts)

    async def verify(self, ctx: Context, o: dict[str, Any]) -> list[Reply]:
        """Every receipt ever posted (those a correction took back included), each with what became of it."""
        from engine.asl import salt_for
        from engine.dice import commitment
        from engine.sealing import sealed_text

        table, _ = await self._campaign(ctx.channel, live=False)
        game = table.game
        over = not game.live
        seed = bytes.fromhex(game.seed) if over else None
        problems: list[str] = []
        if seed is not None and commitment(seed) != game.seed_hash:
            problems.append("the revealed seed does not match the hash published at the creation")
        lines: list[str] = []
        posted = revealed = superseded = 0
        receipts = posted_receipts(await self.service.store.actions(game.id, include_undone=True))
        for item in receipts:
            posted += 1
            name = f"{item.secret} `{item.receipt[:16]}`"
            if item.reveal is None:
                if item.superseded:
                    superseded += 1
                    lines.append(f"{name}: superseded (taken back by a correction, never revealed)")
                else:
                    lines.append(f"{name}: still sealed")
                    if over:
                        problems.append(f"{item.secret}: never revealed")
                continue
            text = str(item.reveal.get("sealed") or sealed_text(item.reveal["content"], item.reveal["salt"]))
            if hashlib.sha256(text.encode()).hexdigest() != item.receipt:
                problems.append(f"{item.secret}: the revealed text does not match the receipt `{item.receipt}`")
                continue
            epoch = int(item.reveal.get("epoch", 0))
            if seed is not None and salt_for(seed, item.secret, epoch) != item.reveal.get("salt"):
                problems.append(f"{item.secret}: the salt is not the one the seed gives")
                continue
            revealed += 1
            status = "revealed, agrees" + (" (then taken back by a correction)" if item.superseded else "")
            if item.superseded:
                superseded += 1
            lines.append(f"{name}: {status}")
        if problems:
            return self._private("Receipts: verification FAILED.\n" + "\n".join(f"- {p}" for p in problems))
        head = (
            f"Receipts: {posted} posted, {revealed} revealed and checked against the receipts posted at commit: all "
            f"agree; {superseded} superseded by a correction."
        )
        if over:
            head += f" The seed `{game.seed}` matches its published hash."
        else:
            head += " Those still sealed are checked when revealed, at the latest at the campaign's end."
        return self._private(head + "\n" + "\n".join(lines))

    async def after_correct(self, ctx: Context) -> tuple[list[Reply], Table] | None:
        """After ``mod correct`` in a campaign: start a new correction epoch (fresh salts, fresh secret dice)."""
        table = await self.service.table(ctx.channel, live=False)
        if not getattr(self.service.system(table.game.system), "campaign", False) or not table.game.live:
            return None
        rows = await self.service.store.actions(table.game.id, include_undone=True)
        epoch = sum(1 for row in rows if row.undone)
        replies, table = await self._organiser_action(ctx, "corrected", {"epoch": epoch})
        return replies, table

    async def _organiser_action(self, ctx: Context, verb: str, args: dict[str, Any]) -> tuple[list[Reply], Table]:
        """Apply and record an action of the organiser's pseudo-seat; its events are posted in the channel."""
        from engine.asl.refit import ORGANISER

        async with self.service.lock(ctx.channel):
            table, system = await self._campaign(ctx.channel)
            state = await self.service.state(table.game)

            def apply() -> tuple[Any, list[Any], list[dict[str, Any]]]:
                with recording() as drawn:  # its dice are kept with it, as the service keeps a player's
                    new, events = system.apply(state, Action(ORGANISER, verb, args))
                return new, events, [d.to_json() for d in linked(drawn, events)]

            new, events, draws = await asyncio.to_thread(apply)
            event_json = [e.to_json() for e in events]
            try:
                game, _ = await self.service.store.record_action(
                    table.game,
                    NewAction(ORGANISER, ctx.caller.user_id, verb, args, event_json, system.rules_version, draws),
                    state_json=system.state_to_json(new),
                )
            except RevisionError:
                raise Refusal("the game changed meanwhile; nothing changed, try again") from None
        lines = [f"**Organiser** <@{ctx.caller.user_id}>:"] + [f"- {e['text']}" for e in event_json]
        post = Reply("\n".join(lines), to="channel", ephemeral=False, channel=ctx.channel)
        return [post], Table(game, table.seats)

    # --- The organiser ------------------------------------------------------------------------------

    async def load_table(self, ctx: Context, o: dict[str, Any]) -> list[Reply]:
        """[9.617, tables] A moderator, as the organiser, loads or corrects tables or the RG chart (logged)."""

        if not ctx.caller.moderator:
            raise Refusal("only a moderator (the campaign's organiser) may load or correct tables")
        given = [key for key in ("attachment", "url", "text") if o.get(key)]
        if len(given) != 1:
            raise Refusal(
                "give one of `attachment` (the .toml file), `url` (a file posted here) or `text` (a short TOML text, "
                "\\n for new lines)"
            )
        if o.get("attachment"):
            name, text = await posted_files.read_upload(o["attachment"])
        elif o.get("url"):
            posted_files.check_url(str(o["url"]))
            name, text = await posted_files.FETCH(str(o["url"]))
        else:
            name, text = "override.toml", str(o["text"]).replace("\\n", "\n")
        name = str(o.get("file") or name)
        await self._campaign(ctx.channel)
        args = {"text": text, "file": name}
        if o.get("side"):
            args["side"] = str(o["side"]).lower()
        posts, table = await self._organiser_action(ctx, "load_table", args)
        replies = [Reply(f"Loaded {name}."), *posts]
        if table.game.status == "active":
            _, system = await self._campaign(ctx.channel)
            prompts = system.prompts(await self.service.state(table.game))
            replies += await self.layer.prompt_replies(ctx, table, prompts, {})
        return replies

    # --- Baskets ------------------------------------------------------------------------------------

    async def prompt_components(
        self, table: Table, seat: str, prompt: Prompt
    ) -> tuple[tuple[Button, ...], tuple[Select, ...]] | None:

        kind = _basket_kind(prompt)
        if kind is None:
            return None
        system = self.service.system(table.game.system)
        if not getattr(system, "campaign", False):
            return None
        adapter: AslAdapter = system  # type: ignore[assignment]
        state = await self.service.state(table.game)
        items = adapter.basket_items(state, seat, kind)
        if not items or len(items) > MAX_ITEMS:
            return None
        fresh = await self.layer.freshness(table, seat, prompt)
        game, revision = table.game.id, table.game.revision
        buttons = tuple(
            Button(f"{i}. {c.label or c.verb}"[:80], custom_id(game, revision, "c", f"{seat}.{i}.{fresh}"), "secondary")
            for i, c in enumerate(prompt.choices, 1)
        )
        return buttons, self._add_selects(table, seat, items, [0] * len(items), fresh)

    def _add_selects(
        self, table: Table, seat: str, items: Sequence[BasketItem], counts: Sequence[int], fresh: str
    ) -> tuple[Select, ...]:

        code = encode_basket(counts)
        game, revision = table.game.id, table.game.revision
        selects = []
        for page, start in enumerate(range(0, min(len(items), 75), 25)):
            entries = tuple((item.label[:100], str(i)) for i, item in enumerate(items[start : start + 25], start))
            arg = f"{seat}.{code}.{fresh}.{page}"
            placeholder = "Add to the sealed purchase" + (f" ({start + 1}-{start + len(entries)})" if page else "")
            selects.append(Select(custom_id(game, revision, "bka", arg), placeholder, entries))
        return tuple(selects)

    async def _basket_reply(
        self,
        table: Table,
        adapter: AslAdapter,
        state: Any,
        seat: str,
        prompt: Prompt,
        kind: str,
        counts: list[int] | None,
        note: str = "",
    ) -> Reply:

        items = adapter.basket_items(state, seat, kind)
        if len(items) > MAX_ITEMS:
            return Reply(f"Too many kinds of items for the menus: use `campaign buy items:` ({prompt.text})")
        counts = counts or [0] * len(items)
        fresh = await self.layer.freshness(table, seat, prompt)
        funds, unit = adapter.funds(state, seat, kind)
        cost = sum(item.cost * n for item, n in zip(items, counts, strict=True))
        chosen = ", ".join(f"{item.key} x{n}" for item, n in zip(items, counts, strict=True) if n) or "empty"
        what = "RG purchase (9.617)" if kind == "purchase" else "Fortification purchase (9.619)"
        lines = [
            f"**Sealed {what}, {state.date}** - private to you.",
            f"You have {funds} {unit}. Basket: {chosen} = {cost} {unit}.",
        ]
        if kind == "purchase":
            unspent = funds - cost
            lines.append(f"Unspent: {unspent} CPP, halved (FRU) to {math.ceil(max(unspent, 0) / 2)} Left.")
        else:
            lines.append(f"Unspent FPP are forfeit: {max(funds - cost, 0)}.")
        if cost > funds:
            lines.append(f"Over budget by {cost - funds} {unit}: take something out before committing.")
        lines.append("Add with the first menu, take out with the last, then Commit: the channel sees only a receipt.")
        if note:
            lines.insert(1, note)
        code = encode_basket(counts)
        game, revision = table.game.id, table.game.revision
        arg = f"{seat}.{code}.{fresh}.0"
        buttons = (
            Button("Commit", custom_id(game, revision, "bkc", arg), "success"),
            Button("Clear", custom_id(game, revision, "bkx", arg), "secondary"),
        )
        selects = list(self._add_selects(table, seat, items, counts, fresh))[:3]
        inside = tuple((f"{items[i].key} x{n}"[:100], str(i)) for i, n in enumerate(counts) if n)[:25]
        if inside:
            selects.append(Select(custom_id(game, revision, "bkr", arg), "Take out of the purchase", inside))
        return Reply("\n".join(lines), buttons=buttons, selects=tuple(selects))

    async def press(self, ctx: Context, verb: str, arg: str, state_id: int, values: Sequence[str]) -> list[Reply]:
        if verb == ROSTER_PAGE:
            side, _, page = arg.partition(".")
            return [await self._roster_page(ctx, "" if side == "-" else side, int(page) if page.isdigit() else 1)]
        parts = arg.split(".")
        if len(parts) != 4:
            raise Refusal("this button is not one of mine")
        seat, code, fresh, _page = parts
        table, adapter = await self._campaign(ctx.channel)
        if seat not in table.seats:
            raise Refusal(f"there is no seat {seat!r}")
        if seat not in table.seats_of(ctx.caller.user_id):
            raise Refusal(f"only the {seat} player may answer this")
        prompts = await self.service.prompts(table.game)
        prompt = prompts.get(seat)
        kind = _basket_kind(prompt)
        if prompt is None or kind is None:
            raise Refusal("there is no sealed purchase to make now; nothing changed")
        if state_id != table.game.revision and fresh != await self.layer.freshness(table, seat, prompt):
            raise Refusal("that basket belongs to an earlier position (the game has moved on); nothing changed")
        state = await self.service.state(table.game)
        items = adapter.basket_items(state, seat, kind)
        counts = decode_basket(code, len(items))
        note = ""
        if verb in ("bka", "bkr"):
            index = int(values[0]) if values and values[0].isdigit() else -1
            if not 0 <= index < len(items):
                raise Refusal("choose an item of the menu")
            item = items[index]
            if verb == "bka":
                if counts[index] >= min(item.most, len(DIGITS) - 1):
                    note = f"At most {item.most} {item.key} in one purchase."
                else:
                    counts[index] += 1
            elif counts[index]:
                counts[index] -= 1
        elif verb == "bkx":
            counts = [0] * len(items)
        elif verb == "bkc":
            key = "rgs" if kind == "purchase" else "items"
            words = basket_words(items, counts)
            outcome = await self.service.act(
                ctx.channel, ctx.caller, kind, {key: words}, seat=seat, state_id=table.game.revision
            )
            return await self._outcome(ctx, outcome, f"Sealed: {words or 'nothing'}.")
        return [await self._basket_reply(table, adapter, state, seat, prompt, kind, counts, note)]


def _basket_kind(prompt: Prompt | None) -> str | None:
    from bot.systems.asl.adapter import basket_kind

    return basket_kind(prompt)


__all__ = [
    "PRESS_VERBS",
    "Campaign",
    "after_correct",
    "components",
    "decode_basket",
    "encode_basket",
    "handlers",
    "press",
]
