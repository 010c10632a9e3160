"""The rules version of the ASL campaign game (the Refit Phase keeper).

Bump :data:`RULES_VERSION` with every change that can alter what is legal or what an action does (the engine,
its data, the shared engine it uses): each game and each action records the version it was played under, and
``umpire verify`` replays with the rules only the actions played under the current one. ``tests/test_rules_versions.py``
keeps :data:`RULES_FINGERPRINT`, a hash of that code (comments and docstrings left out) and data, and fails until
it is updated: the moment to decide whether the change needs a bump.
"""

RULES_VERSION = 2
"""The current rules version (1: the first recorded; games stored before versions were recorded count as 0; 2: an
action's arguments read by the shared reader, ``engine/arguments.py``: a yes/no argument typed as ``false`` or
``no`` is no, and a fraction or an empty value where a whole number is needed is refused)."""

RULES_FINGERPRINT = "fad55f04787bcae288fc894d9fe9215c9b0729dd484b6b0429a9c536d5a4f758"
"""The fingerprint of the rules code and data that :data:`RULES_VERSION` was last checked against."""
