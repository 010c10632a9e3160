"""The game record: one self-contained HTML page per game (issue 34), built from plain data.

:mod:`render.record.data` holds what a page shows (the service gathers it), :mod:`render.record.images` makes the
pictures compact, :mod:`render.record.charts` draws the charts as inline SVG, :mod:`render.record.page` writes the
page, whose script (``record.js``) steps through the pictures and checks the dice and the hash chain in the
browser. Like the rest of ``render/``, it imports neither ``bot`` nor the database.
"""
