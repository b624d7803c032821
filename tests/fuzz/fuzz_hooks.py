"""Loaded by schemathesis (SCHEMATHESIS_HOOKS, tests/fuzz/run.sh) before it starts its workers.

CPython 3.11's ast.parse is not safe to run in two threads at once: Hypothesis parses the source
of a filter's lambda to describe it, and two workers doing so together stop the run with
"AST constructor recursion depth mismatch" (seen when user/notices and user/loginHistory, with the
same query parameters, were fuzzed side by side). One lock around ast.parse keeps the workers
and only serialises that parsing.
"""

import ast
import threading

_lock = threading.Lock()
_parse = ast.parse


def _parse_one_at_a_time(*args, **kwargs):
    with _lock:
        return _parse(*args, **kwargs)


ast.parse = _parse_one_at_a_time
