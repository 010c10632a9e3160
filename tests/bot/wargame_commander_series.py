"""The console transcript of a whole Wargame Commander series, and how it was written.

``tests/bot/data/wargame-commander-series.txt`` is a ``umpire local --system wargame-commander --script`` file:
the three seats (the Allied and German Frame COs, the campaign manager) play a five-frame series from the
first basing plans to the final score, with the commands of ``docs/wargame-commander.md`` only. Its dice are
the game's: the test pins the game seed (``SEED``) so that every battle falls out as when it was written.

It was written by playing the console itself, one line at a time, choosing each line from the position the
console shows (the policy below; the battles by a seeded random choice among the legal ones). To write it
again after a change of the rules: ``python -m tests.bot.wargame_commander_series``.
"""

from __future__ import annotations

import asyncio
import io
import random
from pathlib import Path
from typing import Any

import bot.service.game_service
from bot.commands.layer import CommandLayer
from bot.service.game_service import GameService
from bot.store.sqlite import SqliteStore
from bot.systems import systems
from bot.transports.console import Console
from engine.hexgrid import hex_name
from engine.wargame_commander import ground, series
from engine.wargame_commander.state import SeriesState, board_of
from tests.wargame_commander.play import greedy_basing, greedy_operation_basing, random_designation

SEED = b"\x17" * 32
"""The game seed the transcript was written with (the test pins it)."""
TRANSCRIPT = Path(__file__).parent / "data" / "wargame-commander-series.txt"
REPORT = (
    "shot_down,german,Bf 109G,3\\nshot_down,allied,P-47D,1\\nairfield,Y29,moderate\\ndepot,cologne\\npilot,Rall,2,0,0"
)
"""Frame 1's report as first entered (the German Frame CO disputes the depot, the CM corrects it)."""
CORRECTED = "shot_down,german,Bf 109G,3\\nshot_down,allied,P-47D,1\\nairfield,Y29,moderate\\npilot,Rall,2,0,0"
LATER = "shot_down,german,Fw 190D-9,2\\nshot_down,allied,Spitfire IX,1\\npilot,Barkhorn,3,2,1"
"""The report of every later frame."""


def next_lines(state: SeriesState, rng: random.Random, memory: dict[str, Any]) -> list[str]:
    """The console lines a table types next in this position."""
    board = board_of(state)
    prompts = series.prompts(state)
    phase = state.phase
    if phase == "basing":
        return [f"as {side}\nframe basing plan={greedy_basing(board, side)}" for side in ("allied", "german")]
    if phase == "report":
        text = REPORT if state.frame == 1 else LATER
        return [f'as cm\nframe report "text={text}"']
    if phase == "dispute":
        if state.frame == 1 and not memory.get("disputed"):
            memory["disputed"] = True
            return [
                'as german\nframe dispute "reason=Cologne was not hit: our log shows no depot lost"',
                f'as cm\nframe report "text={CORRECTED}"',
            ]
        return [f"as {side}\nframe accept" for side in ("allied", "german") if side in prompts]
    if phase == "designate":
        lines = []
        for side in ("allied", "german"):
            if side in prompts:
                battles = random_designation(state, board, side, rng)
                lines.append(f'as {side}\nframe designate "battles={battles}"')
        return lines
    if phase == "blitz":
        able = [u for u in ("ss-1", "ss-2", "pz-47", "pz-58") if state.units[u].hex is not None]
        if memory.get("blitzed") or not able:
            return ["frame blitz"]
        memory["blitzed"] = True
        return [f"frame blitz units={able[0]}"]
    if phase == "declare":
        return ["frame declare " + ("bigblow" if state.frame == 4 else "none")]
    if phase == "operation_basing":
        return [f"as allied\nframe basing plan={greedy_operation_basing(state, board)}"]
    if phase == "retreat":
        return [f"as {next(iter(prompts))}\nchoose 1"]
    seat = next(s for s in prompts if not prompts[s].optional)
    if phase in series.MOVEMENT_PHASES and rng.random() < 0.6:
        side, hqs = series.MOVEMENT_PHASES[phase]
        movers = [
            u
            for u in ground.on_board(state, side)
            if (board.units[u.id].type == "hq") == hqs and u.id not in state.moved and not u.engaged
        ]
        for unit in movers[:1]:
            options = sorted(ground.reachable(state, board, unit.id))
            if options:
                return [f"as {seat}\nmove units={unit.id} to={hex_name(rng.choice(options))}"]
    return [f"as {seat}\nframe done"]


async def write(path: Path = TRANSCRIPT, out_dir: Path | None = None) -> str:
    """Play a series at the console and write its transcript; returns what the console printed (the files
    the console writes go to ``out_dir``, a temporary folder by default)."""
    import tempfile

    out_dir = out_dir or Path(tempfile.mkdtemp(prefix="wc-series-"))
    store = await SqliteStore.open(":memory:")
    service = GameService(store, systems())
    out = io.StringIO()
    original = bot.service.game_service.new_seed
    bot.service.game_service.new_seed = lambda: SEED
    try:
        layer = CommandLayer(service, "wargame-commander", pictures=False)
        console = Console(layer, out=out, out_dir=out_dir)
        await console.setup("wargame-commander", "", "wargame-commander")
        rng = random.Random(38)
        memory: dict[str, Any] = {}
        typed = [
            "# The Ardennes Wargame Commander: a whole series at the console (docs/wargame-commander.md).",
            "# Three seats: allied and german (the Frame COs), cm (the campaign manager, a moderator).",
            "help",
            "help move",
        ]
        await console.line("help")
        await console.line("help move")
        for _ in range(2000):
            state: SeriesState = await service.state((await service.table(console.channel, live=False)).game)
            if state.phase == "over":
                break
            for block in next_lines(state, rng, memory):
                for line in block.split("\n"):
                    if line.startswith("as ") and console.current == line[3:]:
                        continue
                    typed.append(line)
                    console.say(f"{console.current}> {line}")
                    await console.line(line)
        else:
            raise AssertionError("the series did not end")
        for line in ("score", "frame plan side=german", "game verify"):
            typed.append(line)
            console.say(f"{console.current}> {line}")
            await console.line(line)
        assert console.refusals == 0, out.getvalue()[-3000:]
        path.write_text("\n".join(typed) + "\n", encoding="utf-8")
        return out.getvalue()
    finally:
        bot.service.game_service.new_seed = original
        await service.renderer.aclose()
        await store.close()


if __name__ == "__main__":
    printed = asyncio.run(write())
    print(printed[-2500:])
