"""How many messages a whole Initial Assault leaves in its channel: the bot played as two players would.

``python bench/bench_messages.py`` (a few minutes; ``UMPIRE_BENCH_ACTIONS`` caps the actions, default: the
whole game). The game is played by ``tests/bot/scripted_game.py``: the real bot through the test suite's fake
Discord, a pinned dice seed, seeded random legal play through the commands a player would use, so two versions
of the bot can be compared on the same game.

Counted: the messages posted in the game's channel, the DMs, and the private answers (ephemeral), how many
channel messages ping somebody, and how many times the bot edited its last channel message to fold a seat's
next action into it instead of posting a new one. ``--smoke`` (measures nothing): the first 5 actions.
"""

from __future__ import annotations

import asyncio
import os
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.timing import smoke
from tests.bot.scripted_game import SCENARIO, SEED, play


def main() -> None:
    limit = int(os.environ["UMPIRE_BENCH_ACTIONS"]) if os.environ.get("UMPIRE_BENCH_ACTIONS") else None
    if smoke():
        limit = 5
    with tempfile.TemporaryDirectory() as folder:
        counts, applied, turn, seconds = asyncio.run(play(Path(folder), limit))
    print(f"{SCENARIO}, seed {SEED}: {applied} actions applied, turn {turn} reached, {seconds:.0f} s")
    for kind in ("channel", "channel with a ping", "channel pictures", "channel edits", "dm", "private answers"):
        print(f"  {kind}: {counts[kind]}")
    print(f"  channel messages per action: {counts['channel'] / max(1, applied):.2f}")


if __name__ == "__main__":
    main()
