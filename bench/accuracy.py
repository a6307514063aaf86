"""Top-1 / top-3 accuracy of ``diagnose`` over the labelled real cases in tests/diagnosis_cases/.

Two splits, reported separately and never mixed:

- ``dev/``: cases the knowledge and the matcher may be tuned on (a training score);
- ``holdout/``: reports frozen before tuning, from report URLs reserved by tests/diagnosis_split.py
  and cited nowhere in the knowledge. Never change knowledge or matcher to fix one of them.

Each case is a TOML file: ``expected`` (a problem id, or a list of ids any of which names the right
fix; an empty list when the knowledge has no entry for it, which counts as a miss), ``source`` (the
public report), ``input`` (the text as the reporter pasted it) and optionally ``fix``, ``stack`` and
``lang``. The environment is not used (like --no-env); facts found in the text are. Prints the figures
per split and per stack, calibration at the 0.5 ("likely") line, how often the search suggested when no cause is likely
finds the answer, and every miss; never asserts (the test suite holds the floor on dev).

    .venv/bin/python bench/accuracy.py [--split dev|holdout|all] [--kb PATH] [-v]
    .venv/bin/python bench/accuracy.py --dir FOLDER    # a fresh batch, measured before anything is tuned on it
"""
from __future__ import annotations

import argparse
import sys
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CASES = ROOT / "tests" / "diagnosis_cases"
SPLITS = ("dev", "holdout")
from ascend_doctor.diagnose.matcher.model import LIKELY  # noqa: E402  the line the CLI draws


def load_cases(directory: Path = CASES / "dev") -> list[dict]:
    try:
        import tomllib
    except ModuleNotFoundError:  # pragma: no cover - Python < 3.11
        import tomli as tomllib
    cases = []
    for path in sorted(directory.glob("*.toml")):
        with open(path, "rb") as fh:
            data = tomllib.load(fh)
        data["name"] = path.stem
        exp = data.get("expected", [])
        data["expected"] = [exp] if isinstance(exp, str) else list(exp)
        data.setdefault("stack", "other")
        cases.append(data)
    return cases


def evaluate(kb, cases: list[dict]) -> dict:
    from ascend_doctor.diagnose.services.diagnosis import diagnose

    cited = {_url(u) for p in kb.problems() for u in p.sources}
    rows = []
    for c in cases:
        d = diagnose(kb, text=c["input"])
        ids = [f.id for f in d.findings]
        ranks = [ids.index(e) + 1 for e in c["expected"] if e in ids]
        rank = min(ranks) if ranks else 0
        # the next step when nothing is likely: does the search diagnose suggests find the answer?
        searched = None
        if c["expected"] and not (d.findings and d.findings[0].score >= LIKELY):
            hits = [h.ref for h in kb.search(d.suggestion, limit=5)] if d.suggestion.strip() else []
            searched = any(e in hits for e in c["expected"])
        rows.append({"name": c["name"], "expected": c["expected"], "stack": c["stack"], "rank": rank,
                     "searched": searched,
                     "got": ids[:3], "scores": [f.score for f in d.findings[:3]],
                     "cited": _url(c.get("source", "")) in cited})
    return summarise(rows)


def _url(url: str) -> str:
    return url.split("#")[0].rstrip("/")


def summarise(rows: list[dict]) -> dict:
    n = len(rows) or 1
    likely = [r for r in rows if r["scores"] and r["scores"][0] >= LIKELY]
    right = [r for r in rows if r["rank"] == 1]
    answerable = [r for r in rows if r["expected"]]
    # a report whose cause the knowledge does not hold: right when no cause is called likely
    unanswerable = [r for r in rows if not r["expected"]]
    return {
        "cases": len(rows),
        "answerable": len(answerable),
        "top1_answerable": (sum(r["rank"] == 1 for r in answerable) / len(answerable)) if answerable else None,
        "top3_answerable": (sum(1 <= r["rank"] <= 3 for r in answerable) / len(answerable)) if answerable else None,
        "unanswerable": len(unanswerable),
        "abstained": (sum(not (r["scores"] and r["scores"][0] >= LIKELY) for r in unanswerable) / len(unanswerable))
        if unanswerable else None,
        "top1": sum(r["rank"] == 1 for r in rows) / n,
        "top3": sum(1 <= r["rank"] <= 3 for r in rows) / n,
        # calibration: how often a top answer at >= 0.5 is right, and how many right answers reach 0.5
        "precision_at_likely": (sum(r["rank"] == 1 for r in likely) / len(likely)) if likely else None,
        "right_reaching_likely": (sum(r["scores"][0] >= LIKELY for r in right) / len(right)) if right else None,
        "likely": len(likely),
        "unlikely_answerable": sum(r.get("searched") is not None for r in rows),
        "search_finds": sum(bool(r.get("searched")) for r in rows),
        "rows": rows,
    }


def _ratio(x) -> str:
    return "-" if x is None else f"{x:.2f}"


def report(split: str, res: dict, verbose: bool, cases: bool = True) -> None:
    for r in res["rows"]:
        if cases and (verbose or r["rank"] != 1):
            mark = "ok " if r["rank"] == 1 else ("top3" if r["rank"] else "MISS")
            exp = ",".join(r["expected"]) or "(not in KB)"
            print(f"  {mark:4} {r['name']:48} expected {exp:38} got {', '.join(r['got']) or '-'} "
                  f"{[round(s, 2) for s in r['scores']]}")
    by_stack: dict[str, list[dict]] = defaultdict(list)
    for r in res["rows"]:
        by_stack[r["stack"]].append(r)
    print(f"{split}: cases {res['cases']}  top-1 {res['top1']:.2f}  top-3 {res['top3']:.2f}  "
          f"precision at >= {LIKELY} {_ratio(res['precision_at_likely'])} (of {res['likely']})  "
          f"right answers reaching {LIKELY} {_ratio(res['right_reaching_likely'])}")
    print(f"  {split:8} with an answer in the KB: {res['answerable']} cases  top-1 {_ratio(res['top1_answerable'])}  "
          f"top-3 {_ratio(res['top3_answerable'])};  without: {res['unanswerable']} cases, no likely cause called "
          f"{_ratio(res['abstained'])}")
    if res["unlikely_answerable"]:
        print(f"  {split:8} with an answer but no likely cause: {res['unlikely_answerable']} cases; the search it "
              f"suggests finds the answer in its top 5 for {res['search_finds']}")
    cited = [r for r in res["rows"] if r["expected"] and r["cited"]]
    if cited:
        # a report the knowledge cites was read when the knowledge was written: those score like training cases;
        # the others are the nearer guess of how unseen reports fare (still a training score: the matcher was tuned)
        uncited = [r for r in res["rows"] if r["expected"] and not r["cited"]]
        for what, group in (("whose report the KB cites", cited), ("whose report it does not cite", uncited)):
            s = summarise(group)
            print(f"  {split:8} with an answer, {what}: {s['cases']} cases  "
                  f"top-1 {s['top1']:.2f}  top-3 {s['top3']:.2f}")
    for stack in sorted(by_stack):
        s = summarise(by_stack[stack])
        print(f"  {split:8} {stack:14} {s['cases']:4} cases  top-1 {s['top1']:.2f}  top-3 {s['top3']:.2f}")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--split", choices=(*SPLITS, "all"), default="all", help="which cases (default: both, apart)")
    ap.add_argument("--kb", default=None, help="knowledge-base database (default: the usual one)")
    ap.add_argument("-v", "--verbose", action="store_true", help="print every case, not only the misses")
    ap.add_argument("--dir", default=None, metavar="DIR",
                    help="measure the cases of another folder instead (a fresh batch before it joins dev), reported alone")
    ap.add_argument("--name", default="", metavar="TEXT", help="only cases whose file name contains TEXT")
    ap.add_argument("--show-holdout-cases", action="store_true",
                    help="also list holdout cases one by one (to audit the cases, never to tune on them; by "
                         "default the holdout prints only its figures, so nobody fixes a holdout miss by accident)")
    args = ap.parse_args(argv)
    sys.path.insert(0, str(ROOT))
    from ascend_doctor.kb.query import KnowledgeBase

    t0 = time.perf_counter()
    with KnowledgeBase(args.kb) as kb:
        folders = ([(Path(args.dir).name, Path(args.dir))] if args.dir else
                   [(split, CASES / split) for split in (SPLITS if args.split == "all" else (args.split,))])
        for split, folder in folders:
            cases = [c for c in load_cases(folder) if args.name in c["name"]]
            report(split, evaluate(kb, cases), args.verbose,
                   cases=split != "holdout" or args.show_holdout_cases)
    print(f"({time.perf_counter() - t0:.1f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
