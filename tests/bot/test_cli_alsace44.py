"""`umpire validate alsace44` and `umpire render alsace44 --setup` work end to end (issue 14)."""

from __future__ import annotations

from pathlib import Path

import pytest
from PIL import Image

from bot.cli import main
from render import palette
from render.picture import MapPicture
from render.snapshot import frame, render_map
from scenarios import load_game


def test_validate_alsace44_reports_a_sound_game(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["validate", "alsace44"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Alsace 1944: sound.") and "The Entire Battle" in out


def test_render_alsace44_setup_writes_a_picture(tmp_path: Path) -> None:
    out = tmp_path / "alsace.png"
    assert main(["render", "alsace44", "--setup", "--out", str(out)]) == 0
    with Image.open(out) as image:
        assert image.width > 1000 and image.height > 1000
    assert out.stat().st_size < 2_000_000


def test_the_alsace_map_draws_switzerland_and_both_hexes_of_belfort() -> None:
    data = load_game("alsace44")
    picture = MapPicture(game_map=data.map)
    image = render_map(picture).convert("RGB")
    where = frame(picture)

    def colour(hex_: int) -> tuple[int, int, int]:
        x, y = where.pixel(hex_)
        # A point to the left of the centre, clear of symbols, names and numbers.
        sample = image.getpixel((round(x - where.layout.size * 0.7), round(y)))
        assert isinstance(sample, tuple)
        return (int(sample[0]), int(sample[1]), int(sample[2]))

    assert colour(2520) == palette.NO_ENTRY
    assert colour(1109) == colour(1110) == palette.CITY_GROUND
