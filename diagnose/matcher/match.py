"""Evidence x knowledge base (+ facts) -> ranked Findings.

Score of a problem (0-1), from independent signals combined as 1 - prod(1 - s):
- each distinct signature of the problem that matched a line: its weight (0-1);
- each error code found that the KB links to the problem: CODE_WEIGHT / sqrt(number of problems the
  code is linked to), so a generic code (507033, -8005, EZ9999) gives little on its own and the other
  evidence decides between its causes; a code range (561xxx) counts half;
- symptom phrases (rapidfuzz over normalised text: English, Chinese and synonyms) in the sentences a
  person wrote (at most PROSE_MAX) and in error lines (at most LOG_SYMPTOM_MAX);
a problem only words point to (no signature, code, stall or fact) counts WORDS_ONLY_FACTOR of that;
then environment facts: ``confirm_when`` true raises the score, ``rule_out_when`` true divides it,
a problem for other hardware than the one the facts show is halved.
"""
from __future__ import annotations

import math
import re
from collections import Counter
from functools import cached_property, lru_cache, reduce
from typing import Any

import ahocorasick_rs

from ..evidence import CODE, ERROR_LINE, SIGNATURE, Evidence
from ascend_doctor.kb.language.facts import FactSet

from .model import LIKELY, CodeSummary, Diagnosis, Finding, FindingEvidence
from .near import NEAR_FACTOR, NearMisses, near_tables
from .reasons import kind_word, say
from .retrieval import CJK_RUN, CJK_STOP, GENERIC, IDENT, STOP, Retriever, is_run_or_progress
from .retrieval import cached as cached_retriever
from .signatures import compile_signatures

CODE_WEIGHT = 0.45
GENERIC_CODE_FACTOR = 0.35  # a catch-all code (generic = true: EZ9999, 561000, -8005) says little on its own
PROSE_MAX = 0.45          # symptoms in words a person wrote
LOG_SYMPTOM_MAX = 0.3     # symptoms matched by log lines (signatures do the real work there)
SYMPTOM_THRESHOLD = 78
CJK_COVERAGE = 0.5        # share of a Chinese symptom's bigrams found in the text
MIN_PHRASE_SHARE = 0.5    # share of a symptom phrase's informative words a line must hold to be compared with it
CONFIRM_BOOST = 0.35      # share of the remaining distance to 1
#: the same when only the facts a report states confirm it: a little less sure than the machine, enough that of
#: two problems one line points to, the one the report's versions or container confirm goes first (transformers
#: > 4.49 with torch_npu 2.2: 'Torch not compiled with CUDA enabled' is that pair, not CUDA code on an NPU)
TEXT_CONFIRM_BOOST = 0.3
RULE_OUT_FACTOR = 0.25
TEXT_RULE_OUT_FACTOR = 0.5   # the same from versions a report states (it may name more than the installed one)
OTHER_HARDWARE_FACTOR = 0.5
OTHER_STACK_FACTOR = 0.7     # words-only evidence for a problem of another stack than the ones the report names
#: the least a finding must score to be listed: a one-sentence report ("NPU机器下训练，使用torch-npu结合torch会报
#: 无法找到nccl") whose words alone point to one problem scores about 0.07 (words only, WORDS_ONLY_FACTOR; the words
#: a problem holds only in its summary count 0.8, retrieval.ABOUT_FIELD); listed low, it is a lead the user can
#: check, where 0.12 listed nothing (0.08 until the words were weighed by where a problem holds them)
MIN_SCORE = 0.07
IDENT_WEIGHT = 0.3        # an environment variable / identifier named both by the user and by a problem
HARDWARE_WEIGHT = 0.2     # the report's hardware is one a hardware-specific problem concerns
HARDWARE_HINT = "hardware.family = "   # the text of that evidence, before the family
INFO_FACTOR = 0.7         # benign / informational problems rank below real failures ...
INFO_CAP = 0.45           # ... and are never a "likely cause" (a benign warning is not why a run failed)
BENIGN_YIELD = 0.2        # a failure at least this likely is listed before benign warnings
STALL_WEIGHT = 0.5        # a progress bar the KB names (stalls = [...]) left below 100% in an input
CHECK_FAIL_WEIGHT = 0.35  # the environment check fails this problem's rule on the machine diagnosed
CHECK_WARN_WEIGHT = 0.2   # ... or warns
TEXT_CHECK_FACTOR = 0.6   # the same rules run on the versions and hardware a report states (less sure)
IDENT_MAX_PROBLEMS = 5   # an identifier more problems name says nothing about which one
#: symbolic code names worth a look-up (ACL_ERROR_RT_..., ACLNN_ERR_..., HCCL_E_..., DCMI_ERR_...)
CODE_NAME_PREFIXES = ("ACL_", "ACLNN_", "HCCL_E", "DCMI_", "GE_", "RT_", "ERR_")
MAX_EVIDENCE = 8
TIE = 0.01                # findings closer than this are a tie: the evidence does not choose between them
TIE_CAP = 0.49            # ... and a tie is no likely cause
#: a problem only the report's words point to (no log line, code, stalled bar or fact of its own) is a
#: possible cause, not a likely one, unless facts then confirm it (on the dev reports the knowledge was not
#: written from, such findings at "likely" were wrong six times in seven); scaled, not capped, so that
#: the words still rank such problems among themselves (the words' best, AGREEMENT_MAX, stays below 0.5)
WORDS_ONLY_FACTOR = 0.7
SYMPTOM_INDEX_VERSION = 2     # bump when the normaliser, _informative or a phrase's size change
IDENT_INDEX_VERSION = 2       # bump when IDENT or the texts it reads change
NEAR_INDEX_VERSION = 2        # bump when near.near_tables changes
#: the version facts that name the stack they are a version of, when the report states them
STATED_STACKS = {"pkg.vllm_ascend": "vllm-ascend", "pkg.vllm": "vllm", "pkg.sglang": "sglang",
                 "pkg.mindspore": "mindspore", "mindie.version": "mindie"}
#: the software stacks a user runs: a problem of one of them (vLLM-Ascend on a first-generation 910) is a
#: candidate for a report's hardware only when the report names that stack
STACKS = frozenset("""vllm vllm-ascend mindie mindie-service sglang mindspore mindspore-lite mindformers
llama-factory deepspeed megatron mindspeed ms-swift verl ray triton-ascend lmcache mooncake msmodelslim tilelang
llama.cpp""".split())


class Matcher:
    def __init__(self, kb):
        self.kb = kb
        self.compiled = compile_signatures(kb.signatures())
        self.problems = {p.id: p for p in kb.problems()}
        self.norm = kb.normalizer
        self._symptoms: list[tuple[str, str, str]] | None = None   # (problem id, original, normalised)
        self._cjk: list[tuple[int, set[str], frozenset[str]]] | None = None
        self._processed: list[str] | None = None
        self._words: tuple[dict[str, list[int]], list[int]] | None = None

    @cached_property
    def _near(self) -> NearMisses:
        """Made from the signatures' literals once per knowledge and kept beside the database."""
        from ascend_doctor.kb.index_cache import cached_index

        tables = cached_index(self.kb, "near", NEAR_INDEX_VERSION, lambda: near_tables(self.compiled.literal_of),
                              lambda x: isinstance(x, list) and len(x) == 2 and all(isinstance(t, dict) for t in x))
        return NearMisses(tables=tables)

    @property
    def patterns(self):
        return self.compiled.patterns

    # -- signals ---------------------------------------------------------------------------------
    def _symptom_index(self) -> list[tuple[str, str, str]]:
        """(problem id, symptom phrase, the phrase normalised) for every phrase of two terms or more; read
        from beside the database when made from the same knowledge (normalising them all takes ~0.5 s), with
        each phrase's informative words and size (``_phrase_words``)."""
        if self._symptoms is None:
            from ascend_doctor.kb.index_cache import cached_index

            def build() -> list[list]:
                out = []
                for p in self.problems.values():
                    for _lang, items in p.symptoms.items():
                        for s in items:
                            if len(self.norm.terms(s)) >= 2:
                                n = " ".join(self.norm.normalize(s).split())
                                words = sorted(_informative(n))
                                out.append([p.id, s, n, words, _phrase_size(n, words)])
                return out

            rows = cached_index(self.kb, "symptoms", SYMPTOM_INDEX_VERSION, build,
                                lambda x: isinstance(x, list) and all(isinstance(r, list) and len(r) == 5 for r in x))
            self._symptoms = [(r[0], r[1], r[2]) for r in rows]
            words_at: dict[str, list[int]] = {}
            for ci, r in enumerate(rows):
                for w in r[3]:
                    words_at.setdefault(w, []).append(ci)
            self._words = words_at, [r[4] for r in rows]
        return self._symptoms

    def _phrase_words(self) -> tuple[dict[str, list[int]], list[int]]:
        """(informative word -> the index positions of the symptom phrases that hold it, how many words each
        phrase says (``_phrase_size``)), made with the phrases."""
        self._symptom_index()
        return self._words

    def _cjk_symptoms(self) -> list[tuple[int, set[str], frozenset[str]]]:
        """(index position, character bigrams, latin words) of every Chinese symptom phrase, made once."""
        if self._cjk is None:
            self._cjk = [(ci, _grams(n), _informative(n)) for ci, (_, _, n) in enumerate(self._symptom_index())
                         if CJK.search(n)]
        return self._cjk

    def _symptom_hits(self, queries: list[tuple[str, Any]], cap: float, lang: str = "en") -> dict[str, list[FindingEvidence]]:
        """queries: (text, EvidenceLine | None). Best match per problem and query."""
        if not queries:
            return {}           # nothing to compare: the phrases are not even read (a log of progress bars only)
        from rapidfuzz import fuzz, utils

        index = self._symptom_index()
        if not index:
            return {}
        qn = [" ".join(self.norm.normalize(q[:400]).split()) for q, _ in queries]
        choices = [n for _, _, n in index]
        if self._processed is None:     # rapidfuzz's default processing of every phrase, done once
            self._processed = [utils.default_process(n) for n in choices]
        processed = self._processed
        out: dict[str, list[FindingEvidence]] = {}
        best: dict[str, float] = {}

        def keep(qi: int, ci: int, r: float) -> None:
            pid, orig, _ = index[ci]
            w = cap * min(1.0, (r - SYMPTOM_THRESHOLD) / (100 - SYMPTOM_THRESHOLD) * 0.6 + 0.4)
            if w <= best.get(pid, 0):
                return
            best[pid] = w
            text, ln = queries[qi]
            out[pid] = [FindingEvidence("symptom", ln.source if ln else "<text>", ln.line if ln else 0,
                                ln.text if ln else text[:300], w, detail=say("symptom_like", lang, phrase=orig, score=r),
                                order=ln.order if ln else 0, time=ln.time if ln else "")]

        # Chinese has no spaces: compare character bigrams of the normalised texts
        cjk = self._cjk_symptoms() if any(CJK.search(q) for q in qn) else []
        for qi, q in enumerate(qn):
            if not CJK.search(q):
                continue
            qg, qw = _grams(q), _informative(q)
            for ci, sg, sw in cjk:
                if len(sg) >= 4:
                    common = len(sg & qg)
                    cov = max(common / len(sg), 2 * common / (len(sg) + len(qg)))
                    if sw:   # 'kubeadm 初始化失败': the latin words of a phrase are its most specific part
                        cov *= 0.6 + 0.4 * len(sw & qw) / len(sw)
                    if cov >= CJK_COVERAGE:
                        # same scale as the fuzzy ratios: the threshold maps to SYMPTOM_THRESHOLD, all to 100
                        keep(qi, ci, SYMPTOM_THRESHOLD + (cov - CJK_COVERAGE) / (1 - CJK_COVERAGE) * (100 - SYMPTOM_THRESHOLD))
        words_at, n_words = self._phrase_words()
        for qi, q in enumerate(qn):
            q_words = _informative(q)
            if len(q_words) < 2:         # "```error", "报错：": a line with one word matches every phrase holding it
                continue
            # token_set_ratio is 100 for any one shared word: two must agree, so only the phrases that share two
            # informative words with the line are scored (the same answers as scoring all ~6,000, in their order)
            shared = Counter(ci for w in q_words for ci in words_at.get(w, ()))
            qp = utils.default_process(q)
            q_reason = _reason_of(q)
            scored = []
            for ci, n in shared.items():
                # and most of what the phrase says: 'start the container' is in every phrase about containers
                if n >= 2 and n >= MIN_PHRASE_SHARE * n_words[ci]:
                    a = fuzz.token_set_ratio(qp, processed[ci], processor=None, score_cutoff=SYMPTOM_THRESHOLD)
                    if a:
                        scored.append((-a, ci))
            scored.sort()
            for neg_a, ci in scored:
                a = -neg_a
                # both views must agree: token overlap alone over-matches long lines
                b = fuzz.partial_ratio(qp, processed[ci])
                r = (a + b) / 2
                if b < SYMPTOM_THRESHOLD - 10 or r < SYMPTOM_THRESHOLD:
                    continue
                if q_reason is not None:
                    # a CANN message's 'Reason:' names its sub-cause ('Set device failed, invalid device' is not
                    # 'Failed to set visible device'): when the phrase gives one too, the two reasons must agree,
                    # not only the message's common head ('EE1001: The argument is invalid.')
                    p_reason = _reason_of(choices[ci])
                    if p_reason is not None and not _same_reason(q_reason, p_reason):
                        continue
                keep(qi, ci, r)
        return out

    # -- main ------------------------------------------------------------------------------------
    def match(self, ev: Evidence, facts: FactSet | None = None, lang: str = "en",
              failing: dict[str, tuple[str, str, str]] | None = None,
              failing_in_text: dict[str, tuple[str, str, str]] | None = None) -> Diagnosis:
        """``failing``: problem id -> (rule, status, message) of the environment rules that fail or warn
        on this machine (services.diagnosis.failing_checks): each is evidence for its problem.
        ``failing_in_text``: the same for the facts the report itself states (versions, hardware)."""
        facts = facts or FactSet()
        evidence_of: dict[str, list[FindingEvidence]] = {}

        def add(pid: str, s: FindingEvidence) -> None:
            if pid in self.problems:
                evidence_of.setdefault(pid, []).append(s)

        # signatures
        for ln in ev.lines:
            if SIGNATURE not in ln.kinds:
                continue
            for sid in ln.signatures:
                pid = self.compiled.problem_of[sid]
                add(pid, FindingEvidence("signature", ln.source, ln.line, ln.text, self.compiled.weight_of[sid],
                                 detail=say("signature", lang, literal=self.compiled.literal_of[sid]), count=ln.count, ranks=sorted(ln.ranks), time=ln.time,
                                 order=ln.order))
        signed = {pid: {x.text for x in ss if x.kind == "signature"} for pid, ss in evidence_of.items()}
        # lines a benign problem's signature explains as harmless are no word evidence for anything else
        harmless = {t for pid, ts in signed.items() if self.problems[pid].severity == "info" for t in ts}

        # a line a signature matched is that problem's evidence: its words are no evidence for another problem
        signed_any = {t for ts in signed.values() for t in ts}

        def explained(pid: str, sentence: str) -> bool:
            return _within(sentence, signed_any) or (
                self.problems[pid].severity != "info" and _within(sentence, harmless))
        # near misses: another release's wording of a signature's line (near.py), on lines no signature matched
        for ln in ev.lines:
            if ln.signatures or not ln.kinds & {ERROR_LINE, CODE}:
                continue
            for nm in self._near.of(ln.text):
                pid = self.compiled.problem_of[nm.sid]
                if any(x.kind == "signature" for x in evidence_of.get(pid, ())):
                    continue                         # the exact signature of this problem already counted
                add(pid, FindingEvidence("signature", ln.source, ln.line, ln.text,
                                 self.compiled.weight_of[nm.sid] * NEAR_FACTOR * nm.overlap,
                                 detail=say("near_signature", lang, literal=self.compiled.literal_of[nm.sid],
                                            share=f"{nm.overlap:.0%}"),
                                 count=ln.count, ranks=sorted(ln.ranks), time=ln.time, order=ln.order))
        # progress bars left below 100% whose description a problem lists in ``stalls``
        for st in ev.stalls:
            desc = st.description.lower()
            for pid, phrase in self._stall_phrases:
                if phrase.lower() in desc:
                    add(pid, FindingEvidence("stall", st.source, st.line, st.text or st.description, STALL_WEIGHT,
                                     detail=stall_detail(st, phrase, lang), order=st.order))
        # codes
        code_summaries: list[CodeSummary] = []
        for hit in sorted(ev.codes, key=lambda h: h.order):
            linked, ranged, meaning, generic, success = self._code_entry(hit.family, hit.code)
            if success:
                continue        # "socket close, fd[3], error code is 0": HCCL_SUCCESS reports no error
            code_summaries.append(CodeSummary(hit.family, hit.code, hit.count, hit.source, hit.line, hit.text,
                                              meaning, sorted(linked | ranged)))
            ln = self._line_of(ev, hit)
            for pid, w, n in _code_weights(linked, ranged, generic):
                if hit.text and hit.text in signed.get(pid, ()):
                    continue        # the problem's own signature matched this line: it counts once, as that
                add(pid, FindingEvidence("code", hit.source, hit.line, hit.text, w,
                                 detail=say("code", lang, code=hit.code, family=hit.family, n=n)
                                        + (say("catch_all", lang) if generic else ""),
                                 count=hit.count, time=ln.time if ln else "", order=hit.order))
        # symptoms
        prose = [(p, None) for p in ev.prose[:100] if not is_run_or_progress(p)]
        for pid, ss in self._symptom_hits(prose, PROSE_MAX, lang).items():
            for s in ss:
                if not explained(pid, s.text):      # a signature's line counts once, as the signature
                    add(pid, s)
        # the report's words: which problems its title and sentences are about (retrieval.py)
        errs_text = [ln.text for ln in ev.first_errors(10)]
        # (with no title, sentence or error line the retriever's index is not even read)
        words = ev.title or ev.prose or errs_text
        for pid, h in (self._retriever.retrieve(ev.title, ev.prose[:100] + errs_text) if words else {}).items():
            if explained(pid, h.sentence):
                continue        # its own signature already counted the line, or a benign one explains it
            add(pid, FindingEvidence("symptom", "<text>", 0, h.sentence[:300], h.weight,
                             detail=say("words", lang, terms=", ".join(h.terms))
                                    + (say("words_agree", lang, n=h.sentences) if h.sentences > 1 else "")))
        said = ([ev.title] if ev.title else []) + ev.prose[:100] + errs_text
        for pid, h in (self._retriever.whole(ev.title, ev.prose[:100] + errs_text) if words else {}).items():
            where = next((t for t in said if any(w in t.lower() for w in h.terms)), said[0] if said else "")
            add(pid, FindingEvidence("symptom", "<text>", 0, where[:300], h.weight,
                             detail=say("words_together", lang, terms=", ".join(h.terms))))
        # identifiers (HCCL_BUFFSIZE, --enforce-eager, /dev/shm, libhccl.so, aclnnMatmul) named anywhere
        # in the report, the rarer across the knowledge the stronger
        texts = ev.prose[:100] + [ln.text for ln in ev.lines[:200]]
        idents = {m.group(0).lower() for t in texts for m in IDENT.finditer(t)}
        lowered = [(t, t.lower()) for t in texts] if signed_any else []
        # a code by its symbolic name (ACL_ERROR_RT_DEV_SETUP_ERROR is 507033) counts as the code
        seen_codes = {(c.family, c.code) for c in code_summaries}
        for ident in sorted(i for i in idents if i.upper().startswith(CODE_NAME_PREFIXES)):
            for c in self.kb.code_names(ident):
                if (c.family, c.code) in seen_codes:
                    continue
                seen_codes.add((c.family, c.code))
                linked, ranged, _meaning, generic, _success = self._code_entry(c.family, c.code)
                for pid, w, n in _code_weights(linked, ranged, generic):
                    add(pid, FindingEvidence("code", "<text>", 0, ident.upper(), w,
                                     detail=say("code_name", lang, name=ident.upper(), code=c.code, family=c.family, n=n)))
        kept_low = None                 # the kept lines lower-cased, once an identifier needs them
        for ident in sorted(idents):
            pids = self._ident_index.get(ident, [])
            if not pids or len(pids) > IDENT_MAX_PROBLEMS:
                continue
            # a line a signature matched counts once, for that signature's problem: an identifier named only on
            # such lines is no more evidence (for that problem it is the same line, for another, no evidence)
            if signed_any and all(_within(t, signed_any) for t, low in lowered if ident in low):
                continue
            # shown where the report names it: the first kept line holding it (else its words, "<text>")
            if kept_low is None:
                kept_low = [(ln, ln.text.lower()) for ln in ev.lines[:200]]
            at = next((ln for ln, low in kept_low if ident in low), None)
            for pid in pids:
                add(pid, FindingEvidence("symptom", at.source if at else "<text>", at.line if at else 0,
                                         at.text[:300] if at else ident, IDENT_WEIGHT / math.sqrt(len(pids)),
                                         detail=say("names", lang, ident=ident)))
        # the stacks the report names (read once, and only when something asks: the heads may be megabytes)
        stacks_of_report: list[set[str]] = []

        def named_stacks() -> set[str]:
            if not stacks_of_report:
                # by name, or by a version of its package the report states ('v0.11.0rc0-310p' image tag)
                stated = {stack for key, stack in STATED_STACKS.items()
                          if (f := facts.get(key)) is not None and f.ok and f.value and _stated(f)}
                # head by head: joined, the heads of a plog folder (~4 MB) were held twice more in memory at once
                stacks_of_report.append(set().union(stated, *(stacks_named(text) for _name, text in ev.heads)))
            return stacks_of_report[0]
        # the environment check's findings on this machine
        for pid, (rule, status, message) in (failing or {}).items():
            line = say("check_line", lang, rule=rule, status=say(f"status.{status}", lang), message=message)
            add(pid, FindingEvidence("fact", "check", 0, line[:300],
                             CHECK_FAIL_WEIGHT if status == "FAIL" else CHECK_WARN_WEIGHT,
                             detail=say("check_here", lang, rule=rule)))
        for pid, (rule, status, message) in (failing_in_text or {}).items():
            if pid in (failing or {}):
                continue
            line = say("check_line", lang, rule=rule, status=say(f"status.{status}", lang), message=message)
            add(pid, FindingEvidence("fact", "<text>", 0, line[:300],
                             (CHECK_FAIL_WEIGHT if status == "FAIL" else CHECK_WARN_WEIGHT) * TEXT_CHECK_FACTOR,
                             detail=say("check_text", lang, rule=rule)))
        # the hardware the text shows, for problems about specific (older / edge) hardware
        hardware_only: set[str] = set()     # problems the hardware proposes without the stack the report names
        fam = facts.value("hardware.family")
        if fam and fam not in ("a2", "a3", "unknown"):
            src = facts.get("hardware.family").source
            named = named_stacks()
            for p in self.problems.values():
                own = STACKS.intersection(p.components or ())
                # a LLaMA-Factory, sherpa-onnx or Paddle report on a 910 is no vLLM-Ascend problem
                if own and not own & named:
                    continue
                if p.hardware and "any" not in p.hardware and fam in p.hardware and not {"a2", "a3"} & set(p.hardware):
                    add(p.id, FindingEvidence("fact", src, 0, HARDWARE_HINT + fam, HARDWARE_WEIGHT,
                                              detail=say("hardware", lang, hardware=", ".join(p.hardware))))
                    if not own & named:     # hardware and the stack the report names together are a candidate
                        hardware_only.add(p.id)
        errs = [ln for ln in ev.lines if ln.kinds & {ERROR_LINE, CODE} and not ln.signatures][:40]
        for pid, ss in self._symptom_hits([(ln.text, ln) for ln in errs], LOG_SYMPTOM_MAX, lang).items():
            for s in ss:
                add(pid, s)

        # the report's hardware alone says which problems could apply, not that one did: a problem only it
        # points to is no finding, unless it is a problem of the stack the report names (vLLM-Ascend on a
        # first-generation 910); it still adds to a problem other evidence points to
        evidence_of = {pid: ss for pid, ss in evidence_of.items() if not (pid in hardware_only and len(ss) == 1)}
        # problems an environment check only warns about (a limitation that matters if the feature is used)
        checked = {**(failing_in_text or {}), **(failing or {})}
        warned = {pid for pid, (_rule, status, _message) in checked.items() if status != "FAIL"}
        findings = [self._score(pid, ss, facts, lang, warned_only=pid in warned) for pid, ss in evidence_of.items()]
        # a problem of another stack than the ones the report names (a MindIE problem for a vLLM-Ascend report)
        # that only the report's words point to is less likely: words like "service fails to start" fit every stack
        # (a problem of three stacks or more is a class of failures any of them meets, not one stack's)
        for f in findings:
            own = STACKS.intersection(f.problem.components or ())
            if own and len(own) < 3 and _words_only(f.parts, f.hinted) and (named := named_stacks()) \
                    and not own & named:
                f.score = round(f.score * OTHER_STACK_FACTOR, 3)
                f.ruled_out_by.append(say("other_stack", lang, stacks=", ".join(sorted(named)),
                                          own=", ".join(sorted(own))))
                f.evidence.append(FindingEvidence("fact", "facts", 0, f.ruled_out_by[-1], 0.0))
        findings = [f for f in findings if f.score >= MIN_SCORE]
        # a benign warning explains a line but is not why a run failed: a benign problem a log line points to
        # (its signature or code) goes after the failures the evidence also supports outside the lines the
        # warnings explain (a failure whose only evidence is the warning's own line, read as words, does not
        # push that warning down); one only the report's words point to ("the answer is always cut off") is
        # what the user describes, and ranks by its score. Nor does a failure with only words push down the
        # benign problem of the report's title (an issue titled with the warning, its launch command below)
        title = ev.title.strip()

        def on_title(f: Finding) -> bool:
            return bool(title) and any(e.text.strip() == title for e in f.evidence)
        benign_title = any(f.problem.severity == "info" and on_title(f) for f in findings)
        failure = any(f.problem.severity != "info" and _yield_score(f) >= BENIGN_YIELD and
                      any(not _within(e.text, harmless) for e in f.evidence if e.kind != "fact") and
                      not (benign_title and _words_only(f.parts, f.hinted) and not on_title(f))
                      for f in findings)
        # on equal scores, a problem of a stack the report names goes first (a LLaMA-Factory report, two
        # problems tied on the same words: the LLaMA-Factory one); then the earlier evidence
        scores = [f.score for f in findings]
        named = named_stacks() if len(set(scores)) < len(scores) else set()
        findings.sort(key=lambda f: (failure and f.problem.severity == "info" and _explains_a_line(f), -f.score,
                                     not STACKS.intersection(f.problem.components or ()) & named,
                                     min((s.time or "~", s.order) for s in f.evidence), f.id))
        _untie(findings, lang)
        decisive = self._decisive(ev, findings)
        diag = Diagnosis(findings=findings, codes=code_summaries, facts=list(facts), decisive=decisive,
                         first_errors=ev.first_errors(5), causes=ev.causes[:10], notes=ev.notes, inputs=ev.inputs,
                         bytes_read=ev.bytes_read, lines_read=ev.lines_read, stalls=list(ev.stalls))
        if not findings or findings[0].score < LIKELY:
            diag.suggestion = suggest_query(ev, code_summaries, self._word_weight)
        return diag

    def _word_weight(self, word: str) -> float:
        """How telling a word of a report is across the knowledge: the best IDF of its terms (a Chinese run: the
        mean over its character pairs the knowledge uses); 0 when no problem uses it."""
        r = self._retriever
        terms = [t for t in r.query_terms(word) if t in r.idf]
        if not terms:
            return 0.0
        if CJK_RUN.match(word):
            return sum(r.idf[t] for t in terms) / max(len(word) - 1, 1)
        return max(r.idf[t] for t in terms)

    @cached_property
    def _stall_phrases(self) -> list[tuple[str, str]]:
        return [(p.id, phrase) for p in self.problems.values() for phrase in (getattr(p, "stalls", None) or [])]

    @cached_property
    def _retriever(self) -> Retriever:
        return cached_retriever(self.kb, self.problems.values(), self.norm)

    @cached_property
    def _ident_index(self) -> dict[str, list[str]]:
        """identifier (lower case) -> the problems whose symptoms, title, summary, root cause or fix commands
        name it; read from beside the database when made from the same knowledge (index_cache.py)."""
        from ascend_doctor.kb.index_cache import cached_index

        def build() -> dict[str, list[str]]:
            index: dict[str, list[str]] = {}
            for p in self.problems.values():
                commands = [st.get("command") or "" for fx in p.fixes for st in fx.get("steps", [])]
                text = " ".join([*p.symptoms.get("en", []), *p.symptoms.get("zh", []), p.title.get("en", ""),
                                 p.summary.get("en", ""), p.root_cause.get("en", ""), *commands])
                for ident in sorted({m.group(0).lower() for m in IDENT.finditer(text)}):
                    index.setdefault(ident, []).append(p.id)
            return index

        return cached_index(self.kb, "identifiers", IDENT_INDEX_VERSION, build,
                            lambda x: isinstance(x, dict) and all(isinstance(v, list) for v in x.values()))

    def _line_of(self, ev: Evidence, hit):
        for ln in ev.lines:
            if ln.source == hit.source and ln.line == hit.line:
                return ln
        return None

    def _code_entry(self, family: str, code: str) -> tuple[set[str], set[str], dict[str, str], bool, bool]:
        """(problems the code links, problems only a code range links, its meaning, whether it is generic, whether
        it is a success value: HCCL_SUCCESS, ACLNN_SUCCESS, which "error code is 0" in a plog line names and which
        the report leaves out; the scan still reads it as a code, since which lines hold a code must not depend on
        their digits)."""
        exact: set[str] = set()
        ranged: set[str] = set()
        meaning: dict[str, str] = {}
        fam = family if family in ("hccl", "dcmi", "fault_event") else None
        entries = self.kb.codes(code, family=fam)
        generic = any(c.generic and not c.is_pattern for c in entries)
        named = [c.name.upper() for c in entries if not c.is_pattern]
        success = bool(named) and all(n.endswith("_SUCCESS") for n in named)
        for c in entries:
            if not meaning and c.meaning.get("en"):
                meaning = c.meaning
            (ranged if c.is_pattern else exact).update(c.problems)
        if fam is None or family in ("dcmi",):
            exact.update(p for p in self.kb.problems_for_code(code) if p not in ranged)
        ranged -= exact
        return exact, ranged, meaning, generic, success

    def _score(self, pid: str, ss: list[FindingEvidence], facts: FactSet, lang: str = "en",
               warned_only: bool = False) -> Finding:
        """``warned_only``: an environment check warns about this problem (does not fail it)."""
        p = self.problems[pid]
        # one contribution per distinct signature / code / symptom
        best: dict[tuple[str, str], float] = {}
        for s in ss:
            k = (s.kind, s.detail if s.kind not in ("symptom", "stall") else s.kind)   # stalled bars count once
            best[k] = max(best.get(k, 0.0), s.weight)
        parts: dict[str, float] = {}
        for (kind, _), w in best.items():
            parts[kind] = 1 - (1 - parts.get(kind, 0.0)) * (1 - w)
        score = 1.0
        for v in parts.values():
            score *= 1 - v
        score = 1 - score
        # the report's hardware says a problem could apply, not that it did: words and the hardware alone are
        # still words only
        hinted = any(s.kind == "fact" for s in ss) and all(s.text.startswith(HARDWARE_HINT) for s in ss if s.kind == "fact")
        if _words_only(parts, hinted):
            score *= WORDS_ONLY_FACTOR
        f = Finding(pid, p, score, parts=parts, hinted=hinted)
        ctx = None
        if len(facts):
            from ascend_doctor.kb.language.conditions import Context, evaluate, facts_used

            ctx = Context(facts, compat=self.kb.compat)
            # a limitation a check only warns about is not confirmed again by the same facts: an old HDK makes
            # AD-DRV-008 warn and satisfies its problem's confirm_when, yet says nothing of whether the run used
            # full graph mode; the boost waits for evidence of the failure itself (a line, a code, the words)
            own = not warned_only or any(s.kind != "fact" for s in ss)
            if p.confirm_when:
                out = evaluate(p.confirm_when, ctx)
                if out.value is True:
                    f.confirmed_by = out.notes or [say("confirm_holds", lang)]
                    # what a report says of its machine confirms less than the machine itself
                    said = all(_stated(facts.get(k)) for k in facts_used(p.confirm_when) if facts.get(k) is not None)
                    if own:
                        score = score + (1 - score) * (TEXT_CONFIRM_BOOST if said else CONFIRM_BOOST)
            pair = self._version_pair(p, facts) if not f.confirmed_by else []
            if pair:
                # versions of two or more components, all inside the problem's ranges: a version pair is what
                # such a problem is about (transformers > 4.49 with torch < 2.5.1), not where it was seen
                f.confirmed_by = [say("inside_versions", lang, versions="; ".join(
                    f"{key} = {value}, {comp} {rng}" for comp, key, value, rng, _fact in pair))]
                said = all(_stated(fact) for *_rest, fact in pair)
                if own:
                    score = score + (1 - score) * (TEXT_CONFIRM_BOOST if said else CONFIRM_BOOST)
            if p.rule_out_when:
                out = evaluate(p.rule_out_when, ctx)
                if out.value is True:
                    f.ruled_out_by = out.notes or [say("rule_out_holds", lang)]
                    score *= RULE_OUT_FACTOR
            outside = self._outside_versions(p, facts)
            if outside:
                f.ruled_out_by.append(say("outside_versions", lang, versions="; ".join(
                    f"{key} = {value}, {comp} {rng}" for comp, key, value, rng, _fact in outside)))
                # a version the report states may be another than the one installed: a milder word
                machine = any(not _stated(fact) for *_rest, fact in outside)
                score *= RULE_OUT_FACTOR if machine else TEXT_RULE_OUT_FACTOR
            fam = facts.value("hardware.family")
            if fam and fam != "unknown" and p.hardware and "any" not in p.hardware and fam not in p.hardware:
                f.ruled_out_by.append(say("other_hardware", lang, family=fam, hardware=", ".join(p.hardware)))
                score *= OTHER_HARDWARE_FACTOR
        if p.severity == "info":
            score = min(score * INFO_FACTOR, INFO_CAP)
        f.score = round(min(score, 0.99), 3)
        ss = sorted(ss, key=lambda s: (-_kind_rank(s.kind), -s.weight, s.time or "~", s.order))
        seen: dict[tuple, FindingEvidence] = {}
        by_text: dict[str, FindingEvidence] = {}    # a prose symptom (no line number) on a line already listed
        kept = []
        for s in ss:
            k = (s.source, s.line) if s.line else (s.kind, s.text)
            if k not in seen and not s.line and s.text.strip() in by_text:
                k = (by_text[s.text.strip()].source, by_text[s.text.strip()].line)
            if k in seen:
                first = seen[k]
                if s.detail and s.detail not in first.detail:
                    first.detail = say("also", lang, detail=first.detail, kind=kind_word(s.kind, lang), more=s.detail)
                continue
            seen[k] = s
            if s.line:
                by_text.setdefault(s.text.strip(), s)
            kept.append(s)
        f.evidence = kept[:MAX_EVIDENCE]
        for note in f.confirmed_by + f.ruled_out_by:
            f.evidence.append(FindingEvidence("fact", "facts", 0, note, 0.0))
        return f

    def _version_pair(self, p, facts: FactSet) -> list[tuple[str, str, str, str, Any]]:
        """(component, fact key, value, range, the Fact) of every one of the problem's ``versions`` when it names
        two or more components and the facts show each inside its range; else []."""
        from ascend_doctor.kb.language.version import VersionError, satisfies

        known = list(_version_facts(p, facts))
        if len(p.versions or {}) < 2 or len(known) < len(p.versions):
            return []
        try:
            if not all(satisfies(fact.value, rng, family) for _comp, _key, rng, family, fact in known):
                return []
        except (VersionError, ValueError):
            return []                       # a version this grammar cannot read says nothing
        return [(comp, key, fact.value, rng, fact) for comp, key, rng, _family, fact in known]

    def _outside_versions(self, p, facts: FactSet) -> list[tuple[str, str, str, str, Any]]:
        """(component, fact key, value, range, the Fact) of each of the problem's ``versions`` that the facts
        show past its range: at or above an upper bound it states (``<0.10``: fixed in 0.10), the problem
        concerns earlier releases than the ones here. A version below a range or beside a series says less
        (a range often records only where a failure was seen): it rules nothing out."""
        from ascend_doctor.kb.language.version import VersionError, compare, satisfies

        out = []
        for comp, key, rng, family, fact in _version_facts(p, facts):
            uppers = UPPER_BOUND.findall(rng) if "||" not in rng else []
            try:
                past = bool(uppers) and not satisfies(fact.value, rng, family) and \
                    all(compare(fact.value, u, family) >= 0 for u in uppers)
            except (VersionError, ValueError):
                continue                    # a version this grammar cannot read says nothing
            if past:
                out.append((comp, key, fact.value, rng, fact))
        return out

    def _decisive(self, ev: Evidence, findings: list[Finding]):
        if findings:
            top = findings[0]
            lines = [s for s in top.evidence if s.kind in ("signature", "code") and s.line]
            if lines:
                s = min(lines, key=lambda s: (-_kind_rank(s.kind), s.time or "~", s.order))
                for ln in ev.lines:
                    if ln.source == s.source and ln.line == s.line:
                        return ln
            stalls = [s for s in top.evidence if s.kind == "stall"]
            if stalls:
                from ..evidence import EvidenceLine

                s = stalls[0]
                return EvidenceLine(source=s.source, line=s.line, text=s.text, raw=s.text, order=s.order)
        first = ev.first_errors(1)
        return first[0] if first else None


CJK = re.compile(r"[\u3400-\u9fff]")
#: the clause of a CANN or runtime message that names its sub-cause ("... invalid.Reason: Set device failed",
#: "execute failed, reason=[sdma copy error]")
REASON = re.compile(r"\breason\s*[:=]\s*", re.I)


def _reason_of(text: str) -> "str | None":
    """What a message gives as its reason (see REASON), or None."""
    m = REASON.search(text)
    return text[m.end():] if m and m.end() < len(text) else None


def _same_reason(line_reason: str, phrase_reason: str) -> bool:
    """Whether a line's reason is the one a phrase quotes: the phrase's reason is how the line's reason begins
    (the message goes on with values: 'invalid device, set device=8, valid device range is [0, 8)'), so the two
    are compared over the phrase's length, not by shared words ('Failed to set visible device. The invalid device
    is 1' shares every word of 'Set device failed, invalid device')."""
    from rapidfuzz import fuzz, utils

    p = utils.default_process(phrase_reason)
    q = utils.default_process(line_reason)
    return fuzz.ratio(p, q[:len(p) + len(p) // 4]) >= SYMPTOM_THRESHOLD


_WORD_RE = re.compile(r"[a-z0-9][a-z0-9_.\-]*[a-z0-9]")
#: the upper bounds of a version range (``>=0.9,<0.10`` -> 0.10)
UPPER_BOUND = re.compile(r"<=?\s*([^,|\s]+)")
_GRAM_TOKENS = re.compile(r"[\u3400-\u9fff]|[a-z0-9][a-z0-9_.\-]*")


@lru_cache(maxsize=8192)
def _informative(text: str) -> frozenset[str]:
    """The words of a normalised text that say something (not stop words, not traceback boilerplate, not the
    words of generic framework messages)."""
    return frozenset(w for w in _WORD_RE.findall(text.lower())
                     if w not in STOP and w not in GENERIC)


def _phrase_size(normalised: str, words) -> int:
    """How many words a symptom phrase says: its informative words, and its Chinese that no synonym translated,
    one word per two characters: '启动容器时没挂 davinci 设备' says more than 'start container davinci device',
    so a line '1. 启动容器' holds two of its six words, not two of four."""
    return len(words) + sum((len(run) + 1) // 2 for run in CJK_RUN.findall(normalised))


def _grams(text: str) -> set[str]:
    """Bigrams over tokens: each CJK character and each latin word is one token."""
    toks = _GRAM_TOKENS.findall(text.lower())
    return {a + b for a, b in zip(toks, toks[1:])} | {t for t in toks if len(t) > 2}


def _code_weights(linked: set[str], ranged: set[str], generic: bool = False) -> list[tuple[str, float, int]]:
    """(problem id, weight, problems linked) for a code, found or named symbolically: CODE_WEIGHT /
    sqrt(problems it links), half of it for a problem reached only through a code range (561xxx), and
    GENERIC_CODE_FACTOR of it for a catch-all code."""
    n = len(linked) + len(ranged)
    if not n:
        return []
    base = CODE_WEIGHT / math.sqrt(n) * (GENERIC_CODE_FACTOR if generic else 1.0)
    return [(pid, base * (0.5 if pid in ranged and pid not in linked else 1.0), n) for pid in sorted(linked | ranged)]


def _version_facts(p, facts: FactSet):
    """(component, fact key, range, version family, the Fact) for each of the problem's ``versions`` whose
    component's version the facts hold (a non-empty string)."""
    from ascend_doctor.kb.loader import VERSION_COMPONENTS, VERSION_FACTS

    for comp, rng in (p.versions or {}).items():
        key = VERSION_FACTS.get(comp)
        fact = facts.get(key) if key else None
        if fact is not None and fact.ok and isinstance(fact.value, str) and fact.value:
            yield comp, key, rng, VERSION_COMPONENTS[comp], fact


def _stated(fact) -> bool:
    """Whether a fact comes from the report's text (evidence/textfacts.py: source ``text:<input>:<line>``)
    rather than from the machine."""
    return fact.source.startswith("text:")


def _within(text: str, lines) -> bool:
    """Whether ``text`` (a line, or a sentence of one) is one of ``lines`` or part of one."""
    return bool(text) and any(text in ln for ln in lines)


def _untie(findings: list[Finding], lang: str) -> None:
    """Ties are not findings: when the best finding is a likely cause but another scores within TIE of it, the
    evidence does not choose between them, so none of the tied ones stays a likely cause (each is capped at
    TIE_CAP and says what it ties with). The order is kept."""
    if len(findings) < 2 or findings[0].score < LIKELY or findings[0].score - findings[1].score >= TIE:
        return
    top = findings[0].score
    tied = [f for f in findings if top - f.score < TIE]
    for f in tied:
        other = next(g for g in tied if g is not f)
        f.evidence.append(FindingEvidence("fact", "ranking", 0, say("tie", lang, other=other.id, score=f.score), 0.0))
        f.score = min(f.score, TIE_CAP)


def _explains_a_line(f: Finding) -> bool:
    """Whether a log line points to the problem (its signature or one of its codes), not only the report's words."""
    return f.parts.get("signature", 0) > 0 or f.parts.get("code", 0) > 0


def _yield_score(f: Finding) -> float:
    """The score that decides whether benign warnings go after a failure: a failure only words point to is
    scaled down as a cause (WORDS_ONLY_FACTOR), not as what the user describes beside a harmless warning."""
    return f.score / WORDS_ONLY_FACTOR if _words_only(f.parts, f.hinted) else f.score


def _words_only(parts: dict[str, float], hinted: bool = False) -> bool:
    """Only the report's words point to the problem: no signature, code, stalled bar or fact of its own
    (``hinted``: the only facts are the report's hardware, which a hardware-specific problem concerns)."""
    return parts.keys() == {"symptom"} or (hinted and parts.keys() == {"symptom", "fact"})


def _kind_rank(kind: str) -> int:
    return {"signature": 3, "code": 2, "stall": 2, "symptom": 1}.get(kind, 0)


def stall_detail(st, phrase: str = "", lang: str = "en") -> str:
    """What a stalled bar says, for the "why" of a finding."""
    where = say("stall_end" if st.last_in_input else "stall_never", lang, percent=st.percent, done=st.done, total=st.total)
    return say("stall_bar", lang, where=where, phrase=phrase) if phrase else where


def suggest_query(ev: Evidence, codes: list[CodeSummary], weigh=None) -> str:
    """A search query for ``ascend-doctor search`` when no cause is likely: the codes, then the words of the first
    error line (else the report's title, else its first sentences) that say the most. ``weigh``: word -> how
    telling it is across the knowledge (the retriever's IDF; 0: a word no problem uses, which search cannot
    find); without it, the first words."""
    parts = [c.code for c in codes[:3]]
    first = ev.first_errors(1)
    texts = [first[0].text] if first else ([ev.title] if ev.title else []) + [p for p in ev.prose[:3] if p != ev.title]
    words = list(dict.fromkeys(w for t in texts for m in SUGGEST_WORD.findall(t) for w in _cjk_words(m)
                               if w.lower() not in SUGGEST_STOP))
    if weigh is not None:
        weights = {w: weigh(w) for w in words}
        best = set(sorted((w for w in words if weights[w] > 0), key=lambda w: -weights[w])[:SUGGEST_WORDS])
        words = [w for w in words if w in best]
    parts += words[:SUGGEST_WORDS]
    return " ".join(dict.fromkeys(parts))


def _cjk_words(run: str) -> list[str]:
    """A run of Chinese cut where a common word stands (会报无法找到 -> 会报无法找到, 等相关错误信息 -> 等相关, 信息): the
    pieces a search can find; anything else whole."""
    if not CJK_RUN.fullmatch(run):
        return [run]
    cut = _CJK_CUT.sub(" ", run)
    return [w for w in cut.split() if len(w) >= 2]


_CJK_CUT = re.compile("|".join(sorted(CJK_STOP, key=len, reverse=True)))
SUGGEST_WORD = re.compile(r"[A-Za-z][A-Za-z0-9_.\-]*[A-Za-z0-9]|[\u3400-\u9fff]{2,}")
SUGGEST_STOP = frozenset("error traceback most recent call last line file failed fail exception raise the and "
                         "for with this that from not".split())
SUGGEST_WORDS = 5


#: every spelling of every stack's name, in lower case: ``llama-factory`` also as llama_factory, "llama factory"
#: and llamafactory
_SPELLINGS = {v.encode(): c for c in STACKS
              for v in reduce(lambda vs, part: [v + sep + part for v in vs for sep in ("-", "_", " ", "")],
                              c.split("-")[1:], [c.split("-")[0]])}
_SPELLING_STACK = list(_SPELLINGS.values())
_ALNUM = frozenset(b"abcdefghijklmnopqrstuvwxyz0123456789")


@lru_cache(maxsize=1)
def _stack_automaton() -> "ahocorasick_rs.BytesAhoCorasick":
    return ahocorasick_rs.BytesAhoCorasick(list(_SPELLINGS))


def stacks_named(text: str) -> set[str]:
    """The STACKS a report names: a spelling of a stack's name with no letter or digit on either side. One pass of
    an Aho-Corasick automaton over the text in lower case (a regex with a look-behind at every position read
    4 MB of plog heads at ~45 MB/s; this, ~400 MB/s)."""
    data = text.lower().encode("utf-8", "replace")
    n = len(data)
    found = set()
    for i, start, end in _stack_automaton().find_matches_as_indexes(data, overlapping=True):
        if not ((start and data[start - 1] in _ALNUM) or (end < n and data[end] in _ALNUM)):
            found.add(_SPELLING_STACK[i])
    return found
