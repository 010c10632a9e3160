"""The rules version of the Wargame Commander series.

Bump :data:`RULES_VERSION` with every change that can alter what is legal or what an action does (the engine,
its data, the shared engine it uses): each game and each action records the version it was played under, and
``umpire verify`` replays with the rules only the actions played under the current one. ``tests/test_rules_versions.py``
keeps :data:`RULES_FINGERPRINT`, a hash of that code (comments and docstrings left out) and data, and fails until
it is updated: the moment to decide whether the change needs a bump.
"""

RULES_VERSION = 1
"""The current rules version (1: the first recorded; games stored before versions were recorded count as 0)."""

RULES_FINGERPRINT = "196abbaaf5b9ac69d8eebf435c5b4a35bac858c66709ddffc85d44865297c9df"
"""The fingerprint of the rules code and data that :data:`RULES_VERSION` was last checked against."""
