"""Matching evidence against the knowledge base: ranked, scored Findings. The pipeline that feeds it
starts in ``services/diagnosis.py``."""
from __future__ import annotations

from .match import Matcher
from .model import CodeSummary, Diagnosis, Finding, Support

__all__ = ["Matcher", "Diagnosis", "Finding", "Support", "CodeSummary"]
