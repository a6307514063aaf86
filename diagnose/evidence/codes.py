"""Error codes in a log line, every family, with the family guessed from the words around them.

Families (the same names as the KB's code families): ``aclnn`` (161xxx/361xxx/561xxx), ``acl``
(runtime 1xxxxx-5xxxxx such as 107001, 207018, 507033), ``ge`` (145xxx/245xxx/345xxx/545xxx),
``cann`` (``EZ9999``, ``EI0006``, ``EL0004``, ``EJ0001``, ``E30006``), ``torch_npu`` (``ERR00100``),
``dcmi`` (``ret is -8005``), ``hccl`` (``HcclResult`` values: ``ret[9]``, ``HCCL ... error code is 7``),
``fault_event`` (``0x80E01801``).
"""
from __future__ import annotations

import re

CANN = re.compile(r"(?<![A-Za-z0-9_])(E[A-Z0-9]\d{4})(?![\w])")
TORCH_NPU = re.compile(r"(?<![A-Za-z0-9_])(ERR\d{5})(?!\d)")
SIX_DIGIT = re.compile(
    r"(?:error\s*code(?:\s*is)?\s*[:=]?|errno\s*[:=]?|err(?:or)?_?code\s*[:=]|ret(?:Code|code)?\s*(?:is|[:=])|"
    r"\bret\s*\[|aclError\s*[:=]?|rtRet\s*[:=]|ERROR\s*:|error\s*:|failed\s*[:,]|(?:runtime\s+)?result\s*=|errorCode\s*=|"
    r"错误(?:代?码|编?号)\s*(?:为|是)?\s*[:：]?|返回(?:值|码)?\s*(?:为|是)?\s*[:：]?|报错\s*[:：]?)\s*\[?\s*(\d{6})(?!\d)",
    re.I)
#: a CANN code written in lower case in prose ("报 ei0006 错"): a letter after the e, so "e10001" is not one
CJK = re.compile(r"[\u3400-\u9fff]")
SIX_DIGITS_ANYWHERE = re.compile(r"\d{6}")
CANN_LOWER = re.compile(r"(?<![A-Za-z0-9_])(e[a-z]\d{4})(?![\w])")
DCMI = re.compile(r"(?:\bret\s*(?:is|[:=])|error\s*code\s*(?:is|[:=])?|\(ret\s*=)\s*(-8\d{3})(?!\d)", re.I)
HCCL_RET = re.compile(r"\bret\s*\[\s*(-?\d{1,3})\s*\]")
HCCL_CODE = re.compile(r"(?:error\s*code\s*(?:is|:)?|HcclResult\s*[:=]?|hcclRet\s*[:=]?)\s*(\d{1,2})(?!\d)", re.I)
FAULT_EVENT = re.compile(r"(?<![0-9A-Za-z])(0[xX][0-9A-Fa-f]{8})(?![0-9A-Za-z])")
HCCL_CONTEXT = re.compile(r"hccl|HCCL|Hccl|ProcessGroupHCCL")
EVENT_CONTEXT = re.compile(r"event|fault|Fault|alarm|Alarm|EVENT|FAULT")

#: byte literals that announce a code on the line (the scanner's prefilter uses them)
#: (lines with "error code is", "failed ... ret is", "is failed. ret[9]" already hold an error word)
TRIGGERS = (b"errno", b"rrCode", b"retCode", b"HcclResult", b"hcclRet",
            # a code a person quotes after 返回 ("aclrtSetDevice 返回507033"): the line holds no error word
            "返回".encode())
#: block-level regex for CANN and torch_npu codes (literal prefix 'E': scanned at C speed)
BLOCK_RE = re.compile(rb"E(?:RR\d{5}|[A-Z0-9]\d{4})(?![0-9A-Za-z_])")


def six_digit_family(code: str) -> str:
    if code[:3] in ("161", "361", "561"):
        return "aclnn"
    if code[1:3] == "45" and code[0] in "1235":
        return "ge"
    return "acl"


def extract(line: str) -> list[tuple[str, str]]:
    """(family, code) pairs found on ``line``, in order, without duplicates."""
    out: list[tuple[str, str]] = []

    def add(fam: str, code: str) -> None:
        item = (fam, code)
        if item not in out:
            out.append(item)

    if "E" in line:
        for m in TORCH_NPU.finditer(line):
            add("torch_npu", m.group(1))
        for m in CANN.finditer(line):
            c = m.group(1)
            if c.startswith("ERR") or c[1:].isdigit() and c[1] == "0":
                continue
            add("cann", c)
    low = line.lower()
    if CJK.search(line):                  # codes as a person writes them, in Chinese prose
        for m in CANN_LOWER.finditer(line):
            add("cann", m.group(1).upper())
        if "错误" in line or "返回" in line or "报错" in line:
            for m in SIX_DIGIT.finditer(line):
                add(six_digit_family(m.group(1)), m.group(1))
    if "code" in low or "ret" in low or "errno" in low or "error" in low or "acl" in low or "fail" in low \
            or "result" in low:
        # the alternation of code markers is slow: run it only where six digits stand in a row
        if SIX_DIGITS_ANYWHERE.search(line):
            for m in SIX_DIGIT.finditer(line):
                add(six_digit_family(m.group(1)), m.group(1))
        if "-8" in line:
            for m in DCMI.finditer(line):
                add("dcmi", m.group(1))
        if HCCL_CONTEXT.search(line):
            for m in HCCL_RET.finditer(line):
                add("hccl", m.group(1))
            for m in HCCL_CODE.finditer(line):
                add("hccl", m.group(1))
    if "0x" in line or "0X" in line:
        if EVENT_CONTEXT.search(line):
            for m in FAULT_EVENT.finditer(line):
                add("fault_event", "0x" + m.group(1)[2:].upper())
    return out


#: DCMI with its literal digit as a class (``possible`` runs on shapes, where every digit is written 0)
_DCMI_ANY = re.compile(DCMI.pattern.replace("(-8\\d{3})", "(-\\d{4})"), re.I)


def possible(shape: str) -> bool:
    """False when no line of this shape (uniform.py: every digit written 0) can hold a code: ``extract``'s
    patterns, each relaxed to treat every digit alike, find nothing in it."""
    if "E" in shape and (TORCH_NPU.search(shape) or CANN.search(shape)):
        return True
    low = shape.lower()
    if CJK.search(shape) and (CANN_LOWER.search(shape) or SIX_DIGIT.search(shape)):
        return True
    if "code" in low or "ret" in low or "errno" in low or "error" in low or "acl" in low or "fail" in low \
            or "result" in low:
        if SIX_DIGIT.search(shape) or _DCMI_ANY.search(shape):
            return True
        if HCCL_CONTEXT.search(shape) and (HCCL_RET.search(shape) or HCCL_CODE.search(shape)):
            return True
    return bool(("0x" in shape or "0X" in shape) and EVENT_CONTEXT.search(shape) and FAULT_EVENT.search(shape))


def spans(shape: str) -> list[tuple[int, int]]:
    """Where a code could be on the lines of this shape: the spans of every match of ``extract``'s
    patterns, relaxed as in ``possible`` (none of the gates applied)."""
    out = []
    for rx in (TORCH_NPU, CANN, CANN_LOWER, SIX_DIGIT, _DCMI_ANY, HCCL_RET, HCCL_CODE, FAULT_EVENT):
        out.extend(m.span() for m in rx.finditer(shape))
    return out
