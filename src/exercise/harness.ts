/**
 * The exercise harness: one Python program that loads a candidate solution, runs the exercise's
 * `def test_…():` functions against it and prints one report line. Shared by `pybook check` (on
 * CPython, and in Pyodide) and by the page's Check button, so the reader's verdict is the one the
 * check vouches for. No pytest: plain `assert`s, so it runs wherever Python does.
 *
 * A failing `assert actual == expected` is reported with both sides: the harness finds the assert
 * that failed in the tests' syntax tree and evaluates its two sides again in the test's frame.
 * That is why tests must keep the sides of an assert free of side effects (docs/authoring.md).
 */

/** The line before the report's JSON; the candidate's own prints are captured apart. */
export const REPORT_MARKER = '\x1epybook-exercise ';

const HARNESS = String.raw`
import ast, contextlib, io, json, sys, traceback


def _describe(error):
    return "".join(traceback.format_exception_only(type(error), error)).strip()


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
    try:
        with contextlib.redirect_stdout(captured):
            exec(compile(candidate, "exercise.py", "exec"), namespace)
    except BaseException as error:
        report["error"] = "exercise.py: " + _describe(error)
        report["output"] = captured.getvalue()
        return report
    tree = ast.parse(tests, "tests.py")
    asserts = [node for node in ast.walk(tree) if isinstance(node, ast.Assert)]
    try:
        exec(compile(tree, "tests.py", "exec"), namespace)
    except BaseException as error:
        report["error"] = "tests.py: " + _describe(error)
        return report
    names = [n.name for n in tree.body if isinstance(n, ast.FunctionDef) and n.name.startswith("test_")]
    for name in names:
        case = {"name": name, "passed": True}
        try:
            with contextlib.redirect_stdout(captured):
                namespace[name]()
        except AssertionError as error:
            # Evaluating the sides again may print too: that goes with the candidate's output.
            with contextlib.redirect_stdout(captured):
                case.update(passed=False, error=_describe(error), **_failed_assert(error, asserts, tests))
        except BaseException as error:
            case.update(passed=False, error=_describe(error))
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
  expression?: string;
  input?: string;
  expected?: string;
  actual?: string;
}

export interface ExerciseReport {
  cases: ExerciseCase[];
  /** What the candidate or the tests raised while loading: then no case ran. */
  error?: string;
  /** What the candidate printed (first 4,000 characters). */
  output: string;
}

/** Reads the report from the harness's standard output, or undefined when it printed none. */
export function parseExerciseReport(stdout: string): ExerciseReport | undefined {
  const line = stdout.split('\n').reverse().find((l) => l.startsWith(REPORT_MARKER));
  return line === undefined ? undefined : (JSON.parse(line.slice(REPORT_MARKER.length)) as ExerciseReport);
}

/** Whether every case passed (and there was at least one, and nothing failed to load). */
export const allPassed = (report: ExerciseReport): boolean => !report.error && report.cases.length > 0 && report.cases.every((c) => c.passed);
