"""The language the knowledge and the rules are written in: facts and their keys (``facts.py``,
``fact_keys.py``), the Ascend version grammar (``version.py``) and conditions over facts
(``conditions/``). It imports nothing else of ours, so the knowledge loader, the rule catalogue and
the diagnosis all validate and evaluate with the same grammar."""
