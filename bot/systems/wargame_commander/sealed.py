"""Sealed decisions by DM: the basing plan (1.3) and the attack designation (4.2i), built in a basket.

The model is the ASL keeper's sealed purchase: the side's Frame CO gets a direct message (ephemeral in the
channel when DMs are closed) with menus to add to the basket and to take out of it, and Seal. The basket
lives in the custom ids of its components (``wg:<game>:<state>:<verb>:<seat>.<basket>.<freshness>.<page>``),
so nothing is stored until Seal, and a basket survives a restart. Only Seal reaches the engine, as the same
``basing`` or ``designate`` action the private slash commands send: sealed, the channel sees the receipt, the
content is revealed with the other side's. The slash commands stay as the other way to answer.

- Basing: one base-36 digit per (squad, airfield) pair: how many of the squad's steps are based there.
- Designation: two base-36 digits per battle chosen (its place in the list of battles the side may fight).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from bot.commands.replies import Button, Context, Reply, Select, custom_id
from bot.service.game_service import Refusal

if TYPE_CHECKING:
    from bot.service.game_service import Table
    from bot.systems.base import Components, Layer
    from engine.contract import Prompt

BASING_VERBS = {"wba": "add", "wbr": "remove", "wbs": "seal", "wbx": "clear"}
DESIGNATION_VERBS = {"wda": "add", "wdr": "remove", "wds": "seal", "wdx": "clear"}
PRESS_VERBS = frozenset({*BASING_VERBS, *DESIGNATION_VERBS})
"""The custom id verbs of the two baskets: add, remove (menus), seal, clear (buttons)."""

DIGITS = "0123456789abcdefghijklmnopqrstuvwxyz"
MAX_PAIRS = 36
"""The most (squad, airfield) pairs a basing basket holds (one digit each in a custom id); more: the command."""
MAX_BATTLES = 4
"""2.4a: a side fights at most four battles."""
MENU = 25
PAGES = 3


def kind_of(prompt: Prompt | None) -> str | None:
    """``basing`` or ``designate`` for a sealed prompt a basket answers, else ``None``."""
    if prompt is None or not prompt.secret:
        return None
    for verb in ("basing", "designate"):
        if verb in prompt.free_verbs:
            return verb
    return None


async def components(layer: Layer, table: Table, seat: str, prompt: Prompt) -> Components | None:
    """The menus and buttons of an empty basket for a sealed basing or designation prompt."""
    kind = kind_of(prompt)
    if kind is None:
        return None
    basket = await _Basket.open(layer, table, seat, prompt, kind)
    if basket is None:
        return None
    return basket.components(basket.empty())


async def press(layer: Layer, ctx: Context, verb: str, arg: str, state_id: int, values: Sequence[str]) -> list[Reply]:
    """A click in a basket: add or take out (menus), clear, or seal (the action, sealed)."""
    parts = arg.split(".")
    if len(parts) != 4:
        raise Refusal("this button is not one of mine")
    seat, code, fresh, _page = parts
    table = await layer.service.table(ctx.channel)
    if seat not in table.seats_of(ctx.caller.user_id):
        raise Refusal(f"only the {seat} player may answer this")
    prompts = await layer.service.prompts(table.game)
    prompt = prompts.get(seat)
    kind = "basing" if verb in BASING_VERBS else "designate"
    if kind_of(prompt) != kind or prompt is None:
        raise Refusal("there is no sealed decision of that kind to make now; nothing changed")
    if state_id != table.game.revision and fresh != await layer.freshness(table, seat, prompt):
        raise Refusal("that basket belongs to an earlier position (the game has moved on); nothing changed")
    basket = await _Basket.open(layer, table, seat, prompt, kind)
    if basket is None:
        raise Refusal("the menus cannot hold this decision; use the slash command")
    chosen = basket.decode(code)
    action = (BASING_VERBS if kind == "basing" else DESIGNATION_VERBS)[verb]
    note = ""
    if action in ("add", "remove"):
        index = int(values[0]) if values and values[0].isdigit() else -1
        note = basket.change(chosen, index, action == "add")
    elif action == "clear":
        chosen = basket.empty()
    else:
        words = basket.words(chosen)
        key = "plan" if kind == "basing" else "battles"
        outcome = await layer.service.act(
            ctx.channel, ctx.caller, kind, {key: words}, seat=seat, state_id=table.game.revision
        )
        return await layer.outcome_replies(ctx, outcome, f"Sealed: {words or 'no battle'}.")
    return [basket.reply(chosen, note)]


class _Basket:
    """One side's basket for one sealed prompt: its items and how its content is written in a custom id."""

    def __init__(
        self, table: Table, seat: str, kind: str, fresh: str, items: list[tuple[str, str]], steps: dict[str, int]
    ) -> None:
        self.table, self.seat, self.kind, self.fresh = table, seat, kind, fresh
        self.items = items
        """(menu label, value): ``squad@field`` for basing, ``defender:a+b`` for a designation."""
        self.steps = steps
        """Basing: each squad's steps to base."""
        self.caps: dict[str, int] = {}
        """Basing: each field's squad-step cap (1.1)."""

    @classmethod
    async def open(cls, layer: Layer, table: Table, seat: str, prompt: Prompt, kind: str) -> _Basket | None:
        adapter: Any = layer.service.system(table.game.system)
        state = await layer.service.state(table.game)
        fresh = await layer.freshness(table, seat, prompt)
        if kind == "basing":
            pairs, steps = adapter.basing_items(state, seat)
            if not pairs or len(pairs) > MAX_PAIRS:
                return None
            basket = cls(table, seat, kind, fresh, [(label, f"{sq}@{f}") for sq, f, label in pairs], steps)
            basket.caps = adapter.field_caps(state, seat)
            return basket
        battles = adapter.designation_items(state, seat)
        if len(battles) > MENU * PAGES or len(battles) > len(DIGITS) ** 2:
            return None
        return cls(table, seat, kind, fresh, battles, {})

    # --- The content, in a custom id -------------------------------------------------------------------

    def empty(self) -> list[int]:
        return [0] * len(self.items) if self.kind == "basing" else []

    def encode(self, chosen: list[int]) -> str:
        if self.kind == "basing":
            return "".join(DIGITS[n] for n in chosen)
        return "".join(DIGITS[i // 36] + DIGITS[i % 36] for i in chosen)

    def decode(self, code: str) -> list[int]:
        try:
            if self.kind == "basing":
                chosen = [DIGITS.index(c) for c in code]
                if len(chosen) != len(self.items):
                    raise ValueError
                return chosen
            picked = [DIGITS.index(code[i]) * 36 + DIGITS.index(code[i + 1]) for i in range(0, len(code), 2)]
            if len(code) % 2 or any(i >= len(self.items) for i in picked):
                raise ValueError
            return picked
        except ValueError:
            raise Refusal("this basket does not match the choices any more; answer the prompt again") from None

    def change(self, chosen: list[int], index: int, add: bool) -> str:
        """Add or take out item ``index``; a note when nothing changes."""
        if not 0 <= index < len(self.items):
            raise Refusal("choose an entry of the menu")
        if self.kind == "basing":
            squad = self.items[index][1].split("@")[0]
            based = sum(n for (_, value), n in zip(self.items, chosen, strict=True) if value.startswith(f"{squad}@"))
            if add and based >= self.steps.get(squad, 0):
                return (
                    f"Not added: every step of {squad} ({self.steps.get(squad, 0)}) is based already (1.3): "
                    "take one out first."
                )
            field = self.items[index][1].split("@")[1]
            load = sum(n for (_, value), n in zip(self.items, chosen, strict=True) if value.endswith(f"@{field}"))
            if add and field in self.caps and load >= self.caps[field]:
                cap = self.caps[field]
                return f"Not added: {field} holds {cap} squad steps at most (1.1, 1.3): choose another field."
            if not add and not chosen[index]:
                return ""
            chosen[index] += 1 if add else -1
            return ""
        if add:
            if index in chosen:
                return "That battle is in the basket already."
            if len(chosen) >= MAX_BATTLES:
                return "Four battles at most (2.4a): take one out first."
            chosen.append(index)
        elif index in chosen:
            chosen.remove(index)
        return ""

    def words(self, chosen: list[int]) -> str:
        """The engine's argument: ``366fg@A92=2,...`` or ``de-66:us-8+us-5;...``."""
        if self.kind == "basing":
            return ",".join(f"{value}={n}" for (_, value), n in zip(self.items, chosen, strict=True) if n)
        return ";".join(self.items[i][1] for i in chosen)

    # --- Messages -------------------------------------------------------------------------------------

    def components(self, chosen: list[int]) -> Components:
        game, revision = self.table.game.id, self.table.game.revision
        verbs = {v: k for k, v in (BASING_VERBS if self.kind == "basing" else DESIGNATION_VERBS).items()}
        arg = f"{self.seat}.{self.encode(chosen)}.{self.fresh}.0"
        seal = "Seal the plan" if self.kind == "basing" else ("Seal" if chosen else "Seal: no battle")
        buttons = (
            Button(seal, custom_id(game, revision, verbs["seal"], arg), "success"),
            Button("Clear", custom_id(game, revision, verbs["clear"], arg), "secondary"),
        )
        selects = []
        for page, start in enumerate(range(0, min(len(self.items), MENU * PAGES), MENU)):
            page_items = enumerate(self.items[start : start + MENU], start)
            entries = tuple((label[:100], str(i)) for i, (label, _) in page_items)
            placeholder = "Add a squad step at a field" if self.kind == "basing" else "Add a battle"
            if len(self.items) > MENU:
                placeholder += f" ({start + 1}-{start + len(entries)})"
            page_arg = f"{self.seat}.{self.encode(chosen)}.{self.fresh}.{page}"
            selects.append(Select(custom_id(game, revision, verbs["add"], page_arg), placeholder, entries))
        inside = self._inside(chosen)
        if inside:
            selects = selects[:3]
            selects.append(Select(custom_id(game, revision, verbs["remove"], arg), "Take out", inside))
        return buttons, tuple(selects)

    def _inside(self, chosen: list[int]) -> tuple[tuple[str, str], ...]:
        if self.kind == "basing":
            counted = enumerate(zip(self.items, chosen, strict=True))
            return tuple((f"{value} x{n}"[:100], str(i)) for i, ((_, value), n) in counted if n)[:MENU]
        return tuple((self.items[i][0][:100], str(i)) for i in chosen)

    def reply(self, chosen: list[int], note: str = "") -> Reply:
        """The basket as a private message: what is in it, what is missing, the menus and Seal."""
        lines = []
        if self.kind == "basing":
            lines.append("**Sealed basing plan (1.3, 1.4)**: private to you until both plans are in.")
            placed: dict[str, int] = {}
            for (_, value), n in zip(self.items, chosen, strict=True):
                placed[value.split("@")[0]] = placed.get(value.split("@")[0], 0) + n
            missing = [f"{sq} {n - placed.get(sq, 0)}" for sq, n in self.steps.items() if placed.get(sq, 0) < n]
            lines.append(f"Plan: {self.words(chosen) or 'empty'}.")
            lines.append("Steps still to base: " + (", ".join(missing) or "none") + ".")
        else:
            lines.append("**Sealed attack designation (4.2i)**: private to you until both sides have sealed.")
            battles = "; ".join(self.items[i][0] for i in chosen) or "no battle"
            lines.append(f"Battles ({len(chosen)} of at most four, 2.4a): {battles}.")
        if note:
            lines.append(note)
        lines.append("Add with the menus, take out with the last one, then Seal: the channel sees only a receipt.")
        buttons, selects = self.components(chosen)
        return Reply("\n".join(lines), buttons=buttons, selects=selects, channel=self.table.game.channel)
