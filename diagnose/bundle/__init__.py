"""The support bundle (``ascend-doctor bundle``): everything support asks for, in one private archive.

One module per job: ``model.py`` (an entry of the bundle and what happened to it), ``redact.py`` (what is
removed from every text before it is kept), ``devices.py`` (``npu-smi info -t health|ecc|board|usages`` per
device and die), ``kernel.py`` (the kernel's Ascend-related messages), ``logs.py`` (the newest host, device
and application log files within a size limit), ``archive.py`` (the manifest and the ``.tar.gz``). The
service ``services/bundle.py`` puts them together with the snapshot; every machine access goes through the
``System`` seam, read-only, each command with a time-out.
"""
