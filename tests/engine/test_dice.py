"""Verifiable dice: rolls derive from the seed and the roll's number, and anyone can recompute them."""

from __future__ import annotations

import hashlib
import hmac
from collections import Counter

from engine.dice import Dice, commitment, new_seed, roll, verify


def test_a_roll_is_recomputable_with_the_standard_library() -> None:
    seed = bytes(range(32))
    for number in range(50):
        digest = hmac.new(seed, str(number).encode(), hashlib.sha256).digest()
        assert roll(seed, number) == int.from_bytes(digest[:8], "big") % 6 + 1


def test_dice_advance_their_counter_and_replay_identically() -> None:
    first, second = Dice(b"s" * 32), Dice(b"s" * 32)
    assert [first.d6() for _ in range(20)] == [second.d6() for _ in range(20)]
    assert first.rolls_made == 20


def test_faces_are_fair_enough() -> None:
    dice = Dice(b"fair" * 8)
    counts = Counter(dice.d6() for _ in range(60_000))
    assert set(counts) == {1, 2, 3, 4, 5, 6}
    assert all(9_400 < count < 10_600 for count in counts.values())


def test_verify_accepts_true_rolls_and_names_false_ones() -> None:
    seed = b"x" * 32
    rolls = [(n, 6, roll(seed, n)) for n in range(10)]
    assert verify(seed.hex(), commitment(seed), rolls) == []
    number, sides, value = rolls[3]
    forged = [*rolls[:3], (number, sides, value % 6 + 1), *rolls[4:]]
    problems = verify(seed.hex(), commitment(seed), forged)
    assert len(problems) == 1 and "roll #3" in problems[0]
    assert "does not match" in verify(seed.hex(), "0" * 64, rolls)[0]


def test_a_new_seed_is_32_fresh_bytes() -> None:
    first, second = new_seed(), new_seed()
    assert len(first) == len(second) == 32 and first != second


def test_a_die_of_any_sides_advances_the_counter_and_is_recomputable() -> None:
    dice = Dice(b"d" * 32, rolls_made=5)
    values = [dice.d(10) for _ in range(200)]
    assert dice.rolls_made == 205
    assert values == [roll(b"d" * 32, 5 + k, 10) for k in range(200)]
    assert set(values) == set(range(1, 11))


def test_verify_checks_a_die_of_other_sides_with_its_own_sides_and_says_why_a_seed_fails() -> None:
    seed = b"v" * 32
    rolls = [(n, 10, roll(seed, n, 10)) for n in range(20)]
    assert verify(seed.hex(), commitment(seed), rolls) == []
    assert verify(seed.hex(), "0" * 64, []) == [
        "the revealed seed does not match the hash published at the game's creation"
    ]
