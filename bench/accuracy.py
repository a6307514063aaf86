"""Top-1 / top-3 accuracy of ``diagnose`` over the labelled real cases in tests/diagnosis_cases/.

Each case is a TOML file: ``expected`` (a problem id), ``source`` (the public report it comes from)
and ``input`` (the text as the reporter pasted it). The environment is not used (like --no-env);
facts found in the text are. Prints the figures and every miss; never asserts (the test suite
holds the floor).

    .venv/bin/python bench/accuracy.py [--kb PATH] [-v]
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CASES = ROOT / "tests" / "diagnosis_cases"


def load_cases(directory: Path = CASES) -> list[dict]:
    try:
        import tomllib
    except ModuleNotFoundError:  # pragma: no cover - Python 3.10
        import tomli as tomllib
    cases = []
    for path in sorted(directory.glob("*.toml")):
        with open(path, "rb") as fh:
            data = tomllib.load(fh)
        data["name"] = path.stem
        cases.append(data)
    return cases


def evaluate(kb, cases: list[dict]) -> dict:
    from ascend_doctor.diagnose.matcher import Matcher
    from ascend_doctor.diagnose.evidence import read_evidence
    from ascend_doctor.rules.facts import FactSet

    matcher = Matcher(kb)
    rows = []
    for c in cases:
        ev = read_evidence([], text=c["input"], signatures=matcher.patterns)
        facts = FactSet(origin="text")
        for f in ev.facts:
            facts.add(f)
        d = matcher.match(ev, facts)
        ids = [f.id for f in d.findings]
        rank = ids.index(c["expected"]) + 1 if c["expected"] in ids else 0
        rows.append({"name": c["name"], "expected": c["expected"], "rank": rank, "got": ids[:3],
                     "scores": [f.score for f in d.findings[:3]]})
    n = len(rows) or 1
    return {"cases": len(rows), "top1": sum(r["rank"] == 1 for r in rows) / n,
            "top3": sum(1 <= r["rank"] <= 3 for r in rows) / n, "rows": rows}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--kb", default=None, help="knowledge-base database (default: the usual one)")
    ap.add_argument("-v", "--verbose", action="store_true", help="print every case, not only the misses")
    args = ap.parse_args(argv)
    sys.path.insert(0, str(ROOT))
    from ascend_doctor.kb.query import KnowledgeBase

    t0 = time.perf_counter()
    with KnowledgeBase(args.kb) as kb:
        res = evaluate(kb, load_cases())
    dt = time.perf_counter() - t0
    for r in res["rows"]:
        if args.verbose or r["rank"] != 1:
            mark = "ok " if r["rank"] == 1 else ("top3" if r["rank"] else "MISS")
            print(f"{mark:4} {r['name']:45} expected {r['expected']:38} got {', '.join(r['got']) or '-'} {r['scores']}")
    print(f"cases {res['cases']}  top-1 {res['top1']:.1%}  top-3 {res['top3']:.1%}  ({dt:.1f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
