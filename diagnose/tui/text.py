"""Text helpers for the TUI: every untrusted string is escaped before it reaches markup."""
from __future__ import annotations

from rich.markup import escape
from rich.text import Text

from ..render.console import t, tl, visible
from ..render.knowledge import label, problem_markdown


def enable_cjk_wrap() -> None:
    """Chinese wraps between characters in rich and in textual (see render/cjk.py)."""
    import textual._wrap

    from ..render import cjk

    cjk.enable()
    textual._wrap.re_chunk = cjk.TEXTUAL_CHUNK


def safe(text: str) -> Text:
    """A plain rich Text: brackets in log lines and fact values are shown, never interpreted."""
    return Text(visible(text))


def md_escape(text: str) -> str:
    """Escape Markdown control characters of untrusted text shown inside a Markdown widget."""
    out = []
    for ch in visible(text):
        if ch in "\\`*_{}[]<>()#+-.!|":
            out.append("\\" + ch)
        else:
            out.append(ch)
    return "".join(out)


def md_code(text: str) -> str:
    """Untrusted text as a Markdown code span (shown literally; backslash escapes do not work inside one)."""
    text = " ".join(visible(text).split("\n"))
    longest = run = 0
    for ch in text:
        run = run + 1 if ch == "`" else 0
        longest = max(longest, run)
    fence = "`" * (longest + 1)
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{fence}{pad}{text}{pad}{fence}" if text else ""


def markup_escape(text: str) -> str:
    return escape(visible(text))


def problem_detail_markdown(p, lang: str) -> str:
    return problem_markdown(p, lang, heading=2)


def code_markdown(c, lang: str, titles: dict[str, str]) -> str:
    L = lambda k: label(k, lang)  # noqa: E731
    out = [f"## {c.code} {c.name}".rstrip(), "", f"*{L('family')}: {c.family}*", "",
           f"**{L('meaning')}:** {t(c.meaning, lang)}", ""]
    causes = tl(c.causes, lang)
    if causes:
        out += [f"**{L('causes')}:**", ""] + [f"- {x}" for x in causes] + [""]
    if c.action:
        out += [f"**{L('action')}:** {t(c.action, lang)}", ""]
    if c.level:
        out += [f"**{L('level')}:** {c.level}", ""]
    if c.problems:
        out += [f"**{L('problems')}:**", ""] + [f"- `{pid}` {titles.get(pid, '')}" for pid in c.problems] + [""]
    out += [f"**{L('sources')}:**", ""] + [f"- {s}" for s in c.sources]
    return "\n".join(out)


def markdown_view(id: str):
    """A scrollable Markdown pane rendered by Rich in one widget (several times faster to update than
    textual's block-per-widget Markdown, which matters for the detail panes). Markup in the text is
    never interpreted: Rich's Markdown renderer does not read console markup."""
    from rich.markdown import Markdown as RichMarkdown
    from textual.containers import VerticalScroll
    from textual.widgets import Static

    class MarkdownView(VerticalScroll):
        DEFAULT_CSS = """
        MarkdownView { height: 1fr; }
        MarkdownView > Static { width: 1fr; height: auto; }
        """

        def __init__(self, **kw):
            super().__init__(**kw)
            self.source = ""
            self.can_focus = True

        def compose(self):
            yield Static("", markup=False)

        def update(self, source: str) -> None:
            self.source = source
            body = self.query_one(Static)
            body.update(RichMarkdown(source, code_theme="ansi_dark", hyperlinks=False) if source else "")
            self.scroll_home(animate=False)

    return MarkdownView(id=id)
