"""[11] A property of fog of war: nothing hidden ever reaches the other side.

Random fog-of-war games of Ardennes 1944 and of Alsace 1944 are played through the command layer (the same layer
Discord and the console use: every message, button, select menu and picture the bot would send). After every
action, each answer is checked against its audience: a channel post against what both sides may see, a private
answer or a direct message against what its seat may see. A unit the audience may inspect neither before nor
after the action (the views of :func:`engine.vaevictis.view.seat_view`) must not be named, by id or by name, in
any text, button label or menu entry. Every public picture must be the picture of what both sides may see: the
view it is drawn from is rebuilt here from the two seats' views (each stack shows only the counters both may
inspect), drawn again with the same events and region, and the PNG bytes compared. Every few actions the log,
the dice, the status, the odds preview and every autocomplete are read by each seat and a spectator, and checked
against the units that audience has ever seen.

``UMPIRE_FOG_SEEDS`` (default 1) sets how many games of each; ``UMPIRE_FOG_ACTIONS`` (default 100) how many
actions each. A failure reproduces from its seed. An Alsace 1944 game opens with the German set-up (19.2), whose
random placements are checked like any other action.
"""

from __future__ import annotations

import json
import os
import random
import re
from collections.abc import Iterator
from typing import Any

import pytest

import bot.service.game_service
from bot.commands.layer import COMMANDS, CommandLayer, Context, Reply, with_pictures
from bot.service.game_service import Caller, GameService
from bot.service.record import game_record
from bot.store.sqlite import SqliteStore
from bot.systems import systems
from engine.contract import Action
from engine.vaevictis.legal import candidate_actions
from tests.bot.alsace import alsace_systems
from tests.bot.doubles import require_ardennes

SEEDS = int(os.environ.get("UMPIRE_FOG_SEEDS", "1"))
ACTIONS = int(os.environ.get("UMPIRE_FOG_ACTIONS", "100"))
CHECK_EVERY = 20
"""Read the log, the dice and the autocompletes every this many actions."""

ANN = Caller(11, "ann")  # German
BOB = Caller(22, "bob")  # Allied
EVE = Caller(33, "eve")  # a spectator
CALLERS = {"german": ANN, "allied": BOB}
CHANNEL = 900
Audience = str | None
"""A seat, or ``None`` for the channel (both sides and every spectator)."""


@pytest.fixture
def drawn(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[dict[str, Any]]]:
    """Every picture drawn: the view and events it was drawn from, and the region rendered."""
    import render.snapshot
    import render.view_picture

    calls: list[dict[str, Any]] = []
    original_picture = render.view_picture.picture_from_view
    original_render = render.snapshot.render_map

    def picture_spy(data: Any, view: Any, events: Any = (), *args: Any, **kwargs: Any) -> Any:
        calls.append({"seat": kwargs.get("seat"), "view": view, "events": list(events), "args": args})
        return original_picture(data, view, events, *args, **kwargs)

    def render_spy(picture: Any, *args: Any, **kwargs: Any) -> Any:
        if calls:
            calls[-1]["region"] = kwargs.get("region")
        return original_render(picture, *args, **kwargs)

    monkeypatch.setattr(render.view_picture, "picture_from_view", picture_spy)
    monkeypatch.setattr(render.snapshot, "render_map", render_spy)
    yield calls


class Watcher:
    """Plays one game and checks everything the bot says."""

    def __init__(self, layer: CommandLayer, drawn: list[dict[str, Any]]) -> None:
        self.layer = layer
        self.drawn = drawn
        self.adapter: Any = layer.service.system(layer.default_system)
        self.data = self.adapter.game.data
        self.ever_seen: dict[Audience, set[str]] = {"german": set(), "allied": set(), None: set()}
        self.checked = {"texts": 0, "pictures": 0}

    @property
    def service(self) -> GameService:
        return self.layer.service

    async def state(self) -> Any:
        return await self.service.state((await self.service.table(CHANNEL, live=False)).game)

    def visible(self, state: Any) -> dict[Audience, set[str]]:
        return {
            seat: {u["id"] for s in self.adapter.view(state, seat)["stacks"] for u in s["units"]}
            for seat in ("german", "allied", None)
        }

    def forbidden(self, state: Any, *seen: dict[Audience, set[str]]) -> dict[Audience, set[str]]:
        """For each audience, the units on the map now that it may inspect in none of the ``seen`` views."""
        on_map = {u.id for u in state.on_map()}
        return {aud: on_map - set().union(*(s[aud] for s in seen)) for aud in ("german", "allied", None)}

    def check_text(self, text: str, hidden: set[str], where: str) -> None:
        """No id of a hidden unit in ``text``, nor its name unless another unit the text may name shares it
        (the detachment markers of a division share one name)."""
        self.checked["texts"] += 1
        shared = {d.name for u, d in self.data.units.items() if u not in hidden}
        for unit in hidden:
            name = self.data.units[unit].name
            assert unit not in text, f"{where}: {unit} in {text!r}"
            if name in shared:
                continue
            assert not re.search(rf"(?<![\w/.]){re.escape(name)}(?![\w/])", text), f"{where}: {name} in {text!r}"

    def audience(self, reply: Reply, caller: Caller) -> Audience:
        if reply.to == "channel" and not reply.ephemeral:
            return None
        user = reply.user if reply.to == "dm" else caller.user_id
        return next((seat for seat, c in CALLERS.items() if c.user_id == user), None)

    def check_replies(self, replies: list[Reply], caller: Caller, hidden: dict[Audience, set[str]]) -> None:
        for reply in replies:
            audience = self.audience(reply, caller)
            words = [reply.text, *(b.label for b in reply.buttons)]
            words += [label for s in reply.selects for label, _ in s.entries] + [s.placeholder for s in reply.selects]
            if reply.dm_fallback is not None:
                self.check_text(reply.dm_fallback.text, hidden[None], "DM fallback")
            for text in words:
                self.check_text(text, hidden[audience], f"to {audience or 'the channel'}")

    def check_pictures(self, replies: list[Reply], state: Any) -> None:
        """Every picture posted in the channel is the picture of what both sides may see."""
        from render.snapshot import render_map, to_png
        from render.view_picture import picture_from_view

        posted = [f.data for r in replies if r.to == "channel" and not r.ephemeral for f in r.files]
        public = [c for c in self.drawn if c["seat"] is None]
        assert len(public) >= len(posted)
        for png, call in zip(posted, public[-len(posted) :] if posted else [], strict=True):
            both = self.both_sides_view(state)
            assert call["view"]["stacks"] == both["stacks"]
            assert not any(e.secret_to for e in call["events"]), "a sealed event reached the public picture"
            redrawn = picture_from_view(self.data, both, call["events"], *call["args"], seat=None)
            assert to_png(render_map(redrawn, region=call.get("region"))) == png
            self.checked["pictures"] += 1
        self.drawn.clear()

    def both_sides_view(self, state: Any) -> dict[str, Any]:
        """The view of what both sides may see, built from the two seats' views: a stack shows the counters
        its enemy may inspect (its owner sees them all)."""
        views = {seat: self.adapter.view(state, seat) for seat in ("german", "allied")}
        both = dict(views["german"])
        stacks = []
        for stack in views["german"]["stacks"]:
            enemy = "allied" if stack["side"] == "german" else "german"
            seen = next(s for s in views[enemy]["stacks"] if s["hex"] == stack["hex"])
            stacks.append(seen)
        both["stacks"] = stacks
        return both

    async def run(self, name: str, ctx: Context, options: dict[str, Any]) -> list[Reply]:
        """A command's answers with their pictures drawn, as a transport sends them."""
        return await with_pictures(await self.layer.run(name, ctx, options))

    async def press(self, custom: str, ctx: Context) -> list[Reply]:
        return await with_pictures(await self.layer.press(custom, ctx))

    async def after(
        self, replies: list[Reply], caller: Caller, before: dict[Audience, set[str]]
    ) -> tuple[Any, dict[Audience, set[str]]]:
        """Check the answers to one request against the views before and after it; the state and views after."""
        state = await self.state()
        seen = self.visible(state)
        for audience, units in seen.items():
            self.ever_seen[audience] |= units | before[audience]
        hidden = self.forbidden(state, before, seen)
        self.check_replies(replies, caller, hidden)
        await self.open_choices(replies, hidden)
        self.check_pictures(replies, state)
        return state, seen

    async def perform(self, action: Action, rng: random.Random) -> tuple[list[Reply], bool]:
        """Send an action through the command layer; returns the answers and whether it was accepted."""
        caller = CALLERS[action.seat]
        ctx = Context(caller, CHANNEL, 1)
        revision = (await self.service.table(CHANNEL)).game.revision
        if action.verb == "attack" and rng.random() < 0.7:
            replies = await self.run("attack", ctx, {k: str(v) for k, v in action.args.items()})
            confirm = next((b for r in replies for b in r.buttons if b.label == "Confirm"), None)
            if confirm is not None:
                replies += await self.press(confirm.custom_id, ctx)
        else:
            args = " ".join(f"{k}={v}" for k, v in action.args.items())
            replies = await self.run("act", ctx, {"verb": action.verb, "args": args})
        return replies, (await self.service.table(CHANNEL, live=False)).game.revision != revision

    async def open_choices(self, replies: list[Reply], hidden: dict[Audience, set[str]]) -> None:
        """Press each "Show my choices" button as its seat and check what it shows."""
        for reply in replies:
            for button in reply.buttons:
                if button.label == "Show my choices":
                    seat = button.custom_id.rsplit(":", 1)[1]
                    shown = await self.press(button.custom_id, Context(CALLERS[seat], CHANNEL, 1))
                    self.check_replies(shown, CALLERS[seat], hidden)

    async def read_everything(self, state: Any) -> None:
        """The log, the dice, the status and every autocomplete, for each seat and a spectator, against the
        units that audience has never seen."""
        on_map = {u.id for u in state.on_map()}
        given = {"units": "", "unit": "", "attackers": "", "target": "", "division": "", "event": "", "hex": ""}
        enemy_units = {seat: [u for u in on_map if self.data.side_of(u) != seat] for seat in CALLERS}
        for audience, caller in (("german", ANN), ("allied", BOB), (None, EVE)):
            never = on_map - self.ever_seen[audience]
            ctx = Context(caller, CHANNEL, 1)
            for name in ("log", "dice", "game status", "oob", "stats", "victory"):
                for reply in await self.run(name, ctx, {}):
                    self.check_text(reply.text, never, f"{name} for {audience}")
            asked = dict(given)
            if audience is not None and enemy_units[audience]:
                asked["units"] = asked["unit"] = asked["attackers"] = sorted(enemy_units[audience])[0]
            for command in COMMANDS:
                for option in command.options:
                    if option.autocomplete is None:
                        continue
                    found = await self.layer.autocomplete(command.name, option.name, "", asked, ctx)
                    text = " ".join(f"{label} {value}" for label, value in found)
                    self.check_text(text, never, f"autocomplete {command.name} {option.name} for {audience}")
                    if option.name == "to" and audience is not None and asked["units"]:
                        assert not found, "the reach of an enemy unit was suggested"


    async def read_records(self, state: Any) -> None:
        """Issue 34: each audience's game record holds the log as that audience reads it, word for word (so nothing
        it has never seen), the seed only after the end, and the whole log only where none of it is hidden."""
        on_map = {u.id for u in state.on_map()}
        game = (await self.service.table(CHANNEL, live=False)).game
        for audience, caller in (("german", ANN), ("allied", BOB), (None, EVE)):
            record = await game_record(self.service, game.id, audience, pictures=False)
            log, _ = await self.service.log(CHANNEL, caller)
            assert [(e.seq, list(e.texts)) for e in record.entries] == [(e.seq, e.texts) for e in log]
            never = on_map - self.ever_seen[audience]
            self.check_text(record.victory, never, f"the record's status for {audience}")
            self.check_text("\n".join(t for e in record.entries for t in e.texts), never, f"record for {audience}")
            assert record.viewer == (audience or "spectator") and (record.seed is None) == game.live
            if record.chain is not None:  # whole only where nothing of it is hidden from this audience
                whole = json.dumps([[row.args, row.events] for row in record.chain])
                self.check_text(whole, never, f"the record's chain for {audience}")


def weighted_order(rng: random.Random, actions: list[Action]) -> list[Action]:
    def key(action: Action) -> float:
        weight = 0.15 if action.verb in ("pass", "end_activation", "end_support") else 1.0
        return rng.random() ** (1 / weight)

    return sorted(actions, key=key, reverse=True)


def stack_orders(watcher: Watcher, state: Any, side: str) -> list[Action]:
    """11.2: put a random unit on top of one of the side's stacks."""
    stacks = [s for s in watcher.adapter.view(state, side)["stacks"] if s["side"] == side and s["count"] > 1]
    return [Action(side, "put_on_top", {"unit": u["id"]}) for s in stacks for u in s["units"][1:]]


@pytest.mark.parametrize("seed", range(1, SEEDS + 1))
@pytest.mark.parametrize("game_id", ["ardennes44", "alsace44"])
async def test_11_nothing_hidden_ever_reaches_the_other_side(
    game_id: str, seed: int, monkeypatch: pytest.MonkeyPatch, drawn: list[dict[str, Any]]
) -> None:
    require_ardennes()
    monkeypatch.setattr(bot.service.game_service, "new_seed", lambda: seed.to_bytes(32, "big"))
    store = await SqliteStore.open(":memory:")
    try:
        offered = alsace_systems() if game_id == "alsace44" else systems()
        layer = CommandLayer(GameService(store, offered), game_id)
        watcher = Watcher(layer, drawn)
        start = Context(ANN, CHANNEL, 1)
        await watcher.run("game create", start, {"scenario": "initial-assault", "options": "fog_of_war"})
        await watcher.run("game join", start, {"seat": "german"})
        await watcher.run("game join", Context(BOB, CHANNEL, 1), {"seat": "allied"})
        replies = await watcher.run("game start", start, {})
        state = await watcher.state()
        seen = watcher.visible(state)
        watcher.check_replies(replies, ANN, watcher.forbidden(state, seen))
        watcher.check_pictures(replies, state)
        rng = random.Random(seed)
        game = watcher.adapter.game
        for step in range(1, ACTIONS + 1):
            if state.result is not None:
                break
            prompts = game.prompts(state)
            required = sorted(s for s, p in prompts.items() if not p.optional) or sorted(prompts)
            side = rng.choice(required)
            candidates = candidate_actions(game, state, side)
            if prompts[side].free_verbs and rng.random() < 0.2:
                candidates += stack_orders(watcher, state, side)
            for action in weighted_order(rng, candidates):
                replies, accepted = await watcher.perform(action, rng)
                if accepted:
                    break
            else:
                raise AssertionError(f"dead end for {side} at action {step}")
            state, seen = await watcher.after(replies, CALLERS[side], seen)
            if rng.random() < 0.05:
                undone = await watcher.run("game undo", Context(CALLERS[side], CHANNEL, 1), {})
                state, seen = await watcher.after(undone, CALLERS[side], seen)
            if step % CHECK_EVERY == 0:
                await watcher.read_everything(state)
        await watcher.read_everything(state)
        await watcher.read_records(state)
        assert watcher.checked["pictures"] >= 1 and watcher.checked["texts"] > 100, watcher.checked
    finally:
        await store.close()
