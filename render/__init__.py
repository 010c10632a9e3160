"""Map rendering: turns what one seat may see (a :class:`render.picture.MapPicture`) into a PNG.

The renderer never decides a rule; it draws what it is given. ``render.snapshot.render_map`` is the entry
point, ``render.picture.setup_picture`` builds the picture of a game's initial set-up.
"""
