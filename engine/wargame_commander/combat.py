"""2.4 Ground combat: possible battles, odds and dice roll modifiers, the CRT, cumulative results, retreats
(2.45), breakthrough movement (2.46) and Engaged (2.47)."""

from __future__ import annotations

from dataclasses import dataclass

from engine.contract import IllegalActionError, InvalidActionError
from engine.hexgrid import Hex, hex_name
from engine.wargame_commander.board import Board
from engine.wargame_commander.ground import (
    damaged_depots,
    in_army_control,
    is_corps,
    occupant,
    on_board,
    zoc,
)
from engine.wargame_commander.records import Battle, BattleOdds, BreakthroughAllowance
from engine.wargame_commander.state import SeriesState

MAX_BATTLES = 4
"""2.4a, 4.2i: each side may attack four enemy ground units."""

COLUMNS = ("1:6", "1:4", "1:2", "1:1", "2:1", "3:1", "4:1", "6:1", "7+")
"""2.42: the CRT's nine columns (1:6 also stands for 1:5, 1:4 for 1:3, 6:1 for 5:1)."""

CRT: dict[int, tuple[str, ...]] = {
    1: ("A3", "A3", "A2", "A2", "A1", "AE", "AE", "ADE", "DE"),
    2: ("A3", "A2", "A2", "A1", "A1", "AE", "C", "DE", "D1"),
    3: ("A3", "A2", "A1", "A1", "AE", "C", "ADE", "DE", "D1"),
    4: ("A2", "A2", "A1", "A1", "AE", "C", "DE", "D1", "D1"),
    5: ("A2", "A1", "A1", "AE", "C", "ADE", "DE", "D1", "D2"),
    6: ("A2", "A1", "AE", "AE", "C", "DE", "D1", "D1", "D2"),
    7: ("A1", "A1", "AE", "C", "ADE", "DE", "D1", "D2", "D2"),
    8: ("A1", "AE", "AE", "C", "ADE", "D1", "D1", "D2", "D3"),
    9: ("A1", "AE", "C", "ADE", "DE", "D1", "D1", "D2", "D3"),
    10: ("AE", "AE", "C", "ADE", "DE", "D1", "D2", "D3", "DS"),
    11: ("AE", "C", "ADE", "DE", "D1", "D1", "D2", "D3", "DS"),
    12: ("C", "ADE", "ADE", "DE", "D1", "D2", "D3", "DS", "DS"),
    13: ("ADE", "ADE", "DE", "D1", "D1", "D2", "DS", "DS", "DS"),
}
"""2.42 as read from the damaged print: rows "1-" (1) to "13+" (13); a blank cell is Contact, ``C``."""

TERRAIN_DRM = {"hills": -2, "woods": -1, "river": -2}
"""2.44: the defender's hex."""


def crt_row(total: int) -> int:
    return max(1, min(13, total))


def column_of(attack: int, defence: int) -> int:
    """2.42: the CRT column of the odds, rounded in the defender's favour.

    >>> [COLUMNS[column_of(a, d)] for a, d in [(9, 3), (8, 3), (4, 5), (3, 5), (1, 5), (15, 2)]]
    ['3:1', '2:1', '1:2', '1:2', '1:6', '7+']
    """
    if attack >= defence:
        ratio = attack // defence
        return {1: 3, 2: 4, 3: 5, 4: 6, 5: 7, 6: 7}.get(ratio, 8)
    against = -(-defence // attack)
    return {2: 2, 3: 1, 4: 1}.get(against, 0)


def strength(state: SeriesState, board: Board, unit_id: str) -> int:
    """2.41: combat strength less tac air damage and 1 out of Army Control (never below 1); 3.4d losses too."""
    unit = state.units[unit_id]
    spec = board.units[unit_id]
    value = board.unit_types[spec.type].strength - unit.lost - unit.damage
    if not in_army_control(state, board, unit_id):
        value -= 1
    return max(1, value)


@dataclass(frozen=True)
class PossibleBattle:
    """4.2i, 2.4e: an enemy unit that a side's corps stand next to, with who may attack it."""

    side: str
    defender: str
    attackers: tuple[str, ...]
    attack: int
    defence: int

    @property
    def designated(self) -> bool:
        """2.4f: the side with the higher CS is the attacker on the CRT (ties go to the side that attacks)."""
        return self.attack >= self.defence


def possible_battles(state: SeriesState, board: Board, side: str) -> list[PossibleBattle]:
    """2.4e: every battle the side could fight, with all its adjacent corps as attackers."""
    enemy = board.enemy(side)
    own_corps = [u for u in on_board(state, side) if is_corps(board, u.id)]
    found = []
    for target in sorted(on_board(state, enemy), key=lambda u: u.id):
        assert target.hex is not None
        around = set(board.grid.neighbours(target.hex))
        attackers = tuple(sorted(u.id for u in own_corps if u.hex in around))
        if attackers:
            attack = sum(strength(state, board, a) for a in attackers)
            found.append(PossibleBattle(side, target.id, attackers, attack, strength(state, board, target.id)))
    return found


def parse_designation(text: str) -> list[tuple[str, tuple[str, ...]]]:
    """``de-66:us-8+us-5; ss-1:us-18`` into ``[("de-66", ("us-8", "us-5")), ("ss-1", ("us-18",))]``.

    :raises InvalidActionError: for a piece that cannot be read.
    """
    found = []
    for piece in text.replace(",", ";").split(";"):
        piece = piece.strip()
        if not piece:
            continue
        defender, sep, attackers = piece.partition(":")
        names = tuple(a.strip() for a in attackers.split("+") if a.strip())
        if not sep or not defender.strip() or not names:
            raise InvalidActionError(f"write each battle as defender:attacker+attacker, not {piece!r}", "4.2i")
        found.append((defender.strip(), names))
    return found


def check_designation(state: SeriesState, board: Board, side: str, battles: list[tuple[str, tuple[str, ...]]]) -> None:
    """4.2i, 2.4a-c, 2.4e-f, 3.4c: up to four battles, one attack per corps, only where the side is the
    designated attacker, every Blitz corps attacking.

    :raises IllegalActionError: naming the rule.
    """
    if len(battles) > MAX_BATTLES:
        raise IllegalActionError(f"{len(battles)} battles designated; a side may fight at most four", "2.4a")
    enemy = board.enemy(side)
    used: set[str] = set()
    targets: set[str] = set()
    for defender, attackers in battles:
        target = state.units.get(defender)
        if target is None or target.hex is None or board.units[defender].side != enemy:
            raise IllegalActionError(f"{defender!r} is not an enemy unit on the board", "2.4a")
        if defender in targets:
            raise IllegalActionError(f"{board.units[defender].name} is attacked twice", "4.2i")
        targets.add(defender)
        for a in attackers:
            unit = state.units.get(a)
            if unit is None or unit.hex is None or board.units[a].side != side:
                raise IllegalActionError(f"{a!r} is not one of your units on the board", "2.4b")
            if not is_corps(board, a):
                raise IllegalActionError(f"{board.units[a].name} is an Army HQ: HQs only defend", "2.4b")
            if a in used:
                raise IllegalActionError(f"{board.units[a].name} attacks twice: one attack per corps", "2.4c")
            if not board.grid.are_adjacent(unit.hex, target.hex):
                raise IllegalActionError(f"{board.units[a].name} is not next to {board.units[defender].name}", "2.4e")
            used.add(a)
        attack = sum(strength(state, board, a) for a in attackers)
        defence = strength(state, board, defender)
        blitz = any(state.units[a].blitz_active for a in attackers)
        if attack < defence and not blitz:
            raise IllegalActionError(
                f"against {board.units[defender].name} your CS is {attack} to {defence}: the side with the higher CS "
                "is the attacker, so this battle is not yours to fight (only a Blitz corps attacks regardless of odds)",
                "2.4f",
            )
    for unit in on_board(state, side):
        if unit.blitz_active and unit.id not in used:
            adjacent = any(board.grid.are_adjacent(unit.hex or 0, e.hex or 0) for e in on_board(state, enemy))
            if adjacent:
                raise IllegalActionError(
                    f"{board.units[unit.id].name} is Blitzing and must attack this combat phase", "3.4c"
                )


def modifiers(state: SeriesState, board: Board, defender: str, attackers: tuple[str, ...]) -> list[tuple[str, int]]:
    """2.44: every dice roll modifier of a battle, each with its reason."""
    found: list[tuple[str, int]] = []
    target = state.units[defender]
    assert target.hex is not None
    terrain = board.terrain[target.hex]
    if terrain in TERRAIN_DRM:
        found.append((f"defender in {terrain} hex", TERRAIN_DRM[terrain]))
    if any(board.terrain[state.units[a].hex or 0] == "river" for a in attackers):
        found.append(("attacking from river hex", -1))
    isolated = [a for a in attackers if not in_army_control(state, board, a)]
    if isolated:
        found.append((f"{len(isolated)} attacker(s) out of Army Control", -len(isolated)))
    if not in_army_control(state, board, defender):
        found.append(("defender out of Army Control", 1))
    attacking_side = board.units[attackers[0]].side
    corps_around = sum(
        1
        for u in on_board(state, attacking_side)
        if is_corps(board, u.id) and u.hex in board.grid.neighbours(target.hex)
    )
    if corps_around >= 4:
        found.append((f"defender surrounded by {corps_around} corps", 2))
    armies = sorted({board.units[a].army for a in attackers})
    attacker_depots = sum(damaged_depots(state, board, army) for army in armies)
    if attacker_depots:
        found.append((f"{attacker_depots} damaged depot(s) of the attacking army", -attacker_depots))
    defender_depots = damaged_depots(state, board, board.units[defender].army)
    if defender_depots:
        found.append((f"{defender_depots} damaged depot(s) of the defending army", defender_depots))
    return found


def battle_odds(state: SeriesState, board: Board, defender: str, attackers: tuple[str, ...]) -> BattleOdds:
    """The exact odds of a battle: strengths, CRT column and modifiers."""
    attack = sum(strength(state, board, a) for a in attackers)
    defence = strength(state, board, defender)
    drms = modifiers(state, board, defender, attackers)
    return {
        "attack": attack,
        "defence": defence,
        "column": COLUMNS[column_of(attack, defence)],
        "column_index": column_of(attack, defence),
        "drms": [[reason, value] for reason, value in drms],
        "drm": sum(v for _, v in drms),
    }


def retreat_target(state: SeriesState, board: Board, unit_id: str) -> tuple[str, Hex | None]:
    """2.45: a corps retreats toward its Army HQ; an HQ (or a corps whose HQ is gone) toward its home edge."""
    spec = board.units[unit_id]
    hq = state.units.get(spec.army)
    if spec.type != "hq" and hq is not None and hq.hex is not None:
        return "hq", hq.hex
    return "edge", None


def retreat_distance(state: SeriesState, board: Board, unit_id: str, hex_: Hex) -> int:
    kind, target = retreat_target(state, board, unit_id)
    if kind == "hq" and target is not None:
        return board.grid.distance(hex_, target)
    column = hex_ // 100
    # Each side's rear: the Allied side is the first (west), the other the east.
    return column - 1 if board.units[unit_id].side == board.sides[0] else board.grid.columns - column


def retreat_options(state: SeriesState, board: Board, unit_id: str, visited: list[int]) -> list[Hex]:
    """2.45: the hexes a retreating unit may step into next: never away from its Army HQ, never into enemy ZOC
    unless the step brings it closer, never into an occupied hex or back over its own path."""
    unit = state.units[unit_id]
    assert unit.hex is not None
    enemy_zoc = zoc(state, board, board.enemy(board.units[unit_id].side))
    taken = occupant(state)
    here = retreat_distance(state, board, unit_id, unit.hex)
    options = []
    for n in board.grid.neighbours(unit.hex):
        if board.is_sea(n) or n in taken or n in visited:
            continue
        there = retreat_distance(state, board, unit_id, n)
        if there > here:
            continue
        if n in enemy_zoc and there >= here:
            continue
        options.append(n)
    return options


def result_effects(result: str) -> tuple[str, int, bool, bool]:
    """2.43: (who retreats: ``attacker`` / ``defender`` / ``""``, hexes, attackers engaged, defender engaged)."""
    if result in ("A1", "A2", "A3"):
        return "attacker", int(result[1]), False, False
    if result in ("D1", "D2", "D3"):
        return "defender", int(result[1]), False, False
    return "", 0, result in ("AE", "ADE"), result in ("DE", "ADE")


def describe_battle(board: Board, battle: Battle) -> str:
    names = " + ".join(board.units[a].name for a in battle["attackers"])
    drm = ", ".join(f"{reason} {value:+d}" for reason, value in battle["drms"]) or "no modifier"
    return (
        f"{names} ({battle['attack']}) against {board.units[battle['defender']].name} ({battle['defence']}) "
        f"at {battle['column']}: dice {battle['dice'][0]}+{battle['dice'][1]}, {drm}, total {battle['total']}: "
        f"{battle['result']}"
    )


def check_advance(state: SeriesState, board: Board, side: str, unit_id: str, to: Hex) -> BreakthroughAllowance:
    """2.46: the breakthrough allowance a move uses.

    :raises IllegalActionError: naming the rule.
    """
    unit = state.units.get(unit_id)
    if unit is None or unit.hex is None or board.units[unit_id].side != side:
        raise IllegalActionError(f"{unit_id!r} is not one of your units on the board", "2.46")
    if unit.engaged:
        raise IllegalActionError(f"{board.units[unit_id].name} is Engaged: no breakthrough movement", "2.47")
    if not board.grid.are_adjacent(unit.hex, to) or board.is_sea(to):
        raise IllegalActionError(f"{hex_name(to)} is not a land hex next to {board.units[unit_id].name}", "2.46")
    if to in occupant(state):
        raise IllegalActionError(f"hex {hex_name(to)} is occupied", "2.3g")
    for allowance in state.breakthroughs:
        if allowance["side"] != side or unit_id not in allowance["units"] or allowance["left"] <= 0:
            continue
        if not allowance["used"] and to not in allowance["vacated"]:
            continue
        return allowance
    raise IllegalActionError(
        f"{board.units[unit_id].name} has no breakthrough movement into {hex_name(to)}: only corps of a won battle, "
        "first into the hex the enemy vacated, then as many hexes as the result gave",
        "2.46",
    )


def designation_options(state: SeriesState, board: Board, side: str) -> list[tuple[str, tuple[str, ...]]]:
    """4.2i, 2.4e-f: every battle the side may designate, as (defender, attackers): for each enemy unit next
    to its corps, every group of those corps whose CS reaches the defender's (any group with a Blitz corps,
    3.4c), the whole group first. What a menu offers; :func:`check_designation` still checks the set."""
    from itertools import combinations

    found = []
    for battle in possible_battles(state, board, side):
        defence = strength(state, board, battle.defender)
        groups = [
            group
            for size in range(len(battle.attackers), 0, -1)
            for group in combinations(battle.attackers, size)
            if sum(strength(state, board, a) for a in group) >= defence
            or any(state.units[a].blitz_active for a in group)
        ]
        found += [(battle.defender, group) for group in groups]
    return found
