"""Long information answers are cut into messages between lines, never in the middle of one (bot.info.pages)."""

from __future__ import annotations

from bot.info import pages


def test_pages_cut_between_lines_and_keep_everything() -> None:
    text = "\n".join(f"line {n}: " + "x" * (n % 70) for n in range(300))
    cut = pages(text, limit=500)
    assert len(cut) > 1 and all(len(page) <= 500 for page in cut)
    assert "\n".join(cut) == text  # no line split, none lost


def test_a_line_longer_than_a_page_is_cut_between_words() -> None:
    line = " ".join(["word"] * 300)
    cut = pages(f"head\n{line}\ntail", limit=100)
    assert all(len(page) <= 100 for page in cut) and cut[0] == "head" and cut[-1].endswith("tail")
    assert " ".join(" ".join(cut[1:]).split()) == " ".join(f"{line} tail".split())


def test_a_short_answer_is_one_page() -> None:
    assert pages("one line") == ["one line"] and pages("") == [""]
