"""SQLite schema of the compiled knowledge base (SQLAlchemy 2.x typed ORM models).

Texts are stored per language in plain columns (``title_en``, ``title_zh``) so that search and
rendering need no JSON decoding; lists of structured things (fixes, versions, conditions) are
stored as JSON. The builder writes through these models; the read path (query.py) uses plain SQL
on the same tables so that light commands never import the ORM. The ``kb_meta`` table records the schema version and the content hash of the
knowledge files the database was built from.
"""
from __future__ import annotations

from typing import Optional

from sqlalchemy import JSON, Float, ForeignKey, Integer, String, Text
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship


class Base(DeclarativeBase):
    pass


class Meta(Base):
    __tablename__ = "kb_meta"
    key: Mapped[str] = mapped_column(String, primary_key=True)
    value: Mapped[str] = mapped_column(String)


class ProblemRow(Base):
    __tablename__ = "problem"
    id: Mapped[str] = mapped_column(String, primary_key=True)
    family: Mapped[str] = mapped_column(String, index=True)
    origin: Mapped[str] = mapped_column(String, default="builtin")
    severity: Mapped[str] = mapped_column(String)
    title_en: Mapped[str] = mapped_column(Text)
    title_zh: Mapped[str] = mapped_column(Text)
    summary_en: Mapped[str] = mapped_column(Text)
    summary_zh: Mapped[str] = mapped_column(Text)
    root_cause_en: Mapped[str] = mapped_column(Text)
    root_cause_zh: Mapped[str] = mapped_column(Text)
    hardware: Mapped[list] = mapped_column(JSON)
    components: Mapped[list] = mapped_column(JSON)
    versions: Mapped[dict] = mapped_column(JSON)
    related: Mapped[list] = mapped_column(JSON)
    confirm_when: Mapped[Optional[dict]] = mapped_column(JSON, nullable=True)
    rule_out_when: Mapped[Optional[dict]] = mapped_column(JSON, nullable=True)
    fixes: Mapped[list] = mapped_column(JSON)          # [{kind, summary:{en,zh}, steps:[{en,zh,command}]}]
    sources: Mapped[list] = mapped_column(JSON)
    file: Mapped[str] = mapped_column(String)
    stalls: Mapped[list] = mapped_column(JSON, default=list)   # progress-bar descriptions (stalled bar -> problem)
    silent: Mapped[str] = mapped_column(String, default="")     # how it shows when it prints no message (model.SILENT_KINDS)

    symptoms: Mapped[list["SymptomRow"]] = relationship(back_populates="problem", cascade="all, delete-orphan")
    signatures: Mapped[list["SignatureRow"]] = relationship(back_populates="problem", cascade="all, delete-orphan")


class SymptomRow(Base):
    __tablename__ = "symptom"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    problem_id: Mapped[str] = mapped_column(ForeignKey("problem.id"), index=True)
    lang: Mapped[str] = mapped_column(String)
    text: Mapped[str] = mapped_column(Text)
    problem: Mapped[ProblemRow] = relationship(back_populates="symptoms")


class SignatureRow(Base):
    __tablename__ = "signature"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    problem_id: Mapped[str] = mapped_column(ForeignKey("problem.id"), index=True)
    literal: Mapped[str] = mapped_column(Text)
    regex: Mapped[str] = mapped_column(Text)
    weight: Mapped[float] = mapped_column(Float)
    problem: Mapped[ProblemRow] = relationship(back_populates="signatures")


class CodeRow(Base):
    __tablename__ = "error_code"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    code: Mapped[str] = mapped_column(String, index=True)   # canonical; lower-case 'x' = wildcard
    family: Mapped[str] = mapped_column(String, index=True)
    is_pattern: Mapped[int] = mapped_column(Integer, default=0)
    origin: Mapped[str] = mapped_column(String, default="builtin")
    name: Mapped[str] = mapped_column(String, index=True)
    meaning_en: Mapped[str] = mapped_column(Text)
    meaning_zh: Mapped[str] = mapped_column(Text)
    causes_en: Mapped[list] = mapped_column(JSON)
    causes_zh: Mapped[list] = mapped_column(JSON)
    action_en: Mapped[str] = mapped_column(Text, default="")
    action_zh: Mapped[str] = mapped_column(Text, default="")
    level: Mapped[str] = mapped_column(String, default="")
    generic: Mapped[int] = mapped_column(Integer, default=0)
    sources: Mapped[list] = mapped_column(JSON)
    file: Mapped[str] = mapped_column(String)


class CodeProblemRow(Base):
    """Which problems an error code can point to (from either side of the link)."""
    __tablename__ = "code_problem"
    code_id: Mapped[int] = mapped_column(ForeignKey("error_code.id"), primary_key=True)
    problem_id: Mapped[str] = mapped_column(ForeignKey("problem.id"), primary_key=True)


class ProblemCodeRow(Base):
    """Codes a problem lists (they may not be in any dictionary yet)."""
    __tablename__ = "problem_code"
    problem_id: Mapped[str] = mapped_column(ForeignKey("problem.id"), primary_key=True)
    code: Mapped[str] = mapped_column(String, primary_key=True, index=True)


class CompatRowModel(Base):
    __tablename__ = "compat_row"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    matrix: Mapped[str] = mapped_column(String, index=True)
    key_value: Mapped[str] = mapped_column(String, index=True)
    data: Mapped[dict] = mapped_column(JSON)
    source: Mapped[str] = mapped_column(Text)


class FamilyRow(Base):
    __tablename__ = "family"
    kind: Mapped[str] = mapped_column(String, primary_key=True)    # problems | codes | compat
    name: Mapped[str] = mapped_column(String, primary_key=True)
    title_en: Mapped[str] = mapped_column(Text)
    title_zh: Mapped[str] = mapped_column(Text)
    key: Mapped[str] = mapped_column(String, default="")


class SynonymRow(Base):
    __tablename__ = "synonym"
    word: Mapped[str] = mapped_column(String, primary_key=True)     # lower case
    canonical: Mapped[str] = mapped_column(String)
