"""``ascend-doctor kb ...``: validate, build and inspect the knowledge base."""
from __future__ import annotations


NAME = "kb"
HELP = "knowledge base: validate, build, stats, add overlays, export / import knowledge bundles, import FaultDiag, docs"


def add_arguments(parser) -> None:
    from ..options import Parser, add_format, add_kb

    sub = parser.add_subparsers(dest="kb_command", metavar="ACTION", parser_class=Parser)
    p = sub.add_parser("validate", help="check the knowledge files (and user overlays); exit 1 on any problem")
    p.add_argument("paths", nargs="*", help="extra knowledge files to check as overlays")
    p = sub.add_parser("lint", help="check the knowledge files the way reviewers do: schema, validation and "
                                    "quality rules (codes K000-K108); exit 1 on an error (--strict: on a warning too)")
    p.add_argument("paths", nargs="*", help="extra knowledge files to check as overlays")
    p.add_argument("--strict", action="store_true", help="warnings fail too")
    p.add_argument("--code", action="append", default=[], metavar="CODE", help="only these lint codes (repeatable)")
    add_format(p)
    p = sub.add_parser("schema", help="write the JSON Schemas of the knowledge files (for editors such as Taplo)")
    p.add_argument("--output", metavar="DIR", default=None,
                   help="where to write (default: docs/schema of the source tree)")
    p = sub.add_parser("build", help="compile the knowledge files into the database now")
    p.add_argument("--force", action="store_true", help="rebuild even when the database looks fresh")
    add_kb(p)
    p = sub.add_parser("stats", help="counts of problems, codes and compatibility rows per family")
    add_format(p)
    add_kb(p)
    p = sub.add_parser("path", help="print where the compiled database is")
    add_kb(p)
    p = sub.add_parser("add", help="validate a knowledge file (your own problems/codes) and add it as a user overlay")
    p.add_argument("file", metavar="FILE.toml", help="problems and/or codes in the knowledge format")
    p = sub.add_parser("remove", help="remove a user overlay added with 'kb add'")
    p.add_argument("name", metavar="NAME.toml", help="file name of the overlay (see 'kb overlays')")
    p = sub.add_parser("overlays", help="list the user overlay files")
    p = sub.add_parser("export", help="write the overlay files in effect (site and user), or those named, into a "
                                      "knowledge bundle (.tar.gz) for 'kb import' on machines without a network")
    p.add_argument("-o", "--output", metavar="FILE.tar.gz", required=True, help="bundle to write (kept unless --force)")
    p.add_argument("names", nargs="*", metavar="NAME.toml", help="only these overlays (see 'kb overlays')")
    p.add_argument("--force", action="store_true", help="replace an existing output file")
    p = sub.add_parser("import", help="install the knowledge files of a knowledge bundle (.tar.gz from 'kb export') "
                                      "into your overlays, offline: every file checked first, all or nothing")
    p.add_argument("bundle", metavar="BUNDLE.tar.gz", help="knowledge bundle to import")
    p = sub.add_parser("import-faultdiag",
                       help="import MindCluster FaultDiag's kg-config.json (default: from the installed ascend_fd)")
    p.add_argument("path", nargs="?", default=None, metavar="PATH", help="kg-config.json to read")
    p = sub.add_parser("docs", help="generate the Markdown catalogue (docs/kb/) from the knowledge files")
    p.add_argument("--output", metavar="DIR", default=None, help="where to write (default: docs/kb of the source tree)")


def run(args) -> int:
    action = getattr(args, "kb_command", None)
    if action is None:
        from ...services.errors import UsageError

        raise UsageError("kb needs an action: validate, lint, schema, build, stats, path, add, remove, overlays, "
                         "export, import, import-faultdiag, docs (see 'ascend-doctor kb --help')")
    return {"validate": _validate, "lint": _lint, "schema": _schema, "build": _build, "stats": _stats, "path": _path, "add": _add, "remove": _remove,
            "overlays": _overlays, "export": _export, "import": _import, "import-faultdiag": _import_faultdiag,
            "docs": _docs}[action](args)


def _validate(args) -> int:
    import sys
    from pathlib import Path

    from ascend_doctor.kb.build import overlay_files
    from ascend_doctor.kb.loader import load
    from ascend_doctor.kb.paths import KNOWLEDGE_DIR

    from ...services.errors import InputError

    extra = [Path(p) for p in args.paths]
    for p in extra:
        if not p.is_file():
            raise InputError(f"no such file: {p}")
    kn, issues = load(KNOWLEDGE_DIR, overlay_files() + extra)
    for issue in issues:
        sys.stdout.write(f"{issue}\n")
    summary = (f"{len(kn.problems)} problems, {len(kn.codes)} codes, {len(kn.compat)} compatibility rows, "
               f"{sum(len(p.signatures) for p in kn.problems)} signatures")
    if issues:
        sys.stderr.write(f"ascend-doctor: {len(issues)} problem(s) in the knowledge files ({summary})\n")
        return 1
    sys.stdout.write(f"knowledge files are valid: {summary}\n")
    return 0


def _lint(args) -> int:
    import sys
    from pathlib import Path

    from ascend_doctor.kb.authoring.lint import lint
    from ascend_doctor.kb.build import overlay_files
    from ascend_doctor.kb.paths import KNOWLEDGE_DIR

    from ...services.errors import InputError
    from ..output import emit

    extra = [Path(p) for p in args.paths]
    for p in extra:
        if not p.is_file():
            raise InputError(f"no such file: {p}")
    found = [f for f in lint(KNOWLEDGE_DIR, overlay_files() + extra) if not args.code or f.code in args.code]
    errors = [f for f in found if f.severity == "error"]
    failed = bool(errors) or (args.strict and bool(found))
    emit("kb-lint", {"findings": found}, args.format)
    if args.format == "json":
        return 1 if failed else 0
    sys.stderr.write(f"ascend-doctor: kb lint: {len(errors)} error(s), {len(found) - len(errors)} warning(s)\n")
    return 1 if failed else 0


def _schema(args) -> int:
    from pathlib import Path

    from ascend_doctor.kb.authoring.schemas import write_schemas
    from ascend_doctor.kb.docs import default_output
    from ascend_doctor.rules.schema import rules_schema

    from ...services.errors import DoctorError, UsageError

    if args.output:
        out = Path(args.output)
    else:
        docs_kb = default_output()
        if docs_kb is None:
            raise UsageError("not running from a source checkout: give --output DIR")
        out = docs_kb.parent / "schema"
    try:
        written = write_schemas(out, {"rules.schema.json": rules_schema()})
    except OSError as exc:
        raise DoctorError(f"cannot write {out}: {exc.strerror or exc}") from exc
    print(f"{len(written)} schemas in {out}")
    return 0


def _build(args) -> int:
    from ..options import open_kb

    with open_kb(args) as kb:
        print(f"knowledge base ready: {kb.path}")
    return 0


def _path(args) -> int:
    from pathlib import Path

    from ascend_doctor.kb.paths import default_db_path

    print(Path(args.kb) if args.kb else default_db_path())
    return 0


def _stats(args) -> int:
    from ..options import lang_of, open_kb
    from ..output import emit

    with open_kb(args) as kb:
        stats = kb.stats()
    emit("kb-stats", stats, args.format, lang=lang_of(args))
    return 0


def _add(args) -> int:
    import sys
    from pathlib import Path

    from ascend_doctor.kb import overlay

    from ...services.errors import InputError

    src = Path(args.file)
    try:
        target, issues = overlay.add(src)
    except overlay.OverlayError as exc:
        raise InputError(str(exc)) from exc
    except OSError as exc:
        raise InputError(f"cannot add {src}: {exc.strerror or exc}") from exc
    if issues:
        for issue in issues:
            sys.stdout.write(f"{issue}\n")
        raise InputError(f"{src} does not validate ({len(issues)} problem(s), first: {issues[0].message}); nothing added")
    print(f"added {src.name} to the user overlays: {target}")
    return 0


def _remove(args) -> int:
    from ascend_doctor.kb import overlay

    from ...services.errors import NotFound

    try:
        target = overlay.remove(args.name)
    except overlay.OverlayError as exc:
        raise NotFound(str(exc)) from exc
    print(f"removed {target}")
    return 0


def _overlays(args) -> int:
    from ascend_doctor.kb.build import overlay_files
    from ascend_doctor.kb.paths import overlay_dir, site_overlay_dir

    files = overlay_files()
    print(f"overlay directory: {overlay_dir()}")
    print(f"site overlay directory: {site_overlay_dir()} (read only; a file of the same name above replaces it)")
    for f in files:
        where = "site" if f.parent == site_overlay_dir() else "user"
        print(f"  {f.name}  ({where})")
    if not files:
        print("  (none)")
    return 0


def _export(args) -> int:
    import os
    import sys

    from ascend_doctor.kb.build import overlay_files
    from ascend_doctor.kb.overlay_archive import pack
    from ascend_doctor.kb.paths import site_overlay_dir

    from ...files import write_file
    from ...render.console import visible
    from ...render.messages import message
    from ...services.errors import InputError, NotFound, UsageError
    from ..options import default_lang

    lang = default_lang()
    if args.output == "-":
        raise UsageError(message("output.no_stdout", lang, what=message("kb.what", lang)))
    files = overlay_files()
    if args.names:
        by_name = {f.name: f for f in files}
        unknown = [n for n in args.names if n not in by_name]
        if unknown:
            raise NotFound(message("kb.export.unknown", lang, name=visible(unknown[0])))
        files = [by_name[n] for n in dict.fromkeys(args.names)]
    if not files:
        raise NotFound(message("kb.export.none", lang, site=site_overlay_dir()))
    if os.path.lexists(args.output) and not args.force and not os.path.isdir(args.output):
        raise InputError(message("output.exists", lang, path=visible(args.output)))
    try:
        write_file(args.output, pack(files), mode=0o644, overwrite=args.force)
    except FileExistsError as exc:
        raise InputError(message("output.exists", lang, path=visible(args.output))) from exc
    except OSError as exc:
        raise InputError(message("output.cannot_write", lang, path=visible(args.output), why=exc.strerror or exc)) from exc
    sys.stdout.write(message("kb.export.wrote", lang, path=visible(args.output), n=len(files),
                             names=visible(", ".join(f.name for f in files))) + "\n")
    return 0


def _import(args) -> int:
    import sys
    from pathlib import Path

    from ascend_doctor.kb import overlay
    from ascend_doctor.kb.overlay_archive import ArchiveError, unpack
    from ascend_doctor.kb.paths import overlay_dir

    from ...render.console import visible
    from ...render.messages import message
    from ...services.errors import InputError
    from ..options import default_lang

    lang = default_lang()
    src = Path(args.bundle)

    def refuse(why: str) -> InputError:
        return InputError(message("kb.import.refused", lang, why=visible(why)))

    try:
        texts = unpack(src)
    except ArchiveError as exc:
        raise refuse(message("kb.import.error." + exc.code, lang, **exc.params)) from exc
    try:
        installed, replaced, issues = overlay.import_files(texts)
    except OSError as exc:
        raise refuse(message("kb.import.cannot_write", lang, dir=overlay_dir(), why=exc.strerror or exc)) from exc
    if issues:
        for issue in issues:
            sys.stdout.write(visible(f"{src.name}:{issue}") + "\n")
        raise refuse(message("kb.import.invalid", lang, n=len(issues), path=src, first=" ".join(str(issues[0]).split())))
    sys.stdout.write(message("kb.import.done", lang, n=len(installed), dir=overlay_dir(),
                             names=", ".join(p.name for p in installed)) + "\n")
    if replaced:
        sys.stdout.write(message("kb.import.replaced", lang, names=", ".join(replaced)) + "\n")
    return 0


def _import_faultdiag(args) -> int:
    import sys
    import tempfile
    from pathlib import Path

    from ascend_doctor.kb import faultdiag, overlay
    from ascend_doctor.kb.build import overlay_files
    from ascend_doctor.kb.paths import KNOWLEDGE_DIR

    from ...services.errors import InputError

    if args.path:
        src = Path(args.path)
    else:
        found = faultdiag.find_installed()
        if found is None:
            raise InputError("no installed ascend_fd package with configuration/kg-config.json found; "
                             "give the path: ascend-doctor kb import-faultdiag PATH/kg-config.json")
        src = found
    try:
        repo = faultdiag.read_kg(src)
        others = [p for p in overlay_files() if p.name != faultdiag.OVERLAY_NAME]
        with tempfile.TemporaryDirectory(prefix="ascend-doctor-fd-") as tmp:
            text, report = faultdiag.build_overlay(repo, KNOWLEDGE_DIR, others, Path(tmp), source_label=src.name)
        target = overlay.install(text, faultdiag.OVERLAY_NAME)
    except faultdiag.FaultDiagError as exc:
        raise InputError(str(exc)) from exc
    except OSError as exc:
        raise InputError(f"cannot import {src}: {exc.strerror or exc}") from exc
    print(f"imported {report.problems} of {report.entries} FaultDiag entries from {src} into {target}: "
          f"{report.problems} problems, {report.codes} codes, {report.signatures} signatures"
          + (f" ({report.weak_signatures} from multi-line rules, weight 0.5)" if report.weak_signatures else ""))
    for what, items in (("skipped pattern", report.skipped_patterns), ("dropped entry", report.dropped_entries)):
        for item in items:
            sys.stdout.write(f"  {what}: {item}\n")
    return 0


def _docs(args) -> int:
    from pathlib import Path

    from ascend_doctor.kb import docs

    from ...services.errors import DoctorError, UsageError

    out = Path(args.output) if args.output else docs.default_output()
    if out is None:
        raise UsageError("not running from a source checkout: give --output DIR")
    try:
        pages = docs.generate()
        written, removed = docs.write(pages, out)
    except docs.DocsError as exc:
        raise DoctorError(str(exc)) from exc
    except OSError as exc:
        raise DoctorError(f"cannot write {out}: {exc.strerror or exc}") from exc
    print(f"{len(pages)} pages in {out}: {len(written)} written, {len(removed)} removed, "
          f"{len(pages) - len(written)} unchanged")
    return 0
