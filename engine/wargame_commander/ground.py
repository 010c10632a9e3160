"""2.2-2.3 Ground units: zones of control, Army Control, the frontline, movement."""

from __future__ import annotations

import heapq
from collections import deque

from engine.contract import IllegalActionError
from engine.hexgrid import Hex, hex_name
from engine.wargame_commander.board import MOVE_COST, Board
from engine.wargame_commander.state import SeriesState, UnitState, board_of

ARMY_CONTROL_RANGE = 5
"""2.2b, 2.3b, 2.3d: Army Control and reserve reach five hexes from the Army HQ."""


def side_of(board: Board, unit_id: str) -> str:
    return board.units[unit_id].side


def is_corps(board: Board, unit_id: str) -> bool:
    return board.units[unit_id].type != "hq"


def on_board(state: SeriesState, side: str | None = None) -> list[UnitState]:
    b = board_of(state)
    return [u for u in state.units.values() if u.hex is not None and (side is None or b.units[u.id].side == side)]


def occupant(state: SeriesState) -> dict[Hex, str]:
    """Who stands in each hex (2.3g: one unit per hex)."""
    return {u.hex: u.id for u in state.units.values() if u.hex is not None}


def zoc(state: SeriesState, board: Board, side: str) -> set[Hex]:
    """2.2a: the hexes around a side's corps (Army HQs have none)."""
    found: set[Hex] = set()
    for unit in on_board(state, side):
        if board.unit_types[board.units[unit.id].type].zoc and unit.hex is not None:
            found.update(board.grid.neighbours(unit.hex))
    return found


def army_control_range(state: SeriesState, board: Board, hq_id: str) -> set[Hex]:
    """2.2b: the hexes an Army HQ's control reaches: five hexes, traced into an enemy ZOC but not through it,
    and never into an enemy unit."""
    hq = state.units.get(hq_id)
    if hq is None or hq.hex is None:
        return set()
    side = board.units[hq_id].side
    enemy = board.enemy(side)
    enemy_zoc = zoc(state, board, enemy)
    enemy_units = {u.hex for u in on_board(state, enemy)}
    reached = {hq.hex: 0}
    queue = deque([hq.hex])
    while queue:
        here = queue.popleft()
        if reached[here] == ARMY_CONTROL_RANGE or (here in enemy_zoc and here != hq.hex):
            continue
        for n in board.grid.neighbours(here):
            if n not in reached and n not in enemy_units and not board.is_sea(n):
                reached[n] = reached[here] + 1
                queue.append(n)
    return set(reached)


def in_army_control(state: SeriesState, board: Board, unit_id: str) -> bool:
    """2.2b, 4.2h: whether a corps is in its Army HQ's control (an HQ always is; 3.4b: a Blitzing corps too)."""
    unit = state.units[unit_id]
    spec = board.units[unit_id]
    if spec.type == "hq" or unit.blitz_active:
        return True
    return unit.hex is not None and unit.hex in army_control_range(state, board, spec.army)


def frontline_breaks(state: SeriesState, board: Board, side: str) -> tuple[int, list[Hex]]:
    """2.2c, 5.1: the fewest hexes without the side's ZOC that a line from the north edge (or the sea) to the
    south edge must cross, and those hexes. 0 means the frontline holds.

    A corps' own hex counts as covered. The line runs over land hexes; each uncovered hex is one break.
    """
    _, gaps = frontline(state, board, side)
    return len(gaps), gaps


def frontline(state: SeriesState, board: Board, side: str) -> tuple[list[Hex], list[Hex]]:
    """2.2c: the side's frontline as a chain of hexes from the north edge (or the sea) to the south edge, the
    one that crosses the fewest hexes outside its ZOC, and those hexes (its breaks, sorted).

    The chain is empty when no land hex links the two edges.
    """
    covered = zoc(state, board, side) | {u.hex for u in on_board(state, side) if is_corps(board, u.id) and u.hex}
    cost = {h: 0 if h in covered else 1 for h in board.land_hexes}
    best: dict[Hex, int] = {}
    came: dict[Hex, Hex | None] = {}
    queue: deque[Hex] = deque()
    for h in sorted(board.north_anchor):
        best[h] = cost[h]
        came[h] = None
        if cost[h] == 0:
            queue.appendleft(h)
        else:
            queue.append(h)
    # 0-1 breadth-first search: hexes are settled in order of their cost.
    settled: set[Hex] = set()
    end: Hex | None = None
    while queue:
        here = queue.popleft()
        if here in settled:
            continue
        settled.add(here)
        if here in board.south_anchor:
            end = here
            break
        for n in board.grid.neighbours(here):
            if n not in cost or n in settled:
                continue
            value = best[here] + cost[n]
            if value < best.get(n, 1 << 30):
                best[n] = value
                came[n] = here
                if cost[n] == 0:
                    queue.appendleft(n)
                else:
                    queue.append(n)
    if end is None:
        return [], []
    chain: list[Hex] = []
    walk: Hex | None = end
    while walk is not None:
        chain.append(walk)
        walk = came[walk]
    chain.reverse()
    return chain, sorted(h for h in chain if cost[h])


# --- 2.3 Movement ---------------------------------------------------------------------------------------------


def damaged_depots(state: SeriesState, board: Board, army: str) -> int:
    """2.3c, 2.44: damaged (or lost) supply depots servicing an Army HQ."""
    count = 0
    for depot_id, depot in board.depots.items():
        if depot.army == army:
            live = state.depots[depot_id]
            if live.damaged or live.side != depot.side:
                count += 1
    return count


def movement_points(state: SeriesState, board: Board, unit_id: str) -> int:
    """2.3a-c: the unit's MPs, doubled in reserve, less one per damaged depot of its army."""
    spec = board.units[unit_id]
    unit = state.units[unit_id]
    points = board.unit_types[spec.type].movement
    if spec.type != "hq" and unit.hex is not None:
        hq = state.units.get(spec.army)
        enemy_zoc = zoc(state, board, board.enemy(spec.side))
        in_reserve = (
            unit.hex not in enemy_zoc
            and hq is not None
            and hq.hex is not None
            and board.grid.distance(unit.hex, hq.hex) <= ARMY_CONTROL_RANGE
        )
        if in_reserve:
            points *= 2
    return max(0, points - damaged_depots(state, board, spec.army))


def reachable(state: SeriesState, board: Board, unit_id: str) -> dict[Hex, int]:
    """2.3: every hex the unit may end its move in, with the MPs it costs (2.3e: one hex is always allowed)."""
    spec = board.units[unit_id]
    unit = state.units[unit_id]
    if unit.hex is None:
        return {}
    side = spec.side
    enemy = board.enemy(side)
    enemy_zoc = zoc(state, board, enemy)
    enemy_hexes = {u.hex for u in on_board(state, enemy)}
    taken = set(occupant(state)) - {unit.hex}
    hq = state.units.get(spec.army)
    hq_hex = hq.hex if hq is not None and spec.type != "hq" else None
    out_of_control_cost = spec.type != "hq" and not unit.blitz_active
    budget = movement_points(state, board, unit_id)

    def enter_cost(n: Hex) -> int:
        value = MOVE_COST[board.terrain[n]]
        if n in enemy_zoc:
            value += 1
        if out_of_control_cost and (hq_hex is None or board.grid.distance(n, hq_hex) > ARMY_CONTROL_RANGE):
            value += 1
        return value

    def may_enter(n: Hex) -> bool:
        if n in enemy_hexes:
            return False  # 2.3i
        return not (spec.type == "hq" and n in enemy_zoc)  # 2.3k

    start = unit.hex
    first_steps = board.grid.neighbours(start)
    if board.is_sea(start) and unit.sea_entry is not None:
        first_steps = (unit.sea_entry,)  # 2.3f: out through the hexside it came in by
    found: dict[Hex, int] = {}
    best = {start: 0}
    heap: list[tuple[int, Hex]] = []
    for n in first_steps:
        if not may_enter(n):
            continue
        value = enter_cost(n)
        if n not in taken:
            found[n] = min(value, budget)  # 2.3e: one hex is always allowed
        if value <= budget and not board.is_sea(n) and value < best.get(n, 1 << 30):
            best[n] = value
            heapq.heappush(heap, (value, n))
    while heap:
        spent, here = heapq.heappop(heap)
        if spent > best.get(here, 1 << 30):
            continue
        for n in board.grid.neighbours(here):
            if not may_enter(n) or n == start:
                continue
            value = spent + enter_cost(n)
            if value > budget:
                continue
            if n not in taken and value < found.get(n, 1 << 30):
                found[n] = value
            # 2.3f: a sea hex is entered and left by the same hexside, so it can only end a move.
            if not board.is_sea(n) and value < best.get(n, 1 << 30):
                best[n] = value
                heapq.heappush(heap, (value, n))
    return found


def check_move(state: SeriesState, board: Board, unit_id: str, to: Hex) -> int:
    """The MPs a legal move costs.

    :raises IllegalActionError: naming the rule that forbids it.
    """
    unit = state.units[unit_id]
    if unit.engaged:
        raise IllegalActionError(f"{board.units[unit_id].name} is Engaged and cannot move this phase", "2.47")
    if unit_id in state.moved:
        raise IllegalActionError(f"{board.units[unit_id].name} has already moved this phase", "2.3a")
    options = reachable(state, board, unit_id)
    if to not in options:
        if to in occupant(state):
            raise IllegalActionError(f"hex {hex_name(to)} is occupied", "2.3g")
        raise IllegalActionError(
            f"{board.units[unit_id].name} cannot reach {hex_name(to)} with "
            f"{movement_points(state, board, unit_id)} MP (terrain, enemy ZOC and Army Control costs, enemy units "
            "block; Army HQs may not enter enemy ZOC)",
            "2.3",
        )
    return options[to]
