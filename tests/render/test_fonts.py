"""Names print as the game prints them (issue 33): accented letters are drawn, in a font that has them."""

from __future__ import annotations

from PIL import Image, ImageDraw

from render.fonts import TYPEFACE, ascii_only, draw_text, drawable, font, has_glyph, printable, text_width


def test_names_keep_their_accents() -> None:
    assert printable("v. Böhm/2") == "v. Böhm/2"
    assert printable("Müller/12") == "Müller/12"
    assert printable("Montbéliard") == "Montbéliard"
    assert all(drawable(c) for c in "éèêëàâäôöûüçîïÉßÄÖÜ")


def test_accented_text_is_drawn_in_the_bundled_typeface_with_real_glyphs() -> None:
    """The default font lacks é and ü; the text that holds them is drawn in DejaVu Sans Condensed, whose
    é differs from its e (an accent is drawn, not a blank box or a bare letter)."""
    assert TYPEFACE.is_file()
    assert not has_glyph("é") and font(14, "Montbéliard") is not font(14, "Belfort")

    def ink(text: str) -> bytes:
        image = Image.new("RGB", (40, 30), (0, 0, 0))
        draw_text(ImageDraw.Draw(image), (20, 15), text, 18, (255, 255, 255))
        return image.tobytes()

    assert ink("é") != ink("e") and ink("ü") != ink("u")
    assert text_width("Müller/12", 12) > 0


def test_a_picture_in_the_default_font_alone_spells_letters_without_their_accents() -> None:
    assert ascii_only("v. Böhm/2") == "v. Boehm/2"
    assert ascii_only("Liège") == ("Liège" if has_glyph("è") else "Liege")
    assert ascii_only("Bastogne") == "Bastogne"
