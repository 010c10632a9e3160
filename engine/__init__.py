"""Umpire's rules engines: pure, deterministic Python with no I/O.

Each game system offers the contract of :mod:`engine.contract`. Nothing in this package may import
Discord, a database or an image library; ``tests/test_architecture.py`` enforces it.
"""
