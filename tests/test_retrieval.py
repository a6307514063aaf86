"""Reading a report's words (matcher/retrieval.py) on a small knowledge of its own: what a user relies on
is that the problem their sentences describe is found, and that a word many problems share is not."""
from __future__ import annotations

from types import SimpleNamespace

import pytest

from ascend_doctor.diagnose.matcher.retrieval import SENTENCE_MAX, Retriever


def _problem(pid: str, title_en: str, title_zh: str = "", symptoms=(), root: str = "") -> SimpleNamespace:
    return SimpleNamespace(id=pid, title={"en": title_en, "zh": title_zh},
                           symptoms={"en": [s for s in symptoms if s.isascii()],
                                     "zh": [s for s in symptoms if not s.isascii()]},
                           summary={"en": "", "zh": ""}, root_cause={"en": root, "zh": ""}, fixes=[], codes=[])


FILLER = [_problem(f"filler-{i}", f"unrelated topic {w} about {v}", symptoms=[f"{w} {v} stops"])
          for i, (w, v) in enumerate((a, b) for a in ("scheduler", "tokenizer", "checkpoint", "profiler",
                                                      "dataloader", "optimizer", "compiler", "container")
                                     for b in ("quota", "latency", "throughput", "format", "cache"))]


@pytest.fixture(scope="module")
def retriever() -> Retriever:
    problems = FILLER + [
        _problem("nccl-on-npu", "Training initialises the NCCL backend on an Ascend NPU", "NPU 上训练初始化 NCCL 后端报错",
                 symptoms=["训练时找不到 nccl", "Distributed package doesn't have NCCL built in"],
                 root="The script asks torch for the nccl backend; on NPU the backend is hccl."),
        _problem("shm-too-small", "Container /dev/shm too small for the dataloader workers", "容器 /dev/shm 太小",
                 symptoms=["bus error in dataloader worker", "共享内存不足"], root="docker gives 64 MB of /dev/shm; pass --shm-size."),
        _problem("hccl-buffsize", "HCCL_BUFFSIZE too small for the all-to-all", "HCCL_BUFFSIZE 设置过小",
                 symptoms=["all-to-all fails with a buffer size error"], root="HCCL_BUFFSIZE below what MoE dispatch needs."),
        _problem("host-oom-killer", "The host's OOM killer ends the training process", "主机 OOM killer 杀掉训练进程",
                 symptoms=["worker exited with exit status 137", "Killed"],
                 root="The kernel OOM killer stops the process, whose launcher then returned exit status 137."),
        _problem("query-start-loc-crash", "Crash at the query_start_loc padding on the second request",
                 symptoms=["The expanded size of the tensor (15) must match the existing size (19) at non-singleton dimension 0"],
                 root="query_start_loc is padded for the graph and then copied back with the wrong size."),
    ]
    # Chinese titles whose character pairs the report's sentence also holds across its word boundaries
    problems += [_problem(f"zh-{i}", f"other zh topic {i}", zh) for i, zh in
                 enumerate(("以下训练参数无效", "错误信息不完整", "日志报无效句柄", "相关错误码说明", "会报告进度",
                                "机器下线后重连", "方法找不到", "等相关组件", "结合使用", "加载时出现异常的权重"))]
    return Retriever(problems, SimpleNamespace(canonical={}))


def test_a_chinese_sentence_finds_its_problem_despite_pairs_that_span_words(retriever):
    # 机器下训练 yields the pairs 器下 / 下训, rare only because they are no word: they must not drown the
    # words that matter (nccl, 训练, 找不到)
    hits = retriever.retrieve(None, ["NPU机器下训练，使用torch-npu结合torch会报无法找到nccl、ccl等相关错误信息"])
    assert next(iter(hits)) == "nccl-on-npu"


def test_identifiers_are_terms_whole(retriever):
    assert "/dev/shm" in retriever.terms("容器里 /dev/shm 只有 64M")
    assert "hccl_buffsize" in retriever.terms("设置HCCL_BUFFSIZE后仍然报错")
    assert "--shm-size" in retriever.terms("docker run --shm-size 16g")
    hits = retriever.retrieve(None, ["设置HCCL_BUFFSIZE=50后 all-to-all 还是失败"])
    assert next(iter(hits)) == "hccl-buffsize"


def test_identifiers_are_found_between_chinese_characters(retriever):
    # a Chinese character is a word character: 报错libatb.so找不到 must still name the library (the matcher
    # links the identifiers a report names to the problems that name them, IDENT_WEIGHT)
    from ascend_doctor.diagnose.matcher.retrieval import IDENT

    def idents(text):
        return [m.group(0) for m in IDENT.finditer(text)]
    assert idents("如果不安装会导致报错libatb.so找不到") == ["libatb.so"]
    assert idents("调用aclnnMatmul失败") == ["aclnnMatmul"]
    assert idents("驱动接口halMemAlloc返回错误") == ["halMemAlloc"]
    assert idents("mylib.so") == []


def test_an_error_line_is_no_field_of_an_environment_listing(retriever):
    # "CANN: 8.3.RC1" is a field and no evidence; "ImportError: ... not found" says what failed
    from ascend_doctor.diagnose.matcher.retrieval import is_field_line

    assert is_field_line("CANN: 8.3.RC1")
    assert is_field_line("-- MindSpore version (e.g., 1.7.0.Bxxx) : MindSpore 2.3.0")
    assert not is_field_line("ModuleNotFoundError: No module named 'torch_npu._C'")
    assert not is_field_line("链接时报错torch_npu::init_npu(std::string const&)")
    hits = retriever.retrieve(None, ["RuntimeError: NCCL backend not found"])
    assert "nccl-on-npu" in hits


def test_one_shared_common_word_links_nothing(retriever):
    assert retriever.retrieve(None, ["the scheduler was slow today"]) == {} or \
        all(h.weight < SENTENCE_MAX for h in retriever.retrieve(None, ["the scheduler was slow today"]).values())
    assert retriever.retrieve(None, ["训练"]) == {}


def test_saying_only_that_something_went_wrong_points_to_nothing(retriever):
    # "出现异常" ("an exception occurred") is two common words; the pair across them (现异) is no word, and a
    # problem whose text happens to hold the same four characters is not what the report is about
    assert "现异" not in retriever.terms("出现异常")
    assert retriever.retrieve(None, ["出现异常"]) == {}
    assert "现异" in retriever.terms("发现异构")       # only a pair between two common words is dropped


def test_title_and_body_agreeing_weigh_more_than_one_sentence(retriever):
    one = retriever.retrieve(None, ["bus error in the dataloader worker inside docker"])["shm-too-small"].weight
    both = retriever.retrieve("[Bug]: dataloader bus error, /dev/shm is 64M",
                              ["bus error in the dataloader worker inside docker"])["shm-too-small"].weight
    assert both > one
    assert one <= SENTENCE_MAX


def test_the_last_line_of_a_failed_build_or_command_is_no_evidence(retriever):
    """It says that something failed, never what: its words must not point at a problem that happens to
    mention an exit status."""
    for line in ("collect2: error: ld returned 1 exit status", "make: *** [Makefile:160: all] Error 2",
                 "ERROR: Command errored out with exit status 1"):
        assert retriever.retrieve(None, [line]) == {}, line


def test_a_generic_framework_message_is_not_another_problems_message(retriever):
    """Every PyTorch shape error says "size", "tensor", "match", "non-singleton dimension": sharing those words
    with a problem that quotes another shape error is no evidence for it."""
    assert "query-start-loc-crash" not in retriever.retrieve(
        None, ["RuntimeError: The size of tensor a (64) must match the size of tensor b (65) at non-singleton dimension 0"])
    # the problem's own words still find it
    assert "query-start-loc-crash" in retriever.retrieve(None, ["crash at query_start_loc padding on the second request"])


def test_a_pasted_command_is_what_the_user_ran_not_the_symptom(retriever):
    from ascend_doctor.diagnose.matcher.retrieval import is_command

    for cmd in ("python -m pip install paddlepaddle==3.0.0 -i https://www.paddlepaddle.org.cn/packages/stable/cpu/",
                "(vllm) [root@51442de2b6e3 LLMs]# npu-smi info", "$ docker run -it --shm-size 16g image:tag",
                "ASCEND_RT_VISIBLE_DEVICES=0 vllm serve /models/qwen --enforce-eager",
                "source /usr/local/Ascend/ascend-toolkit/set_env.sh",
                'python -c "import torch_npu"', "python3 train.py", "python3.10 tools/infer.py --config a.yaml",
                # a themed shell's prompt before the command
                'λ master-1 /work/PaddleCustomDevice/backends/npu {develop} python -c "import paddle_custom_device"',
                "➜  npu git:(main) ✗ python3 train.py --config a.yaml"):
        assert is_command(cmd), cmd
    for sentence in ("make sure the driver is installed", "pip install 后报错 找不到 torch_npu",
                     "Docker container cannot see the NPU", "cat the log file to see what failed",
                     "python is broken on this machine", "I ran python train.py and it failed",
                     "λ is the wavelength of the light"):
        assert not is_command(sentence), sentence
    # the words of a command say nothing about which problem it is (a fix's command has the same words)
    assert "shm-too-small" not in retriever.retrieve(None, ["docker run -it --shm-size 64m --name dataloader image"])


def test_a_links_page_words_are_no_terms(retriever):
    """A documentation link in a report names a page: "latest", "html", "docs" must not tie it to a problem
    whose fix links another page of the same site."""
    terms = retriever.terms("[Doc]: https://docs.vllm.ai/projects/ascend/en/latest/quick_start.html")
    assert not {"html", "latest", "docs", "index"} & set(terms)


def test_a_catch_all_code_and_its_message_point_to_no_problem():
    """ERR99999 UNKNOWN application exception says that something failed, not what: a problem that quotes it
    (because the failure it describes is wrapped in it) is not found from those words alone, and a 4-6 digit
    number a message and a problem both name (65535) is a term."""
    from ascend_doctor.diagnose.matcher.retrieval import NUMBER

    norm = SimpleNamespace(canonical={})
    wrapped = _problem("download-wrapped", "Model download fails behind a proxy",
                       symptoms=["ERR99999 UNKNOWN application exception while downloading the model"],
                       root="torch_npu wraps the network error in ERR99999 UNKNOWN application exception.")
    r = Retriever(FILLER + [wrapped], norm, catch_all=frozenset({"ERR99999"}))
    assert "download-wrapped" not in r.sentence_scores("RuntimeError: ERR99999 UNKNOWN application exception")
    assert "download-wrapped" in r.sentence_scores("ERR99999 while downloading the model behind a proxy")
    assert NUMBER.findall("value 511744 for parameter coreDim is invalid, at most 65535; v0.9.2 on 2025-08-20") == \
        ["511744", "65535"]


def test_a_version_is_no_term_and_its_pieces_are_none(retriever):
    """'vllm-ascend 0.9.2rc1' names a release, not a failure: neither the version nor a piece of it ('2rc1', a
    rare token some unrelated problem happens to hold) may point at a problem; the words around it still do."""
    terms = retriever.terms("使用v0.11.0rc1版本的镜像, vllm-ascend 0.9.2rc1, CANN 8.0.RC3, torch_npu 2.1.0.post10 on 10.0.0.1")
    assert "vllm-ascend" in terms and "cann" in terms and "torch_npu" in terms and "镜像" in terms
    assert not {t for t in terms if any(c.isdigit() for c in t)}, terms
    assert retriever.terms("python3.10 and cuda12.1 on 910b") == ["python3.10", "cuda12.1", "910b"]


def test_a_piece_of_a_sentence_already_read_does_not_agree_with_it(retriever):
    """A wrapped paste makes one sentence a prose line and a piece of it an error line: the piece says nothing the
    sentence did not, so it is no second sentence agreeing (which would raise the weight)."""
    sentence = "bus error in the dataloader worker inside docker, the job stops"
    once = retriever.retrieve(None, [sentence])["shm-too-small"]
    twice = retriever.retrieve(None, [sentence, "bus error in the dataloader worker inside docker,"])["shm-too-small"]
    assert once.sentences == twice.sentences == 1 and once.weight == twice.weight


def test_words_a_problem_holds_only_in_its_fixes_count_less_than_its_symptoms():
    """A report names its own setup (paths, tools, the build it ran); a problem whose fix commands use the same
    words is not what the report describes as much as a problem whose symptoms say them."""
    words = "bash tools/compile.sh stops in backends npu"
    in_fix = _problem("plugin-build-fails", "Custom device plug-in trouble")
    in_fix.fixes = [{"summary": {"en": "", "zh": ""}, "steps": [{"en": "", "command": words}]}]
    in_symptoms = _problem("compile-script-npu-backend", "Custom device plug-in trouble", symptoms=[words])
    r = Retriever(FILLER + [in_fix, in_symptoms], SimpleNamespace(canonical={}))
    scores = r.sentence_scores("compile.sh stops in backends npu")
    assert scores["compile-script-npu-backend"][0] > scores.get("plugin-build-fails", (0.0,))[0]
    # and the same order once the index is written and read back (the weights travel in the postings)
    again = Retriever([], SimpleNamespace(canonical={}), index=r.index())
    again_scores = again.sentence_scores("compile.sh stops in backends npu")
    assert {pid: round(s[0], 6) for pid, s in again_scores.items()} == {pid: round(s[0], 6) for pid, s in scores.items()}


def test_the_same_message_printed_again_agrees_with_itself_once(retriever):
    """Two ranks (or two restarts) print the same line with other pids and times: one sentence, not two that agree."""
    line = "[PID: {}] 2026-06-05-08:18:{}.244 all-to-all fails with a buffer size error"
    once = retriever.retrieve(None, [line.format(23942, 18)])["hccl-buffsize"]
    twice = retriever.retrieve(None, [line.format(23942, 18), line.format(23943, 19)])["hccl-buffsize"]
    assert twice.sentences == once.sentences == 1 and twice.weight == once.weight


def test_pip_progress_lines_are_not_what_the_report_is_about(retriever):
    """'Installing build dependencies ... done' is pip on its way, not a symptom; pip's error lines still are."""
    from ascend_doctor.diagnose.matcher.retrieval import is_tool_progress

    assert is_tool_progress("  Installing build dependencies ... done")
    assert is_tool_progress("Requirement already satisfied: numpy in ./lib/python3.10/site-packages (1.26.4)")
    assert not is_tool_progress("  Installing build dependencies ... error")
    assert not is_tool_progress("ERROR: Could not find a version that satisfies the requirement torch-npu==2.5.1")
    assert retriever.retrieve(None, ["  Installing build dependencies ... done",
                                     "Collecting dataloader worker quota cache"]) == {}
