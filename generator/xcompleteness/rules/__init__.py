"""The semantic rules over canonical contracts (XC100-XC140, XC900).

May import: ``document``, ``load``, ``declare``, ``detect``, ``runtime``, ``diagnostics``.
"""

from xcompleteness.rules._run import RULES, run_rules
from xcompleteness.rules._todo import todo_diagnostics

__all__ = ["RULES", "run_rules", "todo_diagnostics"]
