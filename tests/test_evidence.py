"""Evidence readers: streaming inputs, code extraction, cleaning and deduplication, facts from text."""
from __future__ import annotations

import gzip
import io
import sys

import pytest

from ascend_doctor.diagnose.evidence import ERROR_LINE, read_evidence
from ascend_doctor.diagnose.evidence.clean import clean, dedupe_key, line_time, rank_of
from ascend_doctor.diagnose.evidence.codes import extract
from ascend_doctor.diagnose.evidence.prefilter import Prefilter
from ascend_doctor.diagnose.evidence.scan import MAX_KEEP


@pytest.mark.parametrize("line,expected", [
    ("RuntimeError: call aclnnMoeDistributeDispatchV4 failed, error code is 561000", ("aclnn", "561000")),
    ("NPU function error: c10_npu::SetDevice(device_id_), error code is 507033", ("acl", "507033")),
    ("EZ9999: Inner Error!", ("cann", "EZ9999")),
    ("EI0006: Getting socket times out. Reason: Remote Rank did not send the data in time.", ("cann", "EI0006")),
    ("[ERROR] 2025-04-16 (PID:1, Device:-1, RankID:-1) ERR00100 PTA call acl api failed", ("torch_npu", "ERR00100")),
    ("DrvMngGetConsoleLogLevel failed. (g_conLogLevel=3) dcmi module initialize failed. ret is -8005", ("dcmi", "-8005")),
    ("[ERROR] HCCL(1,python3):2025 [hccl_socket_manager.cc:830] [Wait][LinksEstablishCompleted] is failed. ret[9].", ("hccl", "9")),
    ("HCCL function error: hcclCommInitRootInfoConfig(numRanks, &rootInfo), error code is 15", ("hccl", "15")),
    ("open device 1 failed, runtime result = 107001.[FUNC:ReportCallError]", ("acl", "107001")),
    ("报错rtKernelLaunchWithHandleV2 failed: 507035", ("acl", "507035")),
    ("launch failed for Fill, errno:361001", ("aclnn", "361001")),
    ("device fault event 0x80e01801 reported", ("fault_event", "0x80E01801")),
])
def test_codes_of_every_family(line, expected):
    assert expected in extract(line)


def test_no_codes_in_ordinary_numbers():
    assert extract("INFO 08-20 10:00:01 [loggers.py:123] Avg prompt throughput: 507033.0 tokens/s") == []
    assert extract("epoch 3 step 561000 loss 0.42") == []


def test_clean_strips_rank_prefixes_headers_and_progress():
    a = clean("(VllmWorker rank=3 pid=1234) ERROR 08-20 10:00:01 [worker.py:12] RuntimeError: boom on device 3")
    b = clean("(VllmWorker rank=5 pid=99) ERROR 08-20 10:00:02 [worker.py:12] RuntimeError: boom on device 5")
    assert a == "RuntimeError: boom on device 3"
    assert dedupe_key(a) == dedupe_key(b)
    assert clean("[rank3]: RuntimeError: x") == "RuntimeError: x"
    assert "<progress>" in clean("Loading safetensors checkpoint shards:  45% Completed | 73/163 [00:10<00:12, 7.2it/s]")
    assert clean("\x1b[31mERROR\x1b[0m boom") == "ERROR boom"
    assert rank_of("[rank7]: RuntimeError: x") == "7"


def test_line_time_formats_sort_in_time_order():
    plog = line_time("[ERROR] HCCL(1,python3):2025-08-20-10:00:00.123.456 [x.cc:1] y")
    vllm = line_time("ERROR 08-20 10:00:01 [core.py:1] y")
    iso = line_time("2025-08-20 09:59:59,001 - x - ERROR - y")
    assert iso < plog < vllm
    assert line_time("no time here") == ""


def test_prefilter_is_exact():
    trig = [b"dcmi module initialize failed", b"EZ9999", b"Alloc sq cq fail", b"zz"]
    pf = Prefilter(trig)
    noise = b"INFO 08-20 10:00:01 [a.py:1] all good\n" * 5000
    assert pf.lines_apart(noise, None, frozenset()) == ({}, [])
    block = noise + b"x dcmi module initialize failed. ret is -8005\n" + b"EZ9999: Inner Error!\n"
    lines, _ = pf.lines_apart(block, None, frozenset())
    assert list(lines.values()) == [{b"dcmi module initialize failed"}, {b"EZ9999"}]


def _lines(ev):
    return {ln.text: ln for ln in ev.lines}


def test_dedupe_across_ranks_and_files(tmp_path):
    d = tmp_path / "plog"
    (d / "device-0").mkdir(parents=True)
    for r in range(4):
        (d / f"plog-{100 + r}_2025.log").write_text(
            f"[ERROR] HCCL(10{r},python3):2025-08-20-10:00:0{r}.000.000 [hccl_socket_manager.cc:778] [20{r}]"
            f"[Wait][LinkEstablish]wait socket establish timeout, role[1] rank[{r}] timeout[120]\n")
    (d / "device-0" / "device-1234_2025.log").write_text("[INFO] AICPU(1,aicpu_scheduler):2025 ok\n")
    ev = read_evidence([str(d)])
    errs = [ln for ln in ev.lines if ERROR_LINE in ln.kinds]
    assert len(errs) == 1 and errs[0].count == 4
    assert errs[0].source.endswith("plog-100_2025.log") and errs[0].line == 1
    assert len(ev.inputs) == 5


def test_a_plog_message_from_many_threads_is_one_line_with_its_count(tmp_path):
    """RUNTIME / GE / ASCENDCL write the thread id right after the source place (Ascend/pytorch and vLLM-Ascend
    reports paste "[api_c.cc:1097]212914 rtMemcpy:ErrCode=107030"): it varies like the pid and the time."""
    line = ("[ERROR] RUNTIME({pid},python3):2025-08-20-10:00:0{s}.000.000 [api_c.cc:1097]{tid} rtMemcpy:ErrCode=107030, "
            "desc=[the current capture mode does not support this operation]")
    assert clean(line.format(pid=212914, s=1, tid=212914)) == clean(line.format(pid=7, s=2, tid=31337)) == (
        "[ERROR] RUNTIME rtMemcpy:ErrCode=107030, desc=[the current capture mode does not support this operation]")
    assert clean("[INFO] GE(1,python3):2025-08-20-10:00:00.000.000 [graph.cc:12] 3 nodes fused") == "[INFO] GE 3 nodes fused"
    (tmp_path / "plog-1.log").write_text("".join(line.format(pid=100, s=t, tid=200 + t) + "\n" for t in range(6)))
    errs = [ln for ln in read_evidence([str(tmp_path)]).lines if ERROR_LINE in ln.kinds]
    assert len(errs) == 1 and errs[0].count == 6 and errs[0].line == 1


def test_gzip_binary_empty_and_missing(tmp_path):
    gz = tmp_path / "worker.log.gz"
    with gzip.open(gz, "wt") as fh:
        fh.write("ok\nEZ9999: Inner Error!\n")
    binary = tmp_path / "core.bin"
    binary.write_bytes(b"\x7fELF\x00\x00\x01" * 100)
    empty = tmp_path / "empty.log"
    empty.write_bytes(b"")
    ev = read_evidence([str(gz), str(binary), str(empty), str(tmp_path / "nope.log")])
    assert [c.code for c in ev.codes] == ["EZ9999"]
    assert ev.codes[0].line == 2
    notes = {n.source: n.message for n in ev.notes}
    assert "binary" in notes[str(binary)]
    assert "empty" in notes[str(empty)]
    assert "no such file" in notes[str(tmp_path / "nope.log")]


def test_non_utf8_and_huge_lines(tmp_path):
    p = tmp_path / "mixed.log"
    big = b"A" * (9 << 20)          # one 9 MiB line without an error (longer than a block)
    with open(p, "wb") as fh:
        fh.write(b"\xff\xfe garbage \xc3\x28 then EZ9999: Inner Error!\n")
        fh.write(big + b"\n")
        fh.write(b"x" * 100 + b" call aclnnFoo failed, error code is 561003 " + b"y" * (2 << 20) + b"\n")
        fh.write("最后一行 报错 ERR00100\n".encode())
    ev = read_evidence([str(p)])
    codes = {c.code: c.line for c in ev.codes}
    assert codes["EZ9999"] == 1
    assert "561003" in codes
    assert codes["ERR00100"] > codes["561003"]
    assert all(len(ln.raw) <= MAX_KEEP for ln in ev.lines)
    assert any("cut" in n.message for n in ev.notes)


def test_stdin(monkeypatch):
    data = b"first\nRuntimeError: NPU out of memory. Tried to allocate 2.00 GiB\n"
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BufferedReader(io.BytesIO(data))))
    ev = read_evidence(["-"])
    assert ev.inputs == ["<stdin>"] and ev.lines_read == 2
    assert any("NPU out of memory" in ln.text for ln in ev.lines)


def test_first_error_in_time_wins_over_reading_order(tmp_path):
    a = tmp_path / "a.log"
    b = tmp_path / "b.log"
    a.write_text("[ERROR] HCCL(1,python3):2025-08-20-10:05:00.000.000 [x.cc:1] later failure\n")
    b.write_text("[ERROR] HCCL(2,python3):2025-08-20-10:01:00.000.000 [x.cc:1] first failure\n")
    ev = read_evidence([str(a), str(b)])
    assert "first failure" in ev.first_errors(1)[0].text


def test_facts_from_pasted_text():
    text = """我在 910B 上部署 vllm-ascend 0.9.1，CANN 8.3.RC1，torch_npu 2.7.1 报错
+------------------------------------------------------------------------------------------------+
| npu-smi 24.1.0.3                 Version: 24.1.0.3                                             |
+---------------------------+---------------+----------------------------------------------------+
| NPU   Name                | Health        | Power(W)    Temp(C)           Hugepages-Usage(page)|
| Chip                      | Bus-Id        | AICore(%)   Memory-Usage(MB)  HBM-Usage(MB)        |
+===========================+===============+====================================================+
| 0     910B2               | OK            | 92.5        36                0    / 0             |
| 0                         | 0000:C1:00.0  | 0           0    / 0          3386 / 65536         |
+===========================+===============+====================================================+
kernel 6.6.0-98.oe2403sp1.aarch64
"""
    ev = read_evidence([], text=text)
    facts = {f.key: f for f in ev.facts}
    assert facts["cann.version"].value == "8.3.RC1"
    assert facts["pkg.torch_npu"].value == "2.7.1"
    assert facts["pkg.vllm_ascend"].value == "0.9.1"
    assert facts["driver.version"].value == "24.1.0.3"
    assert facts["npu.chip_name"].value == "910B2"
    assert facts["hardware.family"].value == "a2"
    assert facts["kernel.release"].value == "6.6.0-98.oe2403sp1.aarch64"
    assert facts["npu.count"].source == "text:<text>:2"
    assert ev.prose and ev.prose[0].startswith("我在 910B")


def test_memory_stays_flat(tmp_path):
    """A 64 MiB file is read in blocks: peak traced memory stays far below the file size."""
    import tracemalloc

    p = tmp_path / "big.log"
    line = b"(APIServer pid=1) INFO 08-20 10:03:11 [loggers.py:123] Engine 000: Avg prompt throughput: 412.3 tokens/s\n"
    with open(p, "wb") as fh:
        for _ in range(64):
            fh.write(line * ((1 << 20) // len(line)))
        fh.write(b"EZ9999: Inner Error!\n")
    tracemalloc.start()
    ev = read_evidence([str(p)])
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert [c.code for c in ev.codes] == ["EZ9999"]
    assert peak < 32 << 20


@pytest.mark.parametrize("line, code", [
    ("模型加载报错，错误码507033", ("acl", "507033")),
    ("调用接口返回507033", ("acl", "507033")),
    ("训练时报 ei0006 错误", ("cann", "EI0006")),
    ("E1201 08:15:02.123456 1234 x.cc:42] aclrtMalloc failed, ret:507899", ("acl", "507899")),
    ("昇腾910B arm, run_check时报 ACL error, the error code is : 500001", ("acl", "500001")),
    ("运行检查程序报错,错误代码 507033", ("acl", "507033")),
    ("初始化失败，错误号：207018", ("acl", "207018")),
])
def test_codes_as_people_and_glog_write_them(line, code):
    from ascend_doctor.diagnose.evidence.codes import extract

    assert code in extract(line)


def test_a_code_after_fanhui_alone_is_read_from_the_log():
    """'aclrtSetDevice 返回507033' holds no error word: the scanner reads the line for 返回 and finds the code (extract
    knew the form; the line never reached it)."""
    ev = read_evidence([], text="调用 aclrtSetDevice 返回507033，设备无法使用\n")
    assert [c.code for c in ev.codes] == ["507033"]
    assert not read_evidence([], text="接口返回结果正常，耗时 123456 微秒\n").lines


def test_a_symbolic_code_name_counts_as_its_code(cli):
    import json

    r = cli("diagnose", "--no-env", "--format", "json", "--text", "torch_npu init failed: ACL_ERROR_RT_DEV_SETUP_ERROR")
    ev = [e for f in json.loads(r.out)["findings"] for e in f["evidence"]]
    assert any(e["kind"] == "code" and "507033" in e["detail"] for e in ev)


def test_issue_form_labels_are_not_the_users_sentences():
    """A GitHub issue form prints every field label as a level-3 heading ("### Operating System Version|
    操作系统版本"): the template's words, in every report alike; the user's own lines stay prose."""
    ev = read_evidence([], text=("### Description of the bug | 错误描述\n\nminerU在910B上启动报错，能正常解析\n\n"
                                 "### Operating System Version| 操作系统版本\n\naarch64\n\n### Python version\n\n3.10\n\n"
                                 "## NPU out of memory after the upgrade to CANN 8.3\n"))
    assert any(p.startswith("minerU在910B上启动报错") for p in ev.prose)
    assert not any("Operating System" in p or "Python version" in p or "错误描述" in p for p in ev.prose)
    assert ev.title == ""             # the paste began at the form, without the issue title
    assert not any("错误描述" in ln.text for ln in ev.first_errors(10))    # a label naming errors is none
    assert any(p.startswith("NPU out of memory after the upgrade") for p in ev.prose)


def test_a_templates_bold_headings_and_check_boxes_are_not_the_users_sentences():
    """MindSpore's and other projects' issue templates write their field labels in bold, not as headings
    ("**Describe the bug/ 问题描述 (Mandatory / 必填)**", "- **Hardware Environment(`Ascend`/`GPU`/`CPU`) /
    硬件环境**:") and carry check boxes ("- [X] I have read the README ..."): the same words in every report."""
    ev = read_evidence([], text=("Mindspore2.3.0 API不兼容\n\n**Describe the bug/ 问题描述 (Mandatory / 必填)**\n"
                                 "在accelerate的state.py中，报错ModuleNotFoundError:No module named 'mindspore.comm func'\n\n"
                                 "- **Hardware Environment(`Ascend`/`GPU`/`CPU`)  / 硬件环境**:\n> Ascend 910b4\n\n"
                                 "- [X] I have read the README and searched the existing issues.\n"
                                 "**Expected behavior / 预期结果 (Mandatory / 必填)**\n正常运行\n"))
    assert any(p.startswith("在accelerate的state.py中") for p in ev.prose)
    assert not any("Describe the bug" in p or "Hardware Environment" in p or "I have read" in p
                   or "Expected behavior" in p for p in ev.prose)


def test_a_scan_leaves_the_garbage_collector_and_others_frozen_objects_as_they_were(tmp_path):
    """The scan sets what the process held aside from the collector while it runs (evidence.frozen_gc): after it,
    nothing stays frozen, and a program that froze objects itself (gc.freeze before forking workers) keeps them."""
    import gc

    log = tmp_path / "plog.log"
    log.write_text("[ERROR] RUNTIME(1,python):2025-08-20-10:00:00.000.000 [stream.cc:1] error code is 507033\n")
    assert gc.get_freeze_count() == 0
    read_evidence([str(log)])
    assert gc.get_freeze_count() == 0 and gc.isenabled()
    keep = [object() for _ in range(10)]
    gc.freeze()
    try:
        frozen = gc.get_freeze_count()
        read_evidence([str(log)])
        assert gc.get_freeze_count() == frozen
    finally:
        gc.unfreeze()
    assert keep
