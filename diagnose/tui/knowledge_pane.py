"""Knowledge screen: search-as-you-type over problems and error codes, filters, detail view.

Uses the same ranking as ``ascend-doctor search``; typing an error code jumps straight to it. A problem
opened from Check or Ask is shown alone (not a search for its id); Enter on a result moves into its text.
"""
from __future__ import annotations

from textual import on, work
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.widgets import Input, Label, OptionList, Select
from textual.widgets.option_list import Option

from ..render.console import t
from .text import markdown_view, code_markdown, problem_detail_markdown, safe
from .words import w


HARDWARE = ("a2", "a3", "310p", "310b", "910", "950")


class KnowledgePane(Vertical):
    """Search box + filters on top, results on the left, the selected entry on the right."""

    DEFAULT_CSS = """
    KnowledgePane #kn-bar { height: 3; }
    KnowledgePane #kn-query { width: 1fr; }
    KnowledgePane #kn-kind { width: 14; }
    KnowledgePane #kn-family { width: 20; }
    KnowledgePane #kn-hw { width: 16; }
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
        self.searching = False
        self._pending = ""           # problem asked for before the screen was mounted
        self._ready = False
        self.opened = ""             # the problem shown alone (opened from Check or Ask), until the next search
        self._asked = ("", "all", "", "")   # the search on show: (words, kind, family, hardware)

    def compose(self) -> ComposeResult:
        L = self.lang
        with Horizontal(id="kn-bar"):
            yield Input(placeholder=w("kn.placeholder", L), id="kn-query")
            yield Select([(w("kn.kind.all", L), "all"), (w("kn.kind.problem", L), "problem"),
                          (w("kn.kind.code", L), "code")], value="all", allow_blank=False, id="kn-kind")
            families = sorted({f["name"] for f in self.kb.families()})
            yield Select([(w("kn.family.any", L), "")] + [(f, f) for f in families], value="", allow_blank=False,
                         id="kn-family")
            yield Select([(w("kn.hw.any", L), "")] + [(w("kn.hw", L, hw=h), h) for h in HARDWARE], value="",
                         allow_blank=False, id="kn-hw")
        yield Label("", id="kn-status")
        with Horizontal(id="kn-body"):
            yield OptionList(id="kn-results")
            yield markdown_view("kn-detail")

    def on_mount(self) -> None:
        self._ready = True
        self.query_one("#kn-detail").update(w("kn.empty", self.lang))
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
        asked = (self.query_one("#kn-query", Input).value, self.query_one("#kn-kind", Select).value,
                 self.query_one("#kn-family", Select).value or "", self.query_one("#kn-hw", Select).value or "")
        if asked == self._asked:
            return                       # the widgets announcing their first value, or a box cleared by open_problem
        self._asked = asked
        self.opened = ""
        self.searching = True
        self.run_search(asked[0])

    @on(Input.Submitted, "#kn-query")
    def _submitted(self) -> None:
        ol = self.query_one("#kn-results", OptionList)
        if ol.option_count:
            ol.focus()

    @on(OptionList.OptionSelected, "#kn-results")
    def _selected(self, event: OptionList.OptionSelected) -> None:
        """Enter on a result: read it (the detail pane takes the keys: Up/Down, PgUp/PgDn scroll it)."""
        if event.option.id:
            self.show_entry(event.option.id)
            self.query_one("#kn-detail").focus()

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
        if self.opened:
            return                            # a search that finished after a problem was opened
        ol = self.query_one("#kn-results", OptionList)
        ol.clear_options()
        seen = set()
        ids = []
        for c in direct:                      # typing an error code jumps to it
            ref = f"{c.family}:{c.code}"
            seen.add(("code", ref))
            ids.append(f"code|{ref}")
            ol.add_option(Option(safe(f"# {c.code}  {c.name}  ({c.family})"), id=ids[-1]))
        for h in hits:
            if (h.kind, h.ref) in seen:
                continue
            seen.add((h.kind, h.ref))
            label = t(h.title, self.lang) or h.ref
            prefix = "●" if h.kind == "problem" else "#"
            ids.append(f"{h.kind}|{h.ref}")
            ol.add_option(Option(safe(f"{prefix} {label}"), id=ids[-1]))
        status = self.query_one("#kn-status", Label)
        if not query.strip():
            status.update("")
        else:
            status.update(safe(w("kn.results", self.lang, n=len(ids)) + (w("kn.direct", self.lang) if direct else "")))
        if ids:
            ol.highlighted = 0
        else:
            self.current = ""
            self.query_one("#kn-detail").update(
                w("kn.empty", self.lang) if not query.strip()
                else w("kn.nothing", self.lang, query=repr(safe(query).plain)))
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
        """Show one problem (from Check or Ask), alone: the results list holds just it, the search box is
        empty and ready for a search of the user's own."""
        if not self._ready:
            self._pending = problem_id
            return
        self._pending = ""
        p = self.kb.problem(problem_id)
        if p is None:
            return
        self.opened = problem_id
        self.searching = False
        self.workers.cancel_group(self, "kn-search")
        box = self.query_one("#kn-query", Input)
        box.value = ""
        self._asked = ("", *self._asked[1:])
        option = f"problem|{problem_id}"
        ol = self.query_one("#kn-results", OptionList)
        ol.clear_options()
        ol.add_option(Option(safe(f"● {t(p.title, self.lang)}"), id=option))
        self.query_one("#kn-status", Label).update(safe(w("kn.opened", self.lang, id=problem_id)))
        self.show_entry(option)
        ol.highlighted = 0
