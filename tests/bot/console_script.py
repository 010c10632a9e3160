"""A console script that plays a game from its start."""

from __future__ import annotations

SCRIPT = """
# both players bid; red moves first
choose 2
choose 1
act advance steps=3
act advance steps=1
act advance steps=2
game undo
attack line x
ok
choose 2
act advance steps=2
log
""".splitlines()
