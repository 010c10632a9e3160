"""The bundled font: letters it lacks are spelled without them, so no name prints as empty boxes."""

from __future__ import annotations

from render.fonts import has_glyph, printable


def test_german_letters_the_font_lacks_are_spelled_out() -> None:
    assert printable("v. Böhm/2") == "v. Boehm/2"
    assert printable("Müller/12") == "Mueller/12"


def test_other_accented_letters_lose_their_accent_only_when_missing() -> None:
    assert printable("Liège") == ("Liège" if has_glyph("è") else "Liege")
    assert printable("Bastogne") == "Bastogne"
