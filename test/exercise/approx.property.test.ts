import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { exerciseProgram, parseExerciseReport } from '../../src/exercise/shared/harness.js';

/**
 * The harness's `pytest.approx` (the page has no pytest, so the harness brings its own) must judge
 * as pytest's does: a test that passes under pytest passes on the page, and the testing chapter's
 * claims about approx hold for both. Generated cases: numbers from 1e-15 to 1e15 of either sign and
 * zero, differences placed around each tolerance's edge, rel= and abs= each given or not, and
 * scalars, lists, tuples and dicts. Run with the machine's python3, whose pytest is the reference.
 */
const COMPARE = String.raw`
import random
from _pytest.python_api import approx as pytest_approx
import pytest


def _case(rng):
    expected = rng.choice([0.0, 0, 1, -7, rng.choice([-1, 1]) * 10 ** rng.uniform(-15, 15)])
    rel = rng.choice([None, None, 10 ** rng.uniform(-9, -1)])
    tol = rng.choice([None, None, 10 ** rng.uniform(-13, 0)])
    edge = rng.choice([1e-12, 1e-6 * abs(expected), (rel or 0) * abs(expected), tol or 0, 0])
    actual = expected + rng.choice([-1, 1]) * edge * rng.choice([0.5, 0.999, 1.001, 2, 0])
    return expected, actual, rel, tol


def _shaped(rng, pairs):
    shape = rng.choice(["scalar", "list", "tuple", "dict"])
    expected = [e for e, _ in pairs]
    actual = [a for _, a in pairs]
    if shape == "scalar":
        return expected[0], actual[0]
    if shape == "dict":
        return dict(zip("abc", expected)), dict(zip("abc", actual))
    kind = list if shape == "list" else tuple
    return kind(expected), kind(actual)


def test_the_harness_approx_judges_as_pytest_does():
    rng = random.Random(20261129)
    disagreements = []
    for _ in range(3000):
        cases = [_case(rng) for _ in range(3)]
        _, _, rel, tol = cases[0]
        expected, actual = _shaped(rng, [(e, a) for e, a, _, _ in cases])
        ours = actual == pytest.approx(expected, rel=rel, abs=tol)
        theirs = actual == pytest_approx(expected, rel=rel, abs=tol)
        if ours != theirs:
            disagreements.append((expected, actual, rel, tol, ours, theirs))
    assert disagreements[:5] == []
    assert pytest.approx is not pytest_approx
`;

describe("the exercise harness's pytest.approx", () => {
  it('judges 3,000 generated comparisons as pytest does (rel= and abs= given or not; numbers, lists, tuples, dicts)', () => {
    const run = spawnSync('python3', ['-c', exerciseProgram('', COMPARE)], { encoding: 'utf8', timeout: 60_000 });
    const report = parseExerciseReport(run.stdout);
    expect(report, run.stderr).toBeDefined();
    expect(report!.error).toBeUndefined();
    expect(report!.cases.map((c) => [c.name, c.passed, c.error ?? ''])).toEqual([
      ['test_the_harness_approx_judges_as_pytest_does', true, ''],
    ]);
  });
});
