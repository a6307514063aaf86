"""Tools for people who write knowledge: JSON Schemas for editors (``schemas.py``), the small validator
that checks a file against them (``jsonschema_lite.py``) and the quality lint (``lint.py``)."""
