"""p50 / p95 of in-process fuzzy search over a synthetic knowledge base of 10,000 problems.

Target: p95 <= 10 ms. Prints figures; asserts nothing.
"""
from __future__ import annotations

import random
import shutil
import statistics
import tempfile
import time
from pathlib import Path

from ascend_doctor.kb.paths import KNOWLEDGE_DIR
from ascend_doctor.kb.query import KnowledgeBase

N = 10_000
WORDS_EN = ("hang stuck timeout driver firmware container device memory weight loading hccl socket kernel mismatch "
            "version operator graph capture stream dispatch expert parallel npu card health link port rank "
            "install package missing library symbol permission shared cache allocator fragment").split()
WORDS_ZH = "卡住 超时 驱动 固件 容器 设备 显存 权重 加载 通信 内核 版本 算子 图模式 专家 并行 健康 链路 端口 安装 权限 共享 缓存".split()
QUERIES = ["weight loading hang", "权重加载 卡住", "hccl socket timeout", "driver firmware mismatch", "容器 设备 缺少",
           "NPU out of memory", "graph capture stream", "561000", "libhccl.so not found", "两台 机器 通信 超时"]


def synth(kdir: Path, rng: random.Random) -> None:
    (kdir / "problems").mkdir(parents=True)
    (kdir / "codes").mkdir()
    (kdir / "compat").mkdir()
    for f in ("vocabulary.toml", "synonyms.toml"):
        shutil.copy(KNOWLEDGE_DIR / f, kdir / f)
    for fam in range(20):
        out = [f'[family]\ntitle.en = "Family {fam}"\ntitle.zh = "类别 {fam}"\n']
        for i in range(N // 20):
            en = " ".join(rng.choices(WORDS_EN, k=6))
            zh = "".join(rng.choices(WORDS_ZH, k=4))
            out.append(f'''
[[problem]]
id = "p-{fam}-{i}"
title.en = "{en}"
title.zh = "{zh}"
summary.en = "{' '.join(rng.choices(WORDS_EN, k=14))}"
summary.zh = "{''.join(rng.choices(WORDS_ZH, k=8))}"
root_cause.en = "synthetic"
root_cause.zh = "合成"
severity = "error"
hardware = ["any"]
components = ["driver"]
symptoms.en = ["{' '.join(rng.choices(WORDS_EN, k=5))}", "{' '.join(rng.choices(WORDS_EN, k=5))}"]
symptoms.zh = ["{''.join(rng.choices(WORDS_ZH, k=3))}"]
sources = ["https://www.hiascend.com/document"]
[[problem.fix]]
kind = "workaround"
summary.en = "x"
summary.zh = "x"
[[problem.fix.step]]
en = "x"
zh = "x"
''')
        (kdir / "problems" / f"fam{fam}.toml").write_text("".join(out), encoding="utf-8")


def main() -> None:
    rng = random.Random(7)
    with tempfile.TemporaryDirectory() as tmp:
        kdir = Path(tmp) / "knowledge"
        synth(kdir, rng)
        t = time.perf_counter()
        kb = KnowledgeBase(Path(tmp) / "kb.sqlite", knowledge_dir=kdir)
        print(f"built a synthetic KB of {N} problems in {time.perf_counter() - t:.1f} s")
        for q in QUERIES:          # warm-up: first query loads the normaliser
            kb.search(q)
        times = []
        for _ in range(30):
            for q in QUERIES:
                t = time.perf_counter()
                kb.search(q)
                times.append((time.perf_counter() - t) * 1000)
        times.sort()
        p50 = statistics.median(times)
        p95 = times[int(len(times) * 0.95) - 1]
        print(f"search over {N} problems: p50 {p50:.2f} ms, p95 {p95:.2f} ms over {len(times)} queries (target p95 <= 10 ms)")
        kb.close()


if __name__ == "__main__":
    main()
