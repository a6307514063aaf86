"""Matcher: signatures, codes, symptoms and facts against the shipped knowledge base."""
from __future__ import annotations

import pytest

from ascend_doctor.diagnose.services.diagnosis import diagnose
from ascend_doctor.kb.language.facts import Fact, FactSet


@pytest.fixture(scope="module")
def matcher():
    """The knowledge base every diagnosis here runs against."""
    from ascend_doctor.kb.query import KnowledgeBase

    kb = KnowledgeBase()
    yield kb
    kb.close()


def run(kb, text, facts=()):
    machine = None
    if facts:
        machine = FactSet()
        for f in facts:
            machine.add(f)
    return diagnose(kb, text=text, facts=machine)


def test_real_cause_above_the_final_exception(matcher):
    text = """RuntimeError: [ERROR] HCCL error in: torch_npu/csrc/distributed/ProcessGroupHCCL.cpp:64
[ERROR] 2024-05-21-11:57:54 (PID:927000, Device:3, RankID:3) ERR02200 DIST call hccl api failed.
EJ0001: 2024-05-21-11:57:54.167.645 Failed to initialize the HCCP process. Reason: Maybe the last training process is running.
        Solution: Wait for 10s after killing the last training process and try again.
Traceback (most recent call last):
RuntimeError: [ERROR] HCCL error in: torch_npu/csrc/distributed/ProcessGroupHCCL.cpp:64
"""
    d = run(matcher, text)
    assert d.findings[0].id == "hccp-previous-process-running"
    assert d.findings[0].score >= 0.5
    assert "EJ0001" in d.decisive.text
    assert any("Solution" in ln.text for ln in d.causes)
    assert "EJ0001" in [c.code for c in d.codes]


def test_library_not_found_under_failed_to_infer_device(matcher):
    text = """RuntimeError: Failed to infer device type
ImportError: libhccl.so: cannot open shared object file: No such file or directory"""
    assert run(matcher, text).findings[0].id == "cann-env-not-sourced"


def test_generic_code_told_apart_by_other_evidence(matcher):
    opp = run(matcher, """NPU function error: c10_npu::SetDevice(device_id_), error code is 507033
E30006: 2025-11-19-11:14:58.516.606 Failed to verify the OPP
        tsd client wait response fail, hostpid:1944202, device response code[1]. unknown device error.""")
    dp = run(matcher, """(EngineCore_1 pid=1) (VllmWorker rank=0 pid=2) ERROR 07-01 08:38:50 [multiproc_executor.py:492] RuntimeError: Initialize:torch_npu/csrc/core/npu/sys_ctrl/npu_sys_ctrl.cpp:146 NPU function error: c10_npu::SetDevice(device_id_), error code is 507033
[ERROR] 2025-07-01-08:38:50 (PID:114020, Device:-1, RankID:1) ERR00100 PTA call acl api failed""")
    assert opp.findings[0].id == "opp-mismatch-device-setup"
    assert dp.findings[0].id == "vllm-dp-device-setup-failed"


def test_generic_code_alone_is_not_a_likely_cause(matcher):
    d = run(matcher, "EZ9999: Inner Error!")
    assert d.findings, "EZ9999 links known problems"
    assert all(f.score < 0.5 for f in d.findings)
    assert d.suggestion


def test_environment_rules_out_a_cause(matcher):
    """libascend_hal.so missing means 'driver not mounted' only in a container: on a host it is ruled out."""
    text = "ImportError: libascend_hal.so: cannot open shared object file: No such file or directory"
    base = run(matcher, text, [Fact("container.kind", "docker")])
    ruled = run(matcher, text, [Fact("container.kind", "none")])
    b = {f.id: f for f in base.findings}
    r = {f.id: f for f in ruled.findings}
    assert "container-driver-not-mounted" in b and b["container-driver-not-mounted"].confirmed_by
    assert r.get("container-driver-not-mounted") is None or \
        r["container-driver-not-mounted"].score < b["container-driver-not-mounted"].score
    if "container-driver-not-mounted" in r:
        assert r["container-driver-not-mounted"].ruled_out_by


def test_a_machine_outside_the_reported_combination_does_not_confirm_the_weight_hang(matcher):
    """No public source names a fixed HDK: other kernels and HDKs neither confirm nor rule it out."""
    text = "Loading safetensors checkpoint shards:   0% Completed | 0/163\nvllm 加载权重卡住，没有报错"
    affected = run(matcher, text, [Fact("kernel.release", "6.6.0-98.oe2403sp1.aarch64"), Fact("driver.version", "25.5.0")])
    other = run(matcher, text, [Fact("kernel.release", "5.15.0-78-generic"), Fact("driver.version", "25.2.0")])
    a = {f.id: f for f in affected.findings}["weight-load-hang-kernel-hdk"]
    o = {f.id: f for f in other.findings}["weight-load-hang-kernel-hdk"]
    assert a.confirmed_by and not o.confirmed_by and o.score < a.score


def test_chinese_symptom_with_synonyms(matcher):
    d = run(matcher, "拉起 vllm-ascend 服务后一直卡在权重加载，没有任何报错")
    assert "weight-load-hang-kernel-hdk" in [f.id for f in d.findings[:3]]


def test_honest_no_match(matcher):
    d = run(matcher, "Traceback (most recent call last):\nValueError: my custom tokenizer exploded on input 42")
    assert not d.findings or d.findings[0].score < 0.5
    assert d.first_errors
    assert "tokenizer" in d.suggestion


def test_with_no_likely_cause_the_search_suggested_holds_the_words_that_say_the_most(matcher):
    """The next step when nothing is likely is the search it suggests: the report's telling words (nccl), not its
    first ones (机器下训练, 使用); a report with no error line is searched by its title; a word no problem uses
    (a name of the user's own) is not suggested, since search cannot find it."""
    d = run(matcher, "NPU机器下训练，使用torch-npu结合torch会报无法找到nccl、ccl等相关错误信息")
    assert not d.findings or d.findings[0].score < 0.5
    words = d.suggestion.split()
    assert "nccl" in words and "机器下训练" not in words and "使用" not in words
    titled = run(matcher, "[Usage]: Error running on multiple nodes with ray\n\n"
                          "1. on the head node\n2. on the worker node")
    assert "ray" in titled.suggestion.split() and "nodes" in titled.suggestion.split()
    mine = run(matcher, "Traceback (most recent call last):\nValueError: zorblaxcorp tokenizer exploded on input 42")
    assert "zorblaxcorp" not in mine.suggestion and "tokenizer" in mine.suggestion


def test_benign_warning_is_never_a_likely_cause(matcher):
    d = run(matcher, "UserWarning: HCCL doesn't support gather at the moment. Implemented with allgather instead.")
    assert d.findings and d.findings[0].id == "hccl-gather-fallback-info"
    assert d.findings[0].score < 0.5


def test_environment_variable_names_are_found_next_to_chinese():
    from ascend_doctor.diagnose.matcher.match import IDENT

    assert IDENT.findall("设置HCCL_EXEC_TIMEOUT后仍然超时") == ["HCCL_EXEC_TIMEOUT"]
    assert IDENT.findall("export HCCL_CONNECT_TIMEOUT=7200") == ["HCCL_CONNECT_TIMEOUT"]
    assert IDENT.findall("xHCCL_EXEC_TIMEOUT and HCCL_EXEC_TIMEOUT_x") == []


def test_benign_warning_goes_after_the_failure_the_user_describes(matcher):
    text = ("大概服务启动30分钟后就挂掉，设置HCCL_EXEC_TIMEOUT=0也不生效\n"
            "UserWarning: HCCL doesn't support gather at the moment. Implemented with allgather instead.\n")
    d = run(matcher, text)
    ids = [f.id for f in d.findings]
    assert "hccl-gather-fallback-info" in ids                    # still explained ...
    assert ids[0] == "hccl-exec-timeout"                          # ... but not ranked as the cause
    benign = d.findings[ids.index("hccl-gather-fallback-info")]
    assert benign.problem.severity == "info"


def test_a_report_titled_with_a_harmless_warning_gets_that_warning_first(matcher):
    """An issue whose title is the warning it asks about (three real reports: a CPU fallback warning, a
    MindSpore Lite converter message, vLLM-Ascend's DP log lines) while its body pastes the launch command:
    the benign explanation of the title goes first; the words of the command alone do not push it below a
    failure."""
    _benign_first(matcher, "sgl-k14-torch-npu-cosyvoice-cpu-fallback-slow",
                  "mindspore-lite-mindir-convert-read-onnx-benign", "vllm-ascend-dp-log-only-some-engines")


def test_a_harmless_behaviour_the_user_describes_ranks_by_its_score(matcher):
    """"The answer is always cut off" (max_tokens), a CPU-fallback warning quoted in prose: a benign problem only
    the report's words point to is what the user asks about, not a warning beside a failure (two real reports)."""
    _benign_first(matcher, "vllm-llama31-response-cut-max-tokens", "torch_npu-mineru-910b-nms-isin-cpu-fallback-warning")


def _benign_first(kb, *names):
    from .conftest import ROOT
    from ascend_doctor.kb.toml import tomllib

    cases = ROOT / "tests" / "diagnosis_cases" / "dev"
    for name in names:
        with open(cases / f"{name}.toml", "rb") as fh:
            case = tomllib.load(fh)
        d = run(kb, case["input"])
        expected = case["expected"] if isinstance(case["expected"], list) else [case["expected"]]
        assert d.findings and d.findings[0].id in expected, (name, [(f.id, f.score) for f in d.findings[:3]])
        assert d.findings[0].score < 0.5            # a harmless warning is explained, never a likely cause


def test_the_machines_failing_check_is_a_cause_and_rules_out_another_container(cli):
    """diagnose on a container started without its management nodes: -8005 is their doing, not another
    container's (the check's own judgement), and the missing nodes are listed."""
    import json

    r = cli("diagnose", "--sim", "container-missing-device-nodes", "--format", "json", "--top", "5",
            "--text", "dcmi module initialize failed. ret is -8005")
    ids = [f["id"] for f in json.loads(r.out)["findings"]]
    assert "container-device-nodes-missing" in ids[:3]
    assert ids[0] != "npu-occupied-by-other-container"


def test_versions_a_report_states_run_through_the_rules(matcher):
    """A report that states a CANN and an HDK the compatibility table says do not fit gets that cause as a
    candidate from the rules, as 'check' would find it on the machine (less sure: it is only what the text says)."""
    d = run(matcher, "CANN 8.5.0 装好后报错 aclInit failed，驱动版本 24.1.0")
    found = {f.id: f for f in d.findings}
    assert "cann-newer-than-driver" in found
    assert any("fails the check" in s.detail for s in found["cann-newer-than-driver"].evidence)


def test_a_line_a_benign_signature_explains_is_no_word_evidence_for_a_failure(matcher):
    """'use_inductor not supported - using only ACL Graph mode' is printed by every healthy vLLM-Ascend start:
    its words (ACL graph, piecewise) must not make a graph-capture failure look likely."""
    line = ("(APIServer pid=1) INFO 08-20 10:00:12 [platform.py:174] PIECEWISE compilation enabled on NPU. "
            "use_inductor not supported - using only ACL Graph mode")
    d = run(matcher, line, facts=[Fact("driver.version", "25.2.0", source="npu-smi")])
    assert d.findings and d.findings[0].problem.severity == "info", [(f.id, f.score) for f in d.findings[:3]]
    assert all(f.score < 0.3 for f in d.findings if f.problem.severity != "info"), \
        [(f.id, f.score) for f in d.findings[:3]]


def test_a_line_a_signature_explains_is_no_word_evidence_for_another_problem(matcher):
    """A firmware installer that ends well says "installed successfully! Reboot now ...": the reboot problem's
    signature explains the line; its words (firmware, installed, successfully) must not also make the
    driver/firmware mismatch, whose fix quotes the installer's success message, a candidate."""
    from .conftest import FIXTURES

    log = (FIXTURES / "samples" / "install-logs" / "firmware-910-6.3.0.1.241-run-install.txt").read_text()
    d = run(matcher, log)
    assert d.findings[0].id == "firmware-upgrade-needs-reboot"
    assert all(f.score < 0.3 for f in d.findings[1:]), [(f.id, f.score) for f in d.findings[:3]]


def test_an_identifier_on_a_line_a_signature_matched_is_that_line_counted_once(matcher):
    """A launch script that sets VLLM_ASCEND_ENABLE_FUSED_MC2=1: the signature of the fused-MC2 problem matches the
    line (a setting worth a look, not a failure); the variable's name on the same line must not count a second
    time as 'the report names it', which made the setting alone a likely cause (0.51)."""
    d = run(matcher, "export VLLM_ASCEND_ENABLE_FUSED_MC2=1\nvllm serve /models/DeepSeek-R1 --data-parallel-size 4")
    top = d.findings[0]
    assert top.id == "fused-mc2-multi-dp-overload" and top.score < 0.5, [(f.id, f.score) for f in d.findings[:3]]
    assert [e.kind for e in top.evidence] == ["signature"], top.evidence


def test_torchs_wrapper_around_a_failed_torch_npu_import_is_no_likely_cause_of_its_own(matcher):
    """'Failed to load the backend extension: torch_npu' is what torch prints around any failure of import torch_npu
    (here a triton broken by uninstalling the community wheel, vllm-ascend PR 7790): the set_env problem whose
    signature and symptom phrase both name that line counts it once, and weakly, so it is no likely cause."""
    text = """    common_constant_types.add(triton.language.dtype)
AttributeError: module 'triton' has no attribute 'language'

The above exception was the direct cause of the following exception:

RuntimeError: Failed to load the backend extension: torch_npu. You can disable extension auto-loading with TORCH_DEVICE_BACKEND_AUTOLOAD=0."""
    d = run(matcher, text)
    env = next(f for f in d.findings if f.id == "cann-env-not-sourced")
    assert env.score < 0.5, [(f.id, f.score) for f in d.findings[:3]]
    wrapper = [e for e in env.evidence if "Failed to load the backend extension" in e.text]
    assert [e.kind for e in wrapper] == ["signature"], wrapper


def test_a_code_on_the_line_its_problems_signature_matched_is_that_line_counted_once(matcher):
    """'dcmi module initialize failed. ret is -8005': the signature of the problem is this line with its code; the
    code -8005 on the same line is no second clue for the same problem (it still lists among the report's codes):
    counted twice, a catch-all code's line plus two device paths the report names made a likely cause."""
    d = run(matcher, "npu-smi: dcmi module initialize failed. ret is -8005")
    top = d.findings[0]
    assert top.id == "npu-occupied-by-other-container" and top.score < 0.5, [(f.id, f.score) for f in d.findings[:3]]
    assert set(top.parts) == {"signature"}, top.parts
    assert [c.code for c in d.codes] == ["-8005"]


def test_a_version_of_a_stacks_package_the_report_states_names_that_stack(matcher):
    """'v0.11.0rc0-310p' (the vLLM-Ascend image tag) says which stack runs on the 310P as surely as its name: the
    310P problems of vLLM-Ascend are candidates, as they are for a report that writes 'vllm-ascend'."""
    text = ("v0.11.0rc0-310p拉起qwen vl 8B 报错 EL0004: [PID: 14004] 2025-11-06-01:17:59.527.855 "
            "Failed to allocate memory.")
    ids = [f.id for f in run(matcher, text).findings]
    named = [f.id for f in run(matcher, "vllm-ascend " + text).findings]
    assert "vllm-ascend-310p-broken-after-v0100rc1" in named
    assert "vllm-ascend-310p-broken-after-v0100rc1" in ids, ids


def test_another_versions_wording_of_a_signature_line_counts_less_but_counts(matcher):
    """near.py: a line that holds a signature's rare anchor (c10_npu::SetDevice) and most of its words is
    the same failure printed by another release; an exact match still counts more."""
    exact = run(matcher, "NPU function error: c10_npu::SetDevice(device_id_), error code is 507033")
    variant = run(matcher, "NPU function error: c10_npu::SetDevice(deviceIndex), error code is 507033")
    pid = "vllm-dp-device-setup-failed"
    e = next(f for f in exact.findings if f.id == pid)
    v = next(f for f in variant.findings if f.id == pid)
    assert any("nearly matches" in s.detail for s in v.evidence)
    assert not any("nearly matches" in s.detail for s in e.evidence)
    assert v.parts["signature"] < e.parts["signature"]


def test_a_line_without_a_rare_anchor_is_no_near_miss():
    from ascend_doctor.diagnose.matcher.near import NearMisses

    near = NearMisses({"p#1": "c10_npu::SetDevice(device_id_), error code is 507033",
                       "q#1": "is not a supported wheel on this platform"})
    assert [n.sid for n in near.of("c10_npu::SetDevice(device), error code is 507033")] == ["p#1"]
    assert near.of("error code is 507033") == []                  # the anchor is what ties a line to a signature
    assert near.of("foo.whl is not a supported wheel here") == []  # plain words are no anchor
    # the anchor is found in any case (tokens are compared in lower case); no signature, no near miss
    assert [n.sid for n in near.of("C10_NPU::SETDEVICE(DEVICE), ERROR CODE IS 507033")] == ["p#1"]
    assert NearMisses({}).of("c10_npu::SetDevice(device), error code is 507033") == []
    # a settings file's name is no anchor: most messages about settings name one
    near = NearMisses({"c#1": "Failed check model config.json", "s#1": "No module named '_sqlite3'"})
    assert near.of("Warmup failed, because of multimodal model out of memory. Decrease it in config.json") == []
    assert [n.sid for n in near.of("ModuleNotFoundError: No module named '_sqlite3‘")] == ["s#1"]


def test_hardware_proposes_a_stacks_problem_only_for_that_stack_or_an_unnamed_one(matcher):
    """A first-generation 910 is a reason to suspect vLLM-Ascend's unsupported-hardware problem when the
    report is about vLLM-Ascend (it names it), never when it is a LLaMA-Factory report or names no stack
    (the machine runs Paddle, sherpa-onnx or MindSpore as often)."""
    table = ("| NPU   Name                | Health        | Power(W)    Temp(C)           Hugepages-Usage(page)|\n"
             "| 0     910ProB             | OK            | 78.0        38                0    / 0             |\n"
             "| 0                         | 0000:C1:00.0  | 0           2387 / 13553      18   / 32768         |\n")
    ids = lambda d: [f.id for f in d.findings]                     # noqa: E731
    assert "vllm-ascend-unsupported-hardware" not in ids(run(matcher, "Ascend 910A 上服务崩溃\n" + table))
    assert "vllm-ascend-unsupported-hardware" in ids(run(matcher, "vllm-ascend 启动失败\n" + table))
    lf = run(matcher, "llamafactory-cli chat 在 NPU 上推理报错\n- `llamafactory` version: 0.9.1\n" + table)
    assert "vllm-ascend-unsupported-hardware" not in ids(lf)


def test_versions_a_report_states_confirm_less_than_the_machine_itself(matcher):
    """A report may name versions it does not run (a requirement, an old install): the same confirming facts
    raise a cause less when they come from the text than when they come from the machine."""
    text = "Loading safetensors checkpoint shards:   0% Completed | 0/163\nvllm 加载权重卡住，没有报错"
    machine = [Fact("kernel.release", "6.6.0-98.oe2403sp1.aarch64"), Fact("driver.version", "25.5.0")]
    said = [Fact(f.key, f.value, source="text:report:3") for f in machine]
    m = {f.id: f for f in run(matcher, text, machine).findings}["weight-load-hang-kernel-hdk"]
    t = {f.id: f for f in run(matcher, text, said).findings}["weight-load-hang-kernel-hdk"]
    assert m.confirmed_by and t.confirmed_by and t.score < m.score


def test_a_line_of_two_common_words_says_no_longer_symptom_phrase(matcher):
    """'1. 启动容器' (start the container) holds two words of many phrases about containers: a phrase counts as
    said only when the line holds most of its words, not when the line is a small part of the phrase."""
    d = run(matcher, "1. 启动容器\n2. 进入容器")
    liked = [(f.id, e.detail) for f in d.findings for e in f.evidence if e.detail.startswith("like '")]
    assert not liked, liked


def test_the_problem_of_the_stack_the_report_names_goes_first(matcher):
    """'When will 3.2.1 be on PyPI: .../project/triton-ascend' shares its words with the torch CPU-wheel problem,
    the torch_npu wheel problem and the Triton-Ascend wheel problem; the report names Triton-Ascend, so its
    problem is first (the words of the problems' fix commands, which once made this a tie, count less now: the
    order holds whether the stack or the words decide it)."""
    d = run(matcher, "啥时候能发布3.2.1到pypi源：https://pypi.org/project/triton-ascend")
    assert d.findings[0].id == "triton-ascend-wheel-not-on-pypi", [(f.id, f.score) for f in d.findings[:3]]


def test_a_success_value_is_no_code_of_the_report(matcher):
    """HcclResult 0 is HCCL_SUCCESS: a plog's "socket close, fd[3], error code is 0" is no error code; a real
    HCCL code on another line still is."""
    text = ("[ERROR] HCCL(18611,python3):2025-08-20-10:17:46.821.234 [hccl_socket.cc:312][75606] "
            "socket close, fd[3], error code is 0\n"
            "[ERROR] HCCL(18611,python3):2025-08-20-10:17:47.001.002 [op_base.cc:1009][75606] "
            "HcclGetRootInfo failed, error code is 7\n")
    d = run(matcher, text)
    got = {(c.family, c.code) for c in d.codes}
    assert ("hccl", "0") not in got
    assert ("hccl", "7") in got
    # a code the dictionary knows only by its range (561xxx) is no success value: it stays in the report
    d = run(matcher, "RuntimeError: aclnnFoo failed, error code is 561999")
    assert "561999" in [c.code for c in d.codes]


TORCHRUN_WRAPPER = """torch.distributed.elastic.multiprocessing.errors.ChildFailedError:
============================================================
src/train.py FAILED
------------------------------------------------------------
Root Cause (first observed failure):
[0]:
  rank      : 0 (local_rank: 0)
  exitcode  : 1 (pid: 1342)
  error_file: <N/A>
  traceback : To enable traceback see: https://pytorch.org/docs/stable/elastic/errors.html
"""


def test_a_launchers_wrapper_report_is_no_cause_and_goes_after_the_real_one(matcher):
    """torchrun / accelerate print the same ChildFailedError block for every failure of a rank: it says where to
    look, not why. With the rank's own error above it, that error is the cause; alone, the wrapper is the lead
    ('the real error is earlier in the log') but never a likely cause."""
    oom = "RuntimeError: NPU out of memory. Tried to allocate 2.00 GiB (NPU 0; 60.97 GiB total capacity; 58.10 GiB already allocated)\n"
    d = run(matcher, oom + TORCHRUN_WRAPPER)
    ids = [f.id for f in d.findings]
    assert ids[0] == "npu-out-of-memory", [(f.id, f.score) for f in d.findings[:3]]
    d = run(matcher, TORCHRUN_WRAPPER)
    assert d.findings[0].id == "generic-torchrun-childfailederror-wrapper"
    assert d.findings[0].score < 0.5


def test_a_chinese_phrase_is_not_said_by_a_line_of_only_its_opening_words(tmp_path, kdir):
    """'启动容器' translates to two of the phrase's words (start, container); the rest of the phrase ('时没挂',
    'davinci', '设备') is what it says. A line '1. 启动容器' says none of that, so it is no evidence; a line
    that says the rest is."""
    import shutil

    from ascend_doctor.kb.paths import KNOWLEDGE_DIR
    from ascend_doctor.kb.query import KnowledgeBase

    from .test_kb_overlay import SITE_FILE

    shutil.copy(KNOWLEDGE_DIR / "synonyms.toml", kdir / "synonyms.toml")
    site = SITE_FILE.replace('id = "site-nfs-model-dir-slow"', 'id = "site-container-without-davinci"').replace(
        'symptoms.zh = ["从 /mnt/nfs-models 加载模型很慢"]', 'symptoms.zh = ["启动容器时没挂 davinci 设备"]').replace(
        'name = "site"\n', '')         # a family of the shipped knowledge is named by its file
    assert "启动容器时没挂" in site
    (kdir / "problems" / "site.toml").write_text(site, encoding="utf-8")
    with KnowledgeBase(tmp_path / "kb.sqlite", knowledge_dir=kdir) as kb:
        d = run(kb, "1. 启动容器\n2. 进入容器")
        assert "site-container-without-davinci" not in [f.id for f in d.findings]
        d = run(kb, "启动容器的时候没有挂davinci设备，容器里看不到卡")
        assert "site-container-without-davinci" in [f.id for f in d.findings]


def test_two_steps_of_starting_a_container_point_to_no_cause(matcher):
    """'1. 启动容器 / 2. 进入容器' says nothing that is wrong. Cut into character pairs, 启动容器 gives 动容, which
    is no word (the end of 启动 and the start of 容器) and rare in the knowledge only for that reason: it counts
    little, so the two lines are no lead to a problem that happens to write 启动容器 (it was /dev/shm at 0.12)."""
    d = run(matcher, "1. 启动容器\n2. 进入容器")
    assert not d.findings, [(f.id, f.score, [e.detail for e in f.evidence]) for f in d.findings]


def test_a_cann_reason_must_agree_with_the_phrase_that_quotes_one(matcher):
    """CANN prints its sub-cause after 'Reason:'. The same code with another reason is another failure: 'Failed to
    set visible device' (vLLM-Ascend PR #10125) shares every word of the phrase 'Set device failed, invalid device'
    (a device id beyond the range) but is not it; the line that gives that reason still is."""
    from ascend_doctor.diagnose.matcher.match import _same_reason

    visible = ("[PID: 23942] 2026-06-05-08:18:18.244.598 Invalid_Argument(EE1001): The argument is invalid.Reason: "
               "Failed to set visible device. The invalid device is 1 and the input visible device is 1.")
    d = run(matcher, visible)
    assert not any(e.kind == "symptom" and "Set device failed" in (e.detail or "")
                   for f in d.findings for e in f.evidence), [(f.id, [e.detail for e in f.evidence]) for f in d.findings]
    assert not _same_reason("Failed to set visible device. The invalid device is 1", "Set device failed, invalid device")
    assert _same_reason("Set device failed, invalid device, set device=8, valid device range is [0, 8)",
                        "Set device failed, invalid device")
    assert _same_reason("[sdma copy error]", "[sdma copy error]")


def test_a_sentence_run_into_the_next_is_two(matcher):
    """'The argument is invalid.Reason: ...' (CANN prints no space there): 'invalid.reason' is no term that every
    problem quoting such a message would share."""
    from ascend_doctor.diagnose.matcher import Matcher

    terms = Matcher(matcher)._retriever.terms("Invalid_Argument(EE1001): The argument is invalid.Reason: Failed to set visible device.")
    assert "invalid.reason" not in terms and "reason" not in terms and "visible" in terms


def test_words_alone_point_less_to_a_problem_of_another_stack_than_the_report_names(matcher):
    """'service fails to start' is a phrase of several MindIE problems; a report that states its vLLM and vLLM-Ascend
    versions is about vLLM-Ascend: its versions' mismatch goes first, the MindIE problems below it say why."""
    d = run(matcher, "[Bug]: service fails to start\nvllm==0.9.1\nvllm-ascend==0.10.0rc1\n"
                     "Traceback (most recent call last):\nImportError: cannot import name xyz from vllm.config")
    assert d.findings[0].id == "vllm-vllm-ascend-mismatch", [(f.id, f.score) for f in d.findings[:3]]
    mindie = [f for f in d.findings if f.id.startswith("mindie-")]
    assert mindie and all(any("vllm" in r and "mindie" in r for r in f.ruled_out_by) for f in mindie)


def test_a_one_sentence_report_whose_words_point_to_one_problem_lists_it_as_a_lead(matcher):
    """'训练时使用 torch 会报无法找到 nccl' says little, but what it says is the NCCL-on-NPU problem: listed low (a
    lead to check), never likely."""
    d = run(matcher, "NPU机器下训练，使用torch-npu结合torch会报无法找到nccl、ccl等相关错误信息")
    assert d.findings and d.findings[0].id == "nccl-backend-on-npu" and d.findings[0].score < 0.5


def test_an_identifier_the_report_names_is_shown_on_the_line_that_names_it(matcher, tmp_path):
    """A plog folder whose only clue is a function name a problem knows (halGetDeviceInfo): the evidence says in
    which file and on which line it stands, with that line, so the user can open it (it said '<text>')."""
    log = tmp_path / "plog-4242_20250820.log"
    log.write_text("[INFO] RUNTIME(4242,python3):2025-08-20-10:00:00.000.000 [stream.cc:1061]77 Create: stream_id=1\n"
                   "[ERROR] DRV(4242,python3):2025-08-20-10:00:01.000.000 [ascend_hal.c:609]77 halGetDeviceInfo: "
                   "module 2 info type 9 is invalid\n", encoding="utf-8")
    d = diagnose(matcher, [str(log)])
    named = [e for f in d.findings for e in f.evidence if "halgetdeviceinfo" in e.detail]
    assert named, [(f.id, [e.detail for e in f.evidence]) for f in d.findings[:3]]
    assert {(e.source, e.line) for e in named} == {(str(log), 2)}
    assert all("halGetDeviceInfo: module 2 info type 9 is invalid" in e.text for e in named)


def test_a_pasted_process_table_is_no_other_holder_but_the_machines_is(matcher):
    """An npu-smi table in a report was usually taken while the failing job ran, so the processes it lists are
    often the job's own workers: the report's text does not make 'another container holds the NPU' a cause.
    The same processes on the machine being diagnosed (taken now, before the job starts) still are one."""
    from .conftest import FIXTURES

    table = (FIXTURES / "samples" / "npu-smi-info" / "a3-910_93-2card-4chip-25.2.0-one-process.txt").read_text()
    report = table + "\nKeyError: 'visual.blocks.0.attn.qkv.weight'\n"
    assert "npu-occupied-by-other-container" not in {f.id for f in run(matcher, report).findings}
    procs = [{"npu_id": 1, "chip_id": 1, "pid": 990711, "name": "python", "memory_mb": 7746}]
    found = {f.id for f in run(matcher, report, facts=[Fact("npu.processes", procs, source="npu-smi info")]).findings}
    assert "npu-occupied-by-other-container" in found


def test_a_kernel_languages_hardware_limit_is_no_candidate_for_another_stacks_report(matcher):
    """TileLang-Ascend and llama.cpp are stacks of their own: that TileLang kernels do not run on a 310P says
    nothing about a vLLM-Ascend report from a 300I Duo (the report's hardware alone proposed it)."""
    d = run(matcher, "qwen3-30b-a3b-instruct-2507 能够在300i duo上启动，curl测试崩掉了。vllm-ascend 0.10.0rc1")
    assert "tilelang-ascend-unsupported-npu-310p-kernel-register" not in {f.id for f in d.findings}
    d = run(matcher, "TileLang-Ascend 的 kernel 在 300I Duo 上跑不起来")
    assert "tilelang-ascend-unsupported-npu-310p-kernel-register" in {f.id for f in d.findings[:3]}
