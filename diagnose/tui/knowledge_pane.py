"""Knowledge screen: search-as-you-type over problems and error codes, filters, detail view.

Uses the same ranking as ``ascend-doctor search``; typing an error code jumps straight to it.
"""
from __future__ import annotations

from textual import on, work
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.widgets import Input, Markdown, OptionList, Select
from textual.widgets.option_list import Option

from ..render.console import t
from .text import code_markdown, problem_detail_markdown, safe


class KnowledgePane(Vertical):
    """Search box + filters on top, results on the left, the selected entry on the right."""

    DEFAULT_CSS = """
    KnowledgePane #kn-bar { height: 3; }
    KnowledgePane #kn-query { width: 1fr; }
    KnowledgePane #kn-kind { width: 18; }
    KnowledgePane #kn-results { width: 2fr; min-width: 30; }
    KnowledgePane #kn-detail { width: 3fr; overflow-y: auto; padding: 0 1; }
    """

    def __init__(self, kb, lang: str, **kw):
        super().__init__(**kw)
        self.kb = kb
        self.lang = lang

    def compose(self) -> ComposeResult:
        with Horizontal(id="kn-bar"):
            yield Input(placeholder="search problems and codes: 权重加载 卡住, HCCL timeout, 561000 …", id="kn-query")
            yield Select([("problems + codes", "all"), ("problems", "problem"), ("codes", "code")],
                         value="all", allow_blank=False, id="kn-kind")
        with Horizontal():
            yield OptionList(id="kn-results")
            yield Markdown("", id="kn-detail")

    def focus_query(self) -> None:
        self.query_one("#kn-query", Input).focus()

    @on(Input.Changed, "#kn-query")
    @on(Select.Changed, "#kn-kind")
    def _changed(self) -> None:
        self.run_search(self.query_one("#kn-query", Input).value)

    @work(exclusive=True, thread=True, group="kn-search")
    def run_search(self, query: str) -> None:
        kind = self.query_one("#kn-kind", Select).value
        kinds = ("problem", "code") if kind == "all" else (kind,)
        hits = self.kb.search(query, limit=50, kinds=kinds) if query.strip() else []
        direct = self.kb.codes(query.strip(), patterns=False) if query.strip() and "code" in kinds else []
        self.app.call_from_thread(self._show, hits, direct)

    def _show(self, hits, direct) -> None:
        ol = self.query_one("#kn-results", OptionList)
        ol.clear_options()
        seen = set()
        for c in direct:                      # typing an error code jumps to it
            ref = f"{c.family}:{c.code}"
            seen.add(("code", ref))
            ol.add_option(Option(safe(f"{c.code}  {c.name}  [{c.family}]"), id=f"code|{ref}"))
        for h in hits:
            if (h.kind, h.ref) in seen:
                continue
            label = t(h.title, self.lang) if h.kind == "problem" else h.title.get("en", h.ref)
            prefix = "●" if h.kind == "problem" else "#"
            ol.add_option(Option(safe(f"{prefix} {label}"), id=f"{h.kind}|{h.ref}"))
        if ol.option_count:
            ol.highlighted = 0
        else:
            self.query_one("#kn-detail", Markdown).update("")

    @on(OptionList.OptionHighlighted, "#kn-results")
    def _highlighted(self, event: OptionList.OptionHighlighted) -> None:
        if event.option.id:
            self.show_entry(event.option.id)

    def show_entry(self, option_id: str) -> None:
        kind, ref = option_id.split("|", 1)
        md = self.query_one("#kn-detail", Markdown)
        if kind == "problem":
            p = self.kb.problem(ref)
            md.update(problem_detail_markdown(p, self.lang) if p else "")
        else:
            family, code = ref.split(":", 1)
            infos = [c for c in self.kb.codes(code, family=family) if c.code == code] or self.kb.codes(code, family=family)
            titles = {pid: t(p.title, self.lang) for c in infos for pid in c.problems if (p := self.kb.problem(pid))}
            md.update("\n\n".join(code_markdown(c, self.lang, titles) for c in infos[:1]))

    def open_problem(self, problem_id: str) -> None:
        self.query_one("#kn-query", Input).value = problem_id
        self.show_entry(f"problem|{problem_id}")
