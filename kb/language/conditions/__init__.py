"""The condition language: trees of predicates over facts, shared by the knowledge (``confirm_when``,
``rule_out_when``) and the rules (``applies_when``, ``condition``, ``warn_when``).

``ops.py`` holds the operators (one object each: value check, evaluation, words, docs, example),
``tree.py`` validates and evaluates trees, ``compat.py`` the compatibility-matrix operators,
``model.py`` the evaluation context and outcome, ``fleet.py`` the evaluation of the fleet operators
(cross-node rules' ``aggregate``).
"""
from .compat import cell_matches
from .model import VERSION_FAMILY, ConditionError, Context, Outcome, family_of
from .ops import OPS, Op
from .tree import describe, evaluate, facts_used, validate

__all__ = ["OPS", "Op", "VERSION_FAMILY", "ConditionError", "Context", "Outcome", "cell_matches", "describe",
           "evaluate", "facts_used", "family_of", "validate"]
