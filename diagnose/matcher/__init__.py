"""Matching evidence against the knowledge base: ranked, scored Findings. The pipeline that feeds it
starts in ``services/diagnosis.py``."""
from __future__ import annotations

from .match import Matcher
from .model import CodeSummary, Diagnosis, Finding, FindingEvidence

__all__ = ["Matcher", "Diagnosis", "Finding", "FindingEvidence", "CodeSummary"]
