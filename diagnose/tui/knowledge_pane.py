"""Knowledge screen: search-as-you-type over problems and error codes, filters, detail view.

Uses the same ranking as ``ascend-doctor search``; typing an error code jumps straight to it.
"""
from __future__ import annotations

from textual import on, work
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.widgets import Input, Label, OptionList, Select
from textual.widgets.option_list import Option

from ..render.console import t
from .text import markdown_view, code_markdown, problem_detail_markdown, safe

EMPTY = ("Type to search the problems and error codes (English or Chinese). "
         "An error code such as `561000`, `EZ9999` or `-8020` jumps straight to its entry.\n\n"
         "Tab moves to the results; Up/Down browse them.")


HARDWARE = ("a2", "a3", "310p", "310b", "910", "950")


class KnowledgePane(Vertical):
    """Search box + filters on top, results on the left, the selected entry on the right."""

    DEFAULT_CSS = """
    KnowledgePane #kn-bar { height: 3; }
    KnowledgePane #kn-query { width: 1fr; }
    KnowledgePane #kn-kind { width: 16; }
    KnowledgePane #kn-family { width: 22; }
    KnowledgePane #kn-hw { width: 14; }
    KnowledgePane #kn-status { height: 1; padding: 0 1; }
    KnowledgePane #kn-body { height: 1fr; }
    KnowledgePane #kn-results { width: 2fr; min-width: 24; height: 1fr; }
    KnowledgePane #kn-detail { width: 3fr; height: 1fr; overflow-y: auto; padding: 0 1; }
    """

    def __init__(self, kb, lang: str, **kw):
        super().__init__(**kw)
        self.kb = kb
        self.lang = lang
        self.current = ""            # "kind|ref" of the entry in the detail view
        self._want = ""              # entry to highlight when the next results arrive (open_problem)
        self.searching = False
        self._pending = ""           # problem asked for before the screen was mounted
        self._ready = False

    def compose(self) -> ComposeResult:
        with Horizontal(id="kn-bar"):
            yield Input(placeholder="search: 权重加载 卡住, HCCL timeout, 561000 …", id="kn-query")
            yield Select([("all", "all"), ("problems", "problem"), ("codes", "code")],
                         value="all", allow_blank=False, id="kn-kind")
            families = sorted({f["name"] for f in self.kb.families()})
            yield Select([("any family", "")] + [(f, f) for f in families], value="", allow_blank=False,
                         id="kn-family")
            yield Select([("any hw", "")] + [(f"hw {h}", h) for h in HARDWARE], value="", allow_blank=False,
                         id="kn-hw")
        yield Label("", id="kn-status")
        with Horizontal(id="kn-body"):
            yield OptionList(id="kn-results")
            yield markdown_view("kn-detail")

    def on_mount(self) -> None:
        self._ready = True
        self.query_one("#kn-detail").update(EMPTY)
        if self._pending:
            self.open_problem(self._pending)
        self.app.pane_ready(self)

    def focus_main(self) -> None:
        self.focus_query()

    def focus_query(self) -> None:
        self.query_one("#kn-query", Input).focus()

    @on(Input.Changed, "#kn-query")
    @on(Select.Changed, "#kn-kind")
    @on(Select.Changed, "#kn-family")
    @on(Select.Changed, "#kn-hw")
    def _changed(self) -> None:
        self.searching = True
        self.run_search(self.query_one("#kn-query", Input).value)

    @on(Input.Submitted, "#kn-query")
    def _submitted(self) -> None:
        ol = self.query_one("#kn-results", OptionList)
        if ol.option_count:
            ol.focus()

    @work(exclusive=True, thread=True, group="kn-search")
    def run_search(self, query: str) -> None:
        kind = self.query_one("#kn-kind", Select).value
        family = self.query_one("#kn-family", Select).value or ""
        hardware = self.query_one("#kn-hw", Select).value or ""
        kinds = ("problem", "code") if kind == "all" else (kind,)
        q = query.strip()
        if q:
            hits = self.kb.search(q, limit=200 if family or hardware else 50, kinds=kinds)
        elif family or hardware:
            hits = self._browse(kinds, family)          # a filter with no words lists the whole family
        else:
            hits = []
        if family or hardware:
            hits = [h for h in hits if self._keep(h, family, hardware)][:100]
        direct = self.kb.codes(q, patterns=False) if q and "code" in kinds and " " not in q else []
        direct = [c for c in direct if not family or c.family == family]
        self.app.call_from_thread(self._show, query or family or hardware, hits, direct)

    def _index(self) -> dict[str, tuple[str, list[str]]]:
        if not hasattr(self, "_problem_index"):
            self._problem_index = {p.id: (p.family, p.hardware) for p in self.kb.problems()}
        return self._problem_index

    def _keep(self, hit, family: str, hardware: str) -> bool:
        if hit.kind == "code":
            return not hardware and (not family or hit.ref.split(":", 1)[0] == family)
        fam, hw = self._index().get(hit.ref, ("", []))
        return (not family or fam == family) and (not hardware or hardware in hw or "any" in hw)

    def _browse(self, kinds, family: str):
        from ascend_doctor.kb.query import SearchHit

        hits = []
        if "problem" in kinds:
            hits += [SearchHit("problem", p.id, p.title, 0.0) for p in self.kb.problems(family or None)]
        if "code" in kinds and family:
            hits += [SearchHit("code", f"{c.family}:{c.code}", {"en": f"{c.code} {c.name}", "zh": f"{c.code} {c.name}"}, 0.0)
                     for c in self.kb.all_codes() if c.family == family]
        return hits

    def _show(self, query: str, hits, direct) -> None:
        ol = self.query_one("#kn-results", OptionList)
        ol.clear_options()
        seen = set()
        ids = []
        want, self._want = self._want, ""
        if want.startswith("problem|") and (p := self.kb.problem(want.split("|", 1)[1])) is not None:
            seen.add(("problem", p.id))           # the problem opened from Check / Ask comes first
            ids.append(want)
            ol.add_option(Option(safe(f"● {t(p.title, self.lang)}"), id=want))
        for c in direct:                      # typing an error code jumps to it
            ref = f"{c.family}:{c.code}"
            seen.add(("code", ref))
            ids.append(f"code|{ref}")
            ol.add_option(Option(safe(f"# {c.code}  {c.name}  ({c.family})"), id=ids[-1]))
        for h in hits:
            if (h.kind, h.ref) in seen:
                continue
            seen.add((h.kind, h.ref))
            label = t(h.title, self.lang) if h.kind == "problem" else h.title.get("en", h.ref)
            prefix = "●" if h.kind == "problem" else "#"
            ids.append(f"{h.kind}|{h.ref}")
            ol.add_option(Option(safe(f"{prefix} {label}"), id=ids[-1]))
        status = self.query_one("#kn-status", Label)
        if not query.strip():
            status.update("")
        else:
            status.update(safe(f"{len(ids)} result(s)" + (" · direct code match first" if direct else "")))
        if want and want in ids:
            ol.highlighted = ids.index(want)
        elif ids:
            ol.highlighted = 0
        else:
            self.current = ""
            self.query_one("#kn-detail").update(
                EMPTY if not query.strip() else f"Nothing found for {safe(query).plain!r}; try fewer or other words.")
        self.searching = False

    @on(OptionList.OptionHighlighted, "#kn-results")
    def _highlighted(self, event: OptionList.OptionHighlighted) -> None:
        if event.option.id:
            self.show_entry(event.option.id)

    def show_entry(self, option_id: str) -> None:
        kind, ref = option_id.split("|", 1)
        md = self.query_one("#kn-detail")
        self.current = option_id
        if kind == "problem":
            p = self.kb.problem(ref)
            md.update(problem_detail_markdown(p, self.lang) if p else "")
        else:
            family, code = ref.split(":", 1)
            infos = [c for c in self.kb.codes(code, family=family) if c.code == code] or self.kb.codes(code, family=family)
            titles = {pid: t(p.title, self.lang) for c in infos for pid in c.problems if (p := self.kb.problem(pid))}
            md.update("\n\n".join(code_markdown(c, self.lang, titles) for c in infos[:1]))

    def open_problem(self, problem_id: str) -> None:
        """Show one problem (from Check or Ask); the search box holds its id, the results its neighbours."""
        self.searching = True
        if not self._ready:
            self._pending = problem_id
            return
        self._pending = ""
        self._want = f"problem|{problem_id}"
        self.show_entry(self._want)
        box = self.query_one("#kn-query", Input)
        if box.value == problem_id:
            self.run_search(problem_id)          # no Changed event for the same text
        else:
            box.value = problem_id
