"""Reading a report the way a person wrote it: which problems its sentences are about.

Each problem is a small document (title, symptoms, summary, root cause, fix texts, in English and
Chinese); each sentence of a report (the issue title first, then the sentences a person wrote, then
the first error lines) is a query. A sentence's evidence for a problem is its *coverage*: the share of
the sentence's information (the IDF of its terms: rare words, identifiers, Chinese character pairs)
that the problem's document contains, counted only when at least two informative terms agree, and
scaled down when what they share is little in absolute terms (two common words).

A problem's retrieval weight grows with its best coverage and with agreement: a second sentence (or
the title and the body) that points to the same problem raises it (the matcher still scales a problem
only words point to below "likely": match.WORDS_ONLY_FACTOR); a problem only one common word links stays out. Identifiers (``HCCL_BUFFSIZE``,
``--enforce-eager``, ``/dev/shm``, ``libhccl.so``, ``aclnnMatmul``) are kept whole and never folded by
synonyms.
"""
from __future__ import annotations

import math
import re
from collections import Counter, defaultdict
from dataclasses import dataclass

from ..evidence.clean import SENTENCE_END

#: an identifier is one term, whatever it holds
IDENT = re.compile(
    r"--[a-z][a-z0-9]*(?:[-_][a-z0-9]+)+"                      # --enforce-eager, --shm-size
    r"|(?<![\w/])/(?:dev|proc|sys|etc|usr|var|tmp)(?:/[\w.\-]+)+"   # /dev/shm, /usr/local/Ascend/...
    # (lookarounds, not \b: a Chinese character is a word character, and 设置HCCL_EXEC_TIMEOUT后 and
    # 报错libatb.so找不到 must match)
    r"|(?<![A-Za-z0-9_])lib[A-Za-z0-9_\-+]+\.so(?:\.\d+)*"           # libhccl.so, libascend_hal.so
    r"|(?<![A-Za-z0-9_])(?:aclnn|aclrt|hal)[A-Z][A-Za-z0-9_]+"     # aclnnMatmul, aclrtSetDevice, halMemAlloc
    r"|(?<![A-Za-z0-9_])[A-Z][A-Z0-9]+(?:_[A-Z0-9]+)+(?![A-Za-z0-9_])"     # HCCL_BUFFSIZE, ASCEND_RT_VISIBLE_DEVICES
    r"|(?<![A-Za-z0-9_])[a-z][a-z0-9]*(?:_[a-z0-9]+)+(?![A-Za-z0-9_])")    # enforce_eager, gpu_memory_utilization
#: a sentence of a CANN message run into the next without a space ("The argument is invalid.Reason: ..."): two
#: sentences, not one dotted name ("invalid.reason" would be a rare term every problem quoting such a message shares)
GLUED_SENTENCE = re.compile(r"(?<=[a-z]{2})\.(?=(?:Reason|Solution|Possible [Cc]ause|Please|Check|The|Error|Failed)\b)")
#: a long line is cut into sentences where they end (a re-joined paragraph is several claims, not one)
LONG_SENTENCE = 160

#: a line of an environment listing ("- Rollout engine: vllm", "CANN: 8.3.RC1", "-- MindSpore version (e.g.,
#: 1.7.0.Bxxx) : MindSpore 2.3.0"): a field, not a sentence, unless it says something failed
#: ("ModuleNotFoundError: No module named 'torch_npu._C'", "链接时报错torch_npu::init_npu(...)")
FIELD_LINE = re.compile(r"^\s*(?:[-*+]{1,2}\s*)?[\w .,()/`%\-]{1,60}[:：]\s*\S+(?:\s+\S+){0,3}\s*$")
_SAYS_FAILURE = re.compile(r"error|exception|fail|fatal|abort|denied|refused|not found|no module|cannot|unable|"
                           r"报错|错误|失败|异常|不支持|无法|找不到", re.I)
#: a shell command the user ran or pasted ("python -m pip install paddlepaddle==3.0.0 -i ...", "$ docker run
#: ..."): what they did, in the words of a fix's commands, not the symptom (its identifiers still count)
_COMMAND = re.compile(
    r"^\s*(?:[$#>]\s+|\(\w[\w.-]*\)\s*)?(?:\[[^\]\n]{1,80}\][$#]\s*|[\w@.-]+:[^\s]*[$#]\s*"
    # a themed shell's prompt: 'λ master-1 /work/x {develop} ', '➜  npu git:(main) ✗ ', '❯ '
    r"|[λ➜❯»]\s+(?:[^\s$#]+\s+){0,4}?)?(?:sudo\s+)?"
    r"(?:[A-Z_][A-Z0-9_]*=\S*\s+)*"
    r"(?P<cmd>pip3?|python3?(?:\.\d+)?\s+(?:-[mc]|\S+\.py(?=\s|$))|conda|docker|podman|export|source|apt(?:-get)?|yum|dnf|git|wget|curl|"
    r"bash|sh|cd|ls|cat|chmod|chown|mkdir|rm|cp|mv|ln|tar|make|cmake|kubectl|helm|torchrun|mpirun|msrun|"
    r"npu-smi|hccn_tool|llamafactory-cli|swift|vllm\s+serve|huggingface-cli|modelscope)(?P<rest>(?:\s.*)?)$")
_ARG = re.compile(r"(?:^|\s)(?:-\S|\S*[/=]|\S+\.\S)")
_DIGITS = re.compile(r"\d+")
_CJK_CHAR = re.compile(r"[\u3400-\u9fff]")
WORD = re.compile(r"[a-z][a-z0-9]*(?:[.\-][a-z0-9]+)*|\d+[a-z][a-z0-9]*|[a-z]+\d+[a-z0-9]*")
CJK_RUN = re.compile(r"[\u3400-\u9fff]+")
#: a version, release or address (0.9.2rc1, 8.0.rc3, v0.11.0, 2.1.0.post10, 10.0.0.1), lower case: it says when or
#: where, not what failed; left whole it is no term, and its pieces ("2rc1", "post10") would be rare ones that
#: point at whichever problem happens to mention that release (versions count through the facts instead)
VERSION = re.compile(r"(?<![A-Za-z0-9_.\-])v?\d+(?:\.\d+)+(?:[.\-_]?(?:rc|alpha|beta|post|dev|b)\d*)*(?![A-Za-z0-9_.])")
#: a number of 4-6 digits standing alone (65535, 29500, 8192): a limit, a port, a size a message and a
#: problem both name; longer ones (pids, times) and parts of versions or dates of one word are not terms
NUMBER = re.compile(r"(?<![\w.:/-])\d{4,6}(?![\w.:/-])")
STOP = frozenset("""
a an the and or but if then else when while of to in on at by for with from as is are was were be been being
it its this that these those there here i we you he she they them our your my me us do does did done not no
yes can could should would will shall may might must have has had having get got use used using run running
how what why which who where after before into out over under up down again also only just than too very
any some all each every more most other such same so both few many much own new old one two three first
please help issue bug question problem error errors failed fail failure when try tried trying work works
working worked following follow log logs like see seen show shows shown find found set setting version
versions environment env model models code line file files info warning using https http www com github
issues pull npu npus ascend huawei 昇腾 project projects org
html htm shtml php aspx latest stable docs doc blob tree master main index zh-cn en-us detail document
""".split()) | frozenset("""
traceback recent call last exception raise raised raises return returns object objects attribute attributes
module modules named self args kwargs none nonetype true false site-packages packages package python python3
lib init main file line lines type value values key keys error_code
attributeerror typeerror valueerror keyerror runtimeerror importerror modulenotfounderror indexerror oserror
assertionerror notimplementederror filenotfounderror permissionerror zerodivisionerror nameerror
collect2 returned exit status exited errored subprocess command make
reason solution possible cause causes
""".split())
#: the words of generic framework messages, in every PyTorch shape error and Python argument error ("The
#: size of tensor a (64) must match the size of tensor b (65) at non-singleton dimension 0"): rare in the
#: knowledge only because few problems quote such a message, they say little about which problem it is
GENERIC = frozenset("""
tensor tensors size sizes match matches matched mismatch dimension dimensions non-singleton singleton expanded
existing shape shapes expected expects got argument arguments positional keyword invalid input inputs output
outputs must index range element elements function method instance number given takes unexpected
unknown application
""".split())
GENERIC_FACTOR = 0.3
#: (above, second set) the words of any Python traceback and of a build's or a command's last line
#: ("collect2: error: ld returned 1 exit status", "make: *** Error 1", "Command errored out with exit
#: status 1"): they say that something failed, not what
CJK_STOP = frozenset("""问题 报错 错误 失败 异常 出现 使用 运行 请问 如何 怎么 为什么 一个 这个 没有 可以 时候 的时 候报 执行 进行 以下 如下 进入
一段 段时 时间 间后 之后 以后 后报 模型 调用 服务 部署 推理 训练 启动 环境 版本 安装 配置 设置 参数 正常 发现 目前 现在 已经 但是 然后
所以 因为 如果 需要 是否 什么 怎样 一下 这样 那么 我们 你们 他们 自己 还是 或者 以及 其中 同时 情况 方式 方法 系统 机器 节点 任务 程序
""".split())
#: one Chinese character alone between punctuation or latin words: function words say nothing
CJK_SINGLE_STOP = frozenset("的了到在是和与或及把被给让从向对为也都就还又再很太更最啊吗呢吧么着过个这那有无没不会能要用时后前中上下里外等即但而且")
#: a pair of Chinese characters says less than a whole word: it counts this much of its IDF
CJK_FACTOR = 0.5

MIN_TERMS = 2          # informative terms a sentence and a problem must share
MIN_COVERAGE = 0.3     # share of a sentence's information the problem explains
SENTENCE_MAX = 0.45    # weight of the best sentence alone (the most words can do without a log line)
AGREEMENT_MAX = 0.65   # with agreement: several sentences, or the title and the body
TOP_K = 8              # problems a report's words may support
WHOLE_MAX = 0.3        # the whole report's words, when no single sentence is specific enough
#: how much a term counts when a problem has it only in its summary / root cause, or only in its fixes' texts and
#: commands (BM25F's idea: where a word stands in a document says how much it is about it)
ABOUT_FIELD = 0.8
FIX_FIELD = 0.5
#: the fields below the title and symptoms, by the mark the index writes after a problem's place
FIELD_WEIGHT = {"a": ABOUT_FIELD, "f": FIX_FIELD}
RARE_POSTINGS = 5      # a term at most this many problems use is specific
RARE_CJK_PAIR = 3      # a Chinese character pair at most this many problems use ...
RARE_CJK_PAIR_FACTOR = 0.3   # ... counts this much of its IDF in a sentence's information to explain
FULL_INFO = 12.0       # shared information (sum of IDF) that counts in full: about two rare terms
#: a Chinese character pair is no word when, in the knowledge's own Chinese, it is rare next to its characters:
#: fewer than this share of the rarer character's uses (境检 of 环境检查: 2 of 438; 检查: 387 of 438) ...
PAIR_COHESION = 0.05
#: ... and no more often than this many times chance (过大 "too large", of two common characters, is a word)
PAIR_LIFT = 10.0
#: the share of its IDF such a pair counts: it says a sentence and a problem share a run of characters, little more
STRADDLE_FACTOR = 0.3


@dataclass
class Hit:
    weight: float
    sentence: str
    terms: list[str]
    sentences: int


class Retriever:
    def __init__(self, problems, norm, literals: dict[str, list[str]] | None = None,
                 catch_all: frozenset[str] = frozenset(), index: dict | None = None) -> None:
        """``catch_all``: the catch-all codes of the knowledge (ERR99999, EZ9999, 561000), lower case: like the
        words of generic messages, they say that something failed, not which problem it is. ``index``: what
        ``index()`` gave for the same knowledge (from the cache, cached()): the problems are not read again."""
        self.generic = GENERIC | {c.lower() for c in catch_all}
        # synonyms map single words (卡住 / 卡死 / stuck -> hang) token by token: a regex over the whole
        # text, as search does, would cost half a second for every diagnosis
        self.canon = {w: c for w, c in norm.canonical.items() if " " not in w}
        self._query_terms: dict[str, list[str]] = {}
        if index is not None:
            ids = index["ids"]
            self.n_docs: int = len(ids)
            self.idf: dict[str, float] = index["idf"]
            self.length_factor: dict[str, float] = dict(zip(ids, index["length_factor"]))
            # the problems of a term are spelled out when a report's sentence first holds it (a report holds a
            # few hundred of the ~40,000 terms: spelling out all of them cost ~0.15 s a run)
            self.field_of: dict[str, dict[str, str]] = {}
            self.postings: dict[str, list[str]] = _Postings(ids, index["postings"], self.field_of)
            return
        texts: dict[str, str] = {}
        docs: dict[str, set[str]] = {}
        # term -> {problem: "a" or "f"} where the problem has the term only in its summary / cause or its fixes
        self.field_of: dict[str, dict[str, str]] = {}
        for p in problems:
            # what the problem looks like (title, symptoms, codes, the messages its signatures key on: a report
            # quoting another version's wording still shares them) ...
            looks = [p.title.get("en", ""), p.title.get("zh", "")]
            looks += [s for lang in ("en", "zh") for s in p.symptoms.get(lang, [])]
            looks.append(" ".join(p.codes))
            looks += list((literals or {}).get(p.id, ()))
            # ... what it is ...
            about = [p.summary.get("en", ""), p.summary.get("zh", ""), p.root_cause.get("en", ""),
                     p.root_cause.get("zh", "")]
            # ... and what to do about it: a report shares the words of a fix's commands and steps (its own setup,
            # the paths and tools it names) without having that problem
            todo = []
            for fx in p.fixes:
                todo += [fx.get("summary", {}).get("en", ""), fx.get("summary", {}).get("zh", "")]
                for st in fx.get("steps", []):
                    todo += [st.get("en", ""), st.get("command") or ""]
            field: dict[str, str] = {}          # each term's best field ("": the title and symptoms)
            for parts, mark in ((todo, "f"), (about, "a"), (looks, "")):
                for t in self.terms("\n".join(t for t in parts if t)):
                    field[t] = mark
            texts[p.id] = "\n".join(t for t in looks + about + todo if t)
            docs[p.id] = set(field)
            for t, mark in field.items():
                if mark:
                    self.field_of.setdefault(t, {})[p.id] = mark
        straddles = _straddling_pairs(texts.values())       # counted at STRADDLE_FACTOR of their IDF
        self.n_docs = len(docs)
        df: Counter = Counter()
        for doc in docs.values():
            df.update(doc)
        n = max(len(docs), 1)
        self.idf = {t: math.log(1 + (n - d + 0.5) / (d + 0.5))
                       * (CJK_FACTOR * (STRADDLE_FACTOR if t in straddles else 1.0) if CJK_RUN.match(t)
                          else GENERIC_FACTOR if t in self.generic else 1.0)
                    for t, d in df.items()}
        # a long document shares words with anything: its coverage counts a little less (BM25's idea)
        avg = sum(len(d) for d in docs.values()) / n
        self.length_factor = {pid: min(1.0, (avg / max(len(d), 1)) ** 0.25) for pid, d in docs.items()}
        self.postings = {}
        for pid, doc in docs.items():
            for t in doc:
                self.postings.setdefault(t, []).append(pid)

    def index(self) -> dict:
        """What a Retriever for the same knowledge is made from again (JSON; the problems by their place in
        ``ids``, which keeps their order: a third of the size and of the time to read)."""
        ids = list(self.length_factor)
        at = {pid: i for i, pid in enumerate(ids)}
        return {"ids": ids, "idf": self.idf, "length_factor": list(self.length_factor.values()),
                # each term's problems as one string of their places: ~40,000 short strings decode in half the
                # time of as many lists of numbers, and a report reads the places of its own terms only; a place
                # ends in "a" or "f" where the problem has the term only in its summary / root cause or its fixes
                "postings": {t: " ".join([f"{at[pid]}{self.field_of.get(t, {}).get(pid, '')}" for pid in pids])
                             for t, pids in self.postings.items()}}

    # -- terms ---------------------------------------------------------------------------------
    def terms(self, text: str) -> list[str]:
        """Identifiers whole (before synonyms, which never apply inside them), then the words and
        Chinese character pairs of the normalised rest."""
        text = GLUED_SENTENCE.sub(". ", text)
        out = [m.group(0).lower() for m in IDENT.finditer(text)]
        low = VERSION.sub(" ", IDENT.sub(" ", text).lower())
        canon = self.canon
        out += [canon.get(w, w) for w in WORD.findall(low) if len(w) > 2 and w not in STOP]
        out += NUMBER.findall(low)
        for run in CJK_RUN.findall(low):
            for i in range(len(run) - 1):
                g = run[i:i + 2]
                # a pair that straddles two common words (出现|异常 gives 现异) is rare only because it is no word
                if g not in CJK_STOP and not (run[i - 1:i + 1] in CJK_STOP and run[i + 1:i + 3] in CJK_STOP):
                    out.append(canon.get(g, g))
            if len(run) == 1 and run not in CJK_SINGLE_STOP:
                out.append(run)
        return out

    # -- queries -------------------------------------------------------------------------------
    def query_terms(self, text: str) -> list[str]:
        """``terms`` of a report's sentence, computed once per sentence: ``retrieve`` and ``whole`` read the
        same sentences (kept for the life of the retriever, up to a bound)."""
        found = self._query_terms.get(text)
        if found is None:
            if len(self._query_terms) > 20000:
                self._query_terms.clear()
            found = self._query_terms[text] = self.terms(text)
        return found

    def sentence_scores(self, sentence: str) -> dict[str, tuple[float, list[str]]]:
        """pid -> (coverage, shared terms) for one sentence."""
        terms = {t for t in self.query_terms(sentence) if t in self.idf}
        if len(terms) < MIN_TERMS:
            return {}
        total = sum(self._weight_in_query(t) for t in terms)
        shared: dict[str, list[str]] = defaultdict(list)
        for t in terms:
            postings = self.postings[t]
            if len(postings) > self.n_docs * 0.25:
                continue                     # a word a quarter of the problems use tells nothing
            for pid in postings:
                shared[pid].append(t)
        out = {}
        for pid, ts in shared.items():
            if len(ts) < MIN_TERMS or self.generic.issuperset(ts):
                continue                     # two terms must agree, and not only a generic message's words
            info = sum(self.idf[t] * self._field(t, pid) for t in ts)
            cov = info / total
            if cov >= MIN_COVERAGE:
                # a short sentence of common words ("on the head node") covers itself easily: what it
                # shares must also carry enough information in absolute terms
                out[pid] = (cov * min(1.0, info / FULL_INFO) * self.length_factor[pid],
                            sorted(ts, key=lambda t: (-self.idf[t], t)))
        return out

    def _field(self, t: str, pid: str) -> float:
        """How much a term counts for a problem by where the problem's text has it (ABOUT_FIELD, FIX_FIELD)."""
        marks = self.field_of.get(t)
        return FIELD_WEIGHT[marks[pid]] if marks and pid in marks else 1.0

    def _weight_in_query(self, t: str) -> float:
        """How much of a sentence's information a term is. Chinese is cut into character pairs, and a pair
        that spans two words ("机器下训练" gives 器下, 下训) is rare in the knowledge only because it is no
        word: such rare pairs count little in what a problem must explain (shared, they count in full)."""
        if len(self.postings[t]) <= RARE_CJK_PAIR and CJK_RUN.match(t):
            return self.idf[t] * RARE_CJK_PAIR_FACTOR
        return self.idf[t]

    def retrieve(self, title: str | None, sentences: list[str]) -> dict[str, Hit]:
        """pid -> Hit for the problems the report's words point to (at most TOP_K)."""
        per: dict[str, list[tuple[float, str, list[str], bool]]] = defaultdict(list)
        queries = [(piece, is_title) for text, is_title in
                   (([(title, True)] if title else []) + [(s, False) for s in sentences if s != title])
                   for piece in _sentences(text)]
        seen: list[str] = []
        for text, is_title in queries:
            # the same message printed again (another pid, rank or time) agrees with itself once
            key = " ".join(_DIGITS.sub("#", text.lower()).split())
            if any(key in k for k in seen):
                continue                 # a line that is both prose and an error line (or a piece of a sentence
                                         # already read, a wrapped line's part) agrees with itself once
            if not is_title and (is_field_line(text) or is_run_or_progress(text)):
                continue                 # the versions a template lists, the commands run: not the cause
            seen.append(key)
            for pid, (cov, ts) in self.sentence_scores(text).items():
                per[pid].append((cov, text, ts, is_title))
        hits: dict[str, Hit] = {}
        for pid, found in per.items():
            found.sort(key=lambda x: -x[0])
            best_cov, best_text, best_terms, _ = found[0]
            title_agrees = any(is_title for *_x, is_title in found)
            agreeing = len(found) + (1 if title_agrees and len(found) > 1 else 0)
            base = SENTENCE_MAX * min(1.0, best_cov)
            extra = (AGREEMENT_MAX - SENTENCE_MAX) * (1 - 0.5 ** (agreeing - 1))
            hits[pid] = Hit(round(base + extra * min(1.0, best_cov / 0.6), 4), best_text, best_terms[:6], len(found))
        best = sorted(hits.items(), key=lambda kv: -kv[1].weight)[:TOP_K]
        return dict(best)

    def whole(self, title: str | None, sentences: list[str], top: int = 3) -> dict[str, Hit]:
        """pid -> Hit for the problems the report's words point to taken all together: for short reports
        ("训练时报找不到 nccl") whose single sentences share too little with any problem. Only problems that
        share a specific term (one at most RARE_POSTINGS problems use), weight at most WHOLE_MAX."""
        terms: set[str] = set()
        for text in ([title] if title else []) + [s for s in sentences if not is_run_or_progress(s)]:
            terms.update(t for t in self.query_terms(text) if t in self.idf)
        terms = {t for t in terms if len(self.postings[t]) <= self.n_docs * 0.25}
        if not terms:
            return {}
        total = sum(self._weight_in_query(t) for t in terms)
        shared: dict[str, list[str]] = defaultdict(list)
        for t in terms:
            for pid in self.postings[t]:
                shared[pid].append(t)
        scored = []
        for pid, ts in shared.items():
            if not any(len(self.postings[t]) <= RARE_POSTINGS and t not in self.generic for t in ts):
                continue
            info = sum(self.idf[t] * self._field(t, pid) for t in ts)
            scored.append((info * self.length_factor[pid], info, pid, ts))
        if not scored:
            return {}
        scored.sort(key=lambda x: -x[0])
        best = scored[0][0]
        out = {}
        for score, info, pid, ts in scored[:top]:
            if score < 0.6 * best:
                break
            w = WHOLE_MAX * min(1.0, info / FULL_INFO) * min(1.0, info / max(total, 1e-9) * 2) * score / best
            out[pid] = Hit(round(w, 4), "", sorted(ts, key=lambda t: (-self.idf[t], t))[:6], 0)
        return out


def _straddling_pairs(texts) -> set[str]:
    """The Chinese character pairs of ``texts`` that are no word but the end of one and the start of the next
    (境检 of 环境检查, 动容 of 启动容器, 复了 of 修复了), told apart by how the texts use them: rarely beside
    their own characters (PAIR_COHESION) and not much more often than chance (PAIR_LIFT). Such a pair is rare in
    the knowledge only because it is no word: at full weight it would count as a rare, telling term."""
    chars: Counter = Counter()
    pairs: Counter = Counter()
    for text in texts:
        for run in CJK_RUN.findall(text):
            chars.update(run)
            pairs.update(run[i:i + 2] for i in range(len(run) - 1))
    total = max(sum(chars.values()), 1)
    return {g for g, n in pairs.items()
            if n < PAIR_COHESION * min(chars[g[0]], chars[g[1]]) and n * total < PAIR_LIFT * chars[g[0]] * chars[g[1]]}


class _Postings(dict):
    """term -> the ids of the problems that use it, read from the index's places on first use."""

    def __init__(self, ids: list[str], places: dict[str, str], field_of: dict[str, dict[str, str]]) -> None:
        super().__init__()
        self._ids = ids
        self._places = places
        self._field_of = field_of      # filled as terms are read: Retriever.field_of

    def __missing__(self, term: str) -> list[str]:
        pids = []
        marks = {}
        for i in self._places[term].split():
            if i[-1] in FIELD_WEIGHT:
                pid = self._ids[int(i[:-1])]
                marks[pid] = i[-1]
            else:
                pid = self._ids[int(i)]
            pids.append(pid)
        if marks:
            self._field_of[term] = marks
        self[term] = pids
        return pids

    def items(self):
        return ((t, self[t]) for t in self._places)


def is_command(line: str) -> bool:
    """A shell command line: a command word (after a prompt, sudo, VAR=value), then arguments that look like
    a command's (an option, a path, a value) and no Chinese: "make sure the driver is installed" and
    "pip install 后报错" are sentences."""
    m = _COMMAND.match(line)
    if not m or _CJK_CHAR.search(line):
        return False
    # 'python -c "..."' and 'python train.py' are commands whatever their arguments look like
    return m.group("cmd") in ("npu-smi", "hccn_tool") or m.group("cmd").startswith("python") \
        or bool(_ARG.search(m.group("rest")))


#: pip's own progress lines ("Installing build dependencies ... done", "Requirement already satisfied: ...",
#: "Collecting numpy==1.26.4"): what the installer did on its way, in the words of every install problem's fix
_PIP_PROGRESS = re.compile(
    r"^\s*(?:Collecting|Downloading|Installing (?:build dependencies|backend dependencies|collected packages)|"
    r"Requirement already satisfied|Building wheels? for|Preparing (?:editable |wheel )?metadata|"
    r"Getting requirements to build|Checking if build backend supports|Obtaining|Looking in indexes|"
    r"Successfully (?:installed|built|uninstalled)|Attempting uninstall|Found existing installation|Uninstalling|"
    r"Using cached|Created wheel for|Stored in directory|Processing \S)")


def is_tool_progress(line: str) -> bool:
    """A line of pip's progress that says nothing failed: not what the report is about."""
    return bool(_PIP_PROGRESS.match(line)) and not _SAYS_FAILURE.search(line)


def is_run_or_progress(line: str) -> bool:
    """What the user ran (a shell command) or pip printed on its way: not what the report is about."""
    return is_command(line) or is_tool_progress(line)


def is_field_line(line: str) -> bool:
    """A field of an environment listing or issue form ("CANN: 8.3.RC1"), not a line that says what failed."""
    return bool(FIELD_LINE.match(line)) and not _SAYS_FAILURE.search(line)


def _sentences(text: str) -> list[str]:
    """A line as the sentences it holds: long lines (a paragraph re-joined after pasting) are cut at
    sentence ends; a short line stays whole."""
    if len(text) <= LONG_SENTENCE:
        return [text]
    return [p for p in (s.strip() for s in SENTENCE_END.split(text)) if p] or [text]


#: bump when the documents' terms change shape (tokeniser, weights): old caches are then ignored
CACHE_VERSION = 22


def cached(kb, problems, norm) -> Retriever:
    """A Retriever for ``kb``, its documents read from beside the database when they were made from the
    same knowledge (index_cache.py)."""
    from ascend_doctor.kb.index_cache import cached_index

    built: list[Retriever] = []

    def build() -> dict:
        # the catch-all codes are kept with the index: reading every code costs ~30 ms a run
        catch_all = sorted(c.code for c in kb.all_codes() if c.generic and not c.is_pattern)
        literals: dict[str, list[str]] = defaultdict(list)
        for sig in kb.signatures():
            literals[sig.problem_id].append(sig.literal)
        built.append(Retriever(problems, norm, literals=literals, catch_all=frozenset(catch_all)))
        return {"index": built[0].index(), "catch_all": catch_all}

    index = cached_index(kb, "retrieval", CACHE_VERSION, build,
                         lambda x: isinstance(x, dict) and isinstance(x.get("index"), dict)
                         and isinstance(x.get("catch_all"), list))
    return built[0] if built else Retriever([], norm, catch_all=frozenset(index["catch_all"]), index=index["index"])
