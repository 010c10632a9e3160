"""Junk that a player might type as a command's argument."""

from __future__ import annotations

from typing import Any

JUNK: list[Any] = [
    "",
    " ",
    "\x00",
    "a" * 5000,
    "💥" * 50,
    "'; DROP TABLE games; --",
    "-1",
    "1e309",
    "nan",
    -(10**30),
    10**30,
    3.5,
    True,
    None,
    "<@123>",
    "wg:1:1:c:red.1",
    "units=x to=y",
]
