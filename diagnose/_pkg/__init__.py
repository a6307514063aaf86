"""ascend-doctor: troubleshooting knowledge base and diagnostic assistant for Ascend NPU machines.

The code lives in three subpackages: ``ascend_doctor.kb`` (knowledge base),
``ascend_doctor.rules`` (rule engine) and ``ascend_doctor.diagnose`` (probes,
log scanning, front ends). See docs/architecture.md.
"""

__version__ = "0.1.0"
