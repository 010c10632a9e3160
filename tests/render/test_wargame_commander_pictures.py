"""The Wargame Commander's pictures: the map (frontline chains, breaks, Army Control, places, battles, margin)
and the plan sheet each side gets before a frame."""

from __future__ import annotations

import io

from PIL import Image

from engine.wargame_commander import air, ground, series
from engine.wargame_commander.state import SeriesState, board_of
from render.wargame_commander import SIDE_MARK, draw_map
from render.wargame_commander_plan import draw_plan_sheet, plan_rows
from scenarios.wargame_commander import board_document
from tests.wargame_commander.conftest import SEED, position
from tests.wargame_commander.play import greedy_basing


def _series() -> SeriesState:
    state = series.new_game(board_document("wargame-commander"), SEED)
    board = board_of(state)
    state.basing = {side: air.parse_basing(greedy_basing(board, side)) for side in board.sides}
    return state


def _map(state: SeriesState) -> Image.Image:
    board = board_of(state)
    ranges = {h: sorted(ground.army_control_range(state, board, h)) for h in board.units if board.units[h].type == "hq"}
    frontlines = {s: ground.frontline(state, board, s) for s in board.sides}
    return Image.open(io.BytesIO(draw_map(board, series.view(state, None), ranges, frontlines))).convert("RGB")


def _near(image: Image.Image, x: float, y: float, colour: tuple[int, int, int], reach: int = 2) -> bool:
    return any(
        image.getpixel((round(x) + dx, round(y) + dy)) == colour
        for dx in range(-reach, reach + 1)
        for dy in range(-reach, reach + 1)
    )


def test_the_map_draws_each_sides_frontline_chain_and_rings_its_breaks() -> None:
    from render.wargame_commander import _Sheet

    state = position(_series(), "move_allied_corps", frame=2, br_1=1002, cdn_2=1005, br_8=1011, us_1=1410)
    board = board_of(state)
    chain, gaps = ground.frontline(state, board, "allied")
    assert gaps, "the position leaves the Allied line broken"
    image = _map(state)
    sheet = _Sheet(board)
    occupied = {u.hex for u in state.units.values()} | {f.hex for f in board.airfields.values()}
    occupied |= {d.hex for d in board.depots.values()}
    plain = [h for h in chain if h not in occupied]
    assert plain
    for hex_ in plain[:5]:
        x, y = sheet.centre(hex_)
        assert _near(image, x - 5, y, SIDE_MARK["allied"]), f"no Allied frontline through {hex_}"
    x, y = sheet.centre(gaps[0])
    assert _near(image, x + 24, y, SIDE_MARK["allied"], reach=3), "the break is ringed"


def test_the_plan_sheet_lists_fields_squads_and_targets_for_its_side() -> None:
    state = _series()
    board = board_of(state)
    state.fields["B78"].closed = True
    state.depots["cologne"].damaged = True
    state.depots["liege"].side = "german"
    rows = plan_rows(board, series.view(state, "allied"), "allied")
    eindhoven = next(r for r in rows["fields"] if r[0] == "B.78 Eindhoven")
    assert eindhoven[3] == "closed (1.5d)" and "122wing 3" in eindhoven[5] and eindhoven[6] == "3/5"
    assert ["No. 122 Wing RAF", "strike", "3", "Tempest V", "B78 3"] in rows["squads"]
    cologne = next(r for r in rows["depots"] if r[0] == "Cologne")
    assert cologne[2] == "6" and cologne[4] == "damaged"
    liege = next(r for r in rows["depots"] if r[0] == "Liege")
    assert "retaking it scores 10" in liege[4]
    assert all(board.units[r[0].rsplit("(", 1)[1].rstrip(")")].side == "german" for r in rows["corps"])
    german = plan_rows(board, series.view(state, "german"), "german")
    assert not any(r[0] == "Cologne" for r in german["depots"])
    picture = Image.open(io.BytesIO(draw_plan_sheet(board, series.view(state, "allied"), "allied", "Big Blow")))
    assert picture.width == 980 and picture.height > 900


def test_a_battle_label_sits_under_its_counter_and_hides_no_counter() -> None:
    from render.wargame_commander import BATTLE, LABEL_TOP, SIDE_FILL, _Sheet

    state = _series()
    board = board_of(state)
    defender, attacker = state.units["de-66"], state.units["us-8"]
    state.battles = [
        {"id": "A1", "side": "allied", "defender": "de-66", "attackers": ["us-8"], "defender_hex": defender.hex,
         "attacker_hexes": [attacker.hex], "column": "1:1", "dice": [3, 4], "drm": 0, "result": "AE"}
    ]  # fmt: skip
    image = _map(state)
    x, y = _Sheet(board).centre(defender.hex)
    for dx in (-13, 13):  # the counter's lower corners keep their fill: the label is not over them
        assert image.getpixel((round(x + dx), round(y + 13))) == SIDE_FILL["german"]
    assert any(_near(image, x + dx, y + LABEL_TOP + 5, BATTLE, reach=1) for dx in range(-10, 11, 2)), "no label"
