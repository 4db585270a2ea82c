/**
 * The exercise harness: one Python program that loads a candidate solution, runs the exercise's
 * `def test_…():` functions against it and prints one report line. Shared by `pybook check` (on
 * CPython, and in Pyodide) and by the page's Check button, so the reader's verdict is the one the
 * check vouches for. No pytest: plain `assert`s, so it runs wherever Python does.
 *
 * A failing `assert actual == expected` is reported with both sides: the harness finds the assert
 * that failed in the tests' syntax tree and evaluates its two sides again in the test's frame.
 * That is why tests must keep the sides of an assert free of side effects (docs/authoring.md).
 *
 * Tests may use the part of pytest a chapter teaches: `@pytest.fixture` (also with `yield`, and
 * the built-in `tmp_path` and `capsys`), `@pytest.mark.parametrize`, `pytest.raises` (with
 * `match`) and `pytest.approx`. The harness provides these itself as the module `pytest` (the
 * page's Python has no pytest, and the check must judge what the page judges), and runs each
 * parametrized case as a case of its own (`test_x[1-2]`). A candidate that is itself a set of
 * tests (the testing chapter's exercise) is run by the exercise's tests with `run_tests(...)`.
 */

/** The line before the report's JSON; the candidate's own prints are captured apart. */
export const REPORT_MARKER = '\x1epybook-exercise ';

const HARNESS = String.raw`
import ast, contextlib, inspect, io, json, math, os, re, sys, tempfile, traceback, types
from pathlib import Path


def _pytest_module():
    module = types.ModuleType("pytest")

    def fixture(function=None, **options):
        def mark(f):
            f._pybook_fixture = options.get("name") or f.__name__
            return f
        return mark(function) if callable(function) else mark

    class _Mark:
        def parametrize(self, names, values, ids=None):
            def mark(f):
                f._pybook_params = getattr(f, "_pybook_params", []) + [(names, list(values), ids)]
                return f
            return mark

        def __getattr__(self, name):
            # Other marks (slow, skip…) label a test; the harness runs it as it is.
            return lambda *args, **kwargs: (args[0] if len(args) == 1 and callable(args[0]) and not kwargs else (lambda f: f))

    class _ExceptionInfo:
        type = value = None

    class _Raises:
        def __init__(self, expected, match=None):
            self.expected, self.match, self.info = expected, match, _ExceptionInfo()

        def __enter__(self):
            return self.info

        def __exit__(self, kind, value, tb):
            if kind is None:
                raise AssertionError("DID NOT RAISE " + getattr(self.expected, "__name__", str(self.expected)))
            if not issubclass(kind, self.expected):
                return False
            if self.match is not None and not re.search(self.match, str(value)):
                raise AssertionError("Regex pattern did not match.\n Regex: " + repr(self.match) + "\n Input: " + repr(str(value)))
            self.info.type, self.info.value = kind, value
            return True

    class _Approx:
        # pytest's rules: by default within 1e-6 relative or 1e-12 absolute; abs= alone drops the
        # relative tolerance; rel= alone keeps the default absolute one. Numbers, and lists, tuples
        # and dicts of numbers compared item by item (the chapters' uses).
        def __init__(self, expected, rel=None, abs=None):
            self.expected, self.rel, self.abs = expected, rel, abs

        def _close(self, actual, expected):
            if actual == expected:
                return True
            if not isinstance(actual, (int, float)) or math.isinf(actual) or math.isinf(expected):
                return False
            tolerance = 1e-12 if self.abs is None else self.abs
            if self.rel is not None or self.abs is None:
                tolerance = max(tolerance, (1e-6 if self.rel is None else self.rel) * abs(expected))
            return abs(actual - expected) <= tolerance

        def __eq__(self, actual):
            if isinstance(self.expected, dict):
                return isinstance(actual, dict) and actual.keys() == self.expected.keys() and all(
                    self._close(actual[k], v) for k, v in self.expected.items()
                )
            if isinstance(self.expected, (list, tuple)):
                return (
                    isinstance(actual, (list, tuple))
                    and len(actual) == len(self.expected)
                    and all(self._close(a, b) for a, b in zip(actual, self.expected))
                )
            return self._close(actual, self.expected)

        def __repr__(self):
            return "approx(" + repr(self.expected) + ")"

    module.fixture, module.mark = fixture, _Mark()
    module.raises = lambda expected, *, match=None: _Raises(expected, match)
    module.approx = lambda expected, rel=None, abs=None: _Approx(expected, rel, abs)
    return module


class _Captured:
    def __init__(self):
        self.out, self.err = io.StringIO(), io.StringIO()

    def readouterr(self):
        result = types.SimpleNamespace(out=self.out.getvalue(), err=self.err.getvalue())
        self.out.seek(0), self.out.truncate(), self.err.seek(0), self.err.truncate()
        return result


def _cases(function):
    # Every combination of the function's parametrize marks, as (id, arguments).
    cases = [("", {})]
    for names, values, ids in reversed(getattr(function, "_pybook_params", [])):
        names = [n.strip() for n in names.split(",")] if isinstance(names, str) else list(names)
        expanded = []
        for i, value in enumerate(values):
            row = value if len(names) > 1 else (value,)
            label = ids[i] if ids else "-".join(str(v) if isinstance(v, (int, float, str, bool)) or v is None else names[k] + str(i) for k, v in enumerate(row))
            for case_id, arguments in cases:
                expanded.append(((case_id + "-" if case_id else "") + str(label), {**arguments, **dict(zip(names, row))}))
        cases = expanded
    return cases


def _call(function, arguments, namespace, output):
    # Calls a test with its parametrized arguments and its fixtures (found by name, set up before
    # it, torn down after it, each once per test).
    fixtures = {getattr(f, "_pybook_fixture"): f for f in list(namespace.values()) if callable(f) and hasattr(f, "_pybook_fixture")}
    made, teardown = {}, []

    def value(name):
        if name in arguments:
            return arguments[name]
        if name in made:
            return made[name]
        if name == "tmp_path":
            made[name] = Path(tempfile.mkdtemp())
        elif name == "capsys":
            made[name] = _Captured()
        elif name in fixtures:
            f = fixtures[name]
            result = f(**{p: value(p) for p in inspect.signature(f).parameters})
            if inspect.isgenerator(result):
                teardown.append(result)
                result = next(result)
            made[name] = result
        else:
            raise LookupError("fixture '" + name + "' not found")
        return made[name]

    try:
        kwargs = {p: value(p) for p in inspect.signature(function).parameters}
        captured = made.get("capsys")
        if captured is not None:
            with contextlib.redirect_stdout(captured.out), contextlib.redirect_stderr(captured.err):
                function(**kwargs)
        else:
            with contextlib.redirect_stdout(output):
                function(**kwargs)
    finally:
        for generator in reversed(teardown):
            next(generator, None)


def run_tests(names, namespace, output, **replace):
    # Runs the test functions "names" of "namespace", with some of its names replaced (the
    # implementation under test, say): {case name: True, or the failure}.
    saved = {key: namespace.get(key) for key in replace}
    namespace.update(replace)
    results = {}
    try:
        for name in names:
            for case_id, arguments in _cases(namespace[name]):
                case = name + ("[" + case_id + "]" if case_id else "")
                try:
                    _call(namespace[name], arguments, namespace, output)
                    results[case] = True
                except BaseException as error:
                    results[case] = _describe(error)
    finally:
        namespace.update(saved)
    return results


def _describe(error):
    return "".join(traceback.format_exception_only(type(error), error)).strip()


def _line_in_candidate(error):
    # The line of the reader's code where the error was raised (the innermost frame of
    # exercise.py), or where a syntax error is; None when the error is not in their code.
    if isinstance(error, SyntaxError) and error.filename == "exercise.py":
        return error.lineno
    line = None
    for frame, frame_line in traceback.walk_tb(error.__traceback__):
        if frame.f_code.co_filename == "exercise.py":
            line = frame_line
    return line


def _failed_assert(error, asserts, source):
    # The innermost frame of the tests file, and the assert statement that spans its line.
    frame, line = None, None
    for tb_frame, tb_line in traceback.walk_tb(error.__traceback__):
        if tb_frame.f_code.co_filename == "tests.py":
            frame, line = tb_frame, tb_line
    if frame is None:
        return {}
    node = next((n for n in asserts if n.lineno <= line <= (n.end_lineno or n.lineno)), None)
    if node is None:
        return {}
    case = {"line": node.lineno, "expression": ast.get_source_segment(source, node.test)}
    test = node.test
    if isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], ast.Eq):
        case["input"] = ast.get_source_segment(source, test.left)
        try:
            scope = dict(frame.f_globals)
            scope.update(frame.f_locals)
            case["actual"] = repr(eval(case["input"], scope))
            case["expected"] = repr(eval(ast.get_source_segment(source, test.comparators[0]), scope))
        except Exception as again:
            case["actual"] = "(could not evaluate again: " + _describe(again) + ")"
    return case


def _run_exercise(candidate, tests):
    report = {"cases": [], "output": ""}
    namespace = {"__name__": "__main__"}
    captured = io.StringIO()
    sys.modules["pytest"] = _pytest_module()
    try:
        with contextlib.redirect_stdout(captured):
            exec(compile(candidate, "exercise.py", "exec"), namespace)
    except BaseException as error:
        report["error"] = "exercise.py: " + _describe(error)
        report["errorLine"] = _line_in_candidate(error)
        report["output"] = captured.getvalue()
        return report
    # The candidate's own tests (an exercise in writing tests), for the exercise's tests to run.
    own = [name for name, f in namespace.items() if name.startswith("test_") and callable(f)]
    namespace["run_tests"] = lambda **replace: run_tests(own, namespace, captured, **replace)
    tree = ast.parse(tests, "tests.py")
    asserts = [node for node in ast.walk(tree) if isinstance(node, ast.Assert)]
    try:
        exec(compile(tree, "tests.py", "exec"), namespace)
    except BaseException as error:
        report["error"] = "tests.py: " + _describe(error)
        return report
    names = [n.name for n in tree.body if isinstance(n, ast.FunctionDef) and n.name.startswith("test_")]
    for name in names:
        for case_id, arguments in _cases(namespace[name]):
            case = {"name": name + ("[" + case_id + "]" if case_id else ""), "passed": True}
            try:
                _call(namespace[name], arguments, namespace, captured)
            except AssertionError as error:
                # Evaluating the sides again may print too: that goes with the candidate's output.
                with contextlib.redirect_stdout(captured):
                    case.update(passed=False, error=_describe(error), **_failed_assert(error, asserts, tests))
                case["codeLine"] = _line_in_candidate(error)
            except BaseException as error:
                case.update(passed=False, error=_describe(error), codeLine=_line_in_candidate(error))
            report["cases"].append(case)
    report["output"] = captured.getvalue()[:4000]
    return report
`;

/** The program that checks `candidate` against `tests`; its last line is the report. */
export function exerciseProgram(candidate: string, tests: string): string {
  // A JSON string is also a valid Python string literal.
  return `${HARNESS}\nprint(${JSON.stringify(REPORT_MARKER)} + json.dumps(_run_exercise(${JSON.stringify(candidate)}, ${JSON.stringify(tests)})))\n`;
}

/** One test function's result. */
export interface ExerciseCase {
  name: string;
  passed: boolean;
  /** The failure: the AssertionError or the exception, as its last traceback line. */
  error?: string;
  /** The failing assert: its line in the tests block, its expression, and for `a == b` both sides. */
  line?: number;
  /** The line of the reader's code where the failure was raised, when it was raised there. */
  codeLine?: number | null;
  expression?: string;
  input?: string;
  expected?: string;
  actual?: string;
}

export interface ExerciseReport {
  cases: ExerciseCase[];
  /** What the candidate or the tests raised while loading: then no case ran. */
  error?: string;
  /** The line of the reader's code that error points at (a syntax error, an exception at load). */
  errorLine?: number | null;
  /** What the candidate printed (first 4,000 characters). */
  output: string;
}

/** Reads the report from the harness's standard output, or undefined when it printed none. */
export function parseExerciseReport(stdout: string): ExerciseReport | undefined {
  const line = stdout
    .split('\n')
    .reverse()
    .find((l) => l.startsWith(REPORT_MARKER));
  return line === undefined ? undefined : (JSON.parse(line.slice(REPORT_MARKER.length)) as ExerciseReport);
}

/** Whether every case passed (and there was at least one, and nothing failed to load). */
export const allPassed = (report: ExerciseReport): boolean =>
  !report.error && report.cases.length > 0 && report.cases.every((c) => c.passed);
