"""Names print as the game prints them (issue 33): accented letters are drawn, in a font that has them."""

from __future__ import annotations

import pytest
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


@pytest.mark.parametrize("halo", [None, (255, 255, 255)])
def test_text_drawn_from_kept_masks_is_pixel_for_pixel_pillows(halo: tuple[int, int, int] | None) -> None:
    """Issue 32: draw_text keeps each text's rendered mask; what it draws, on RGB and RGBA images, at whole
    and fractional places, in both fonts, with and without a halo, is exactly what ImageDraw.text draws."""
    for mode in ("RGB", "RGBA"):
        for text, size, anchor in (("Bastogne", 14, "mt"), ("3-2-4", 11, "mm"), ("Montbéliard", 17, "lt")):
            for xy in ((40.0, 20.0), (40.5, 20.5), (41.25, 19.75)):
                kept = Image.new(mode, (120, 50), (90, 140, 60))
                plain = kept.copy()
                for _ in range(2):  # the second time from the kept mask
                    draw_text(ImageDraw.Draw(kept), xy, text, size, (20, 20, 20), anchor=anchor, halo=halo)
                face = font(size, printable(text))
                for _ in range(2):
                    pillow = ImageDraw.Draw(plain)
                    ink = (20, 20, 20)
                    pillow.text(xy, printable(text), ink, face, anchor, stroke_width=2 if halo else 0, stroke_fill=halo)
                assert kept.tobytes() == plain.tobytes(), (mode, text, xy)
