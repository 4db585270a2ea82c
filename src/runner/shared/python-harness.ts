/**
 * The Python side of running one example in Pyodide, shared by the page's worker and by
 * `pybook check` under Node, so that the reader's runtime is the one the check vouches for.
 *
 * Each run gets what a fresh `python3 example.py` gets: its own folder holding a copy of the
 * book's fixtures, a real `__main__` module (typing.get_type_hints and pickle look it up), argv,
 * and no modules, environment variables or logging set-up left over from the run before.
 *
 * What the reset cannot undo is what a program did on the JavaScript side of Pyodide (a timer or
 * a listener it left behind would act during the next run). So during a run the modules that lead
 * there (js, pyodide_js, pyodide.*, _pyodide*) are taken out of sys.modules: a program reaches
 * JavaScript only by importing one again, and then `must_retire()` says so and the interpreter is
 * not used for another run (the page and \`pybook check\` start a new one). The same holds for
 * files: a run's folder is deleted after it, and a run that created, changed or deleted any file
 * or folder elsewhere in the interpreter's file system (/tmp, the home folder, the fixtures, the
 * standard library's folders) retires the interpreter too, whatever the path: the whole tree is
 * compared with the one the harness started with, not a list of places.
 */
export const FIXTURES_FOLDER = '/home/pyodide/fixtures';

export const PYTHON_HARNESS = String.raw`
import atexit, builtins, logging, os, shutil, sys, traceback, types, warnings

sys.stdout.reconfigure(line_buffering=True)
sys.stderr.reconfigure(line_buffering=True)
_modules_at_start = set(sys.modules)
_environ_at_start = dict(os.environ)
_builtins_at_start = dict(builtins.__dict__)
_path_at_start = list(sys.path)
_streams_at_start = (sys.stdin, sys.stdout, sys.stderr)
_filters_at_start = list(warnings.filters)
_recursion_limit = sys.getrecursionlimit()
_runs = [0]
_reached = [False]
_SKIPPED_ROOTS = ('dev', 'proc', 'sys')


def _file_system():
    # Every path of the interpreter's file system with its kind, and for a file its size and
    # modification time (a folder's own time changes whenever a run's folder comes and goes).
    found = {}
    for root, dirs, files in os.walk('/'):
        if root == '/':
            dirs[:] = [name for name in dirs if name not in _SKIPPED_ROOTS]
        for name in dirs + files:
            path = os.path.join(root, name)
            try:
                status = os.lstat(path)
            except OSError:
                continue
            found[path] = (status.st_mode,) if name in dirs else (status.st_mode, status.st_size, status.st_mtime_ns)
    return found


def _leads_to_javascript(name):
    top = name.split('.', 1)[0]
    return top in ('js', 'pyodide_js', 'pyodide') or top.startswith('_pyodide')


def must_retire():
    # Whether the last run imported a module that leads to JavaScript, or changed the file system
    # outside its own folder (see the note above): the interpreter then runs nothing more.
    return _reached[0]


def _exit_status(code):
    # What the interpreter does with SystemExit's argument.
    if code is None:
        return 0
    if isinstance(code, int):
        return code
    print(code, file=sys.stderr)
    return 1


def _forget_run_state(workdir):
    # Names a program rebound in a module that was loaded before it (json.dumps = ..., say) are
    # put back; compared by identity, so no code of the program's runs during the reset.
    for module, saved in _namespaces_at_start:
        namespace = vars(module)
        for name in [name for name in namespace if name not in saved]:
            del namespace[name]
        for name, value in saved.items():
            if namespace.get(name, _missing) is not value:
                namespace[name] = value
    sys.stdin, sys.stdout, sys.stderr = _streams_at_start
    for name in [name for name in builtins.__dict__ if name not in _builtins_at_start]:
        del builtins.__dict__[name]
    builtins.__dict__.update(_builtins_at_start)
    sys.path[:] = _path_at_start
    for name in list(sys.modules):
        if name not in _modules_at_start:
            del sys.modules[name]
    root = logging.getLogger()
    for handler in list(root.handlers):
        root.removeHandler(handler)
    root.setLevel(logging.WARNING)
    logging.Logger.manager.loggerDict.clear()
    logging.disable(logging.NOTSET)
    warnings.filters[:] = _filters_at_start
    os.environ.clear()
    os.environ.update(_environ_at_start)
    sys.setrecursionlimit(_recursion_limit)
    os.chdir('/')
    shutil.rmtree(workdir, ignore_errors=True)
    if _file_system() != _files_at_start:
        _reached[0] = True


def run_example(source, filename):
    _runs[0] += 1
    workdir = '/tmp/pybook-run-%d' % _runs[0]
    if os.path.isdir('${FIXTURES_FOLDER}'):
        shutil.copytree('${FIXTURES_FOLDER}', workdir)
    else:
        os.makedirs(workdir)
    os.chdir(workdir)
    path = os.path.join(workdir, filename)
    # On disk so that tracebacks can quote the lines.
    with open(path, 'w', encoding='utf-8') as file:
        file.write(source)
    main = types.ModuleType('__main__')
    main.__file__ = path
    main.__builtins__ = builtins
    saved_main, saved_argv = sys.modules['__main__'], sys.argv
    sys.modules['__main__'] = main
    sys.argv = [filename]
    sys.path.insert(0, workdir)
    status = 1
    bridges = {name: sys.modules.pop(name) for name in list(sys.modules) if _leads_to_javascript(name)}
    try:
        # Compiled under its short name, so tracebacks say "example.py" as the reader knows it.
        exec(compile(source, filename, 'exec'), main.__dict__)
        status = 0
    except SystemExit as error:
        status = _exit_status(error.code)
    except BaseException as error:
        sys.stdout.flush()
        # The harness's own frame is not part of the reader's program.
        traceback.print_exception(type(error), error, error.__traceback__.tb_next)
        status = 1
    finally:
        # As at the end of a python3 process: exit handlers run, then the streams are flushed.
        try:
            atexit._run_exitfuncs()
        finally:
            atexit._clear()
        sys.stdout.flush()
        sys.stderr.flush()
        sys.modules['__main__'] = saved_main
        sys.argv = saved_argv
        reached = [name for name in sys.modules if _leads_to_javascript(name)]
        for name in reached:
            del sys.modules[name]
        sys.modules.update(bridges)
        _reached[0] = bool(reached)
        _forget_run_state(workdir)
    return status


_missing = object()
# Taken last, once the harness itself is loaded: what every run starts from (the harness's own
# module aside: runs do not see it, sys.modules['__main__'] is theirs while they run).
_namespaces_at_start = [
    (module, dict(vars(module)))
    for name, module in list(sys.modules.items())
    if isinstance(module, types.ModuleType) and name != '__main__'
]
# And the file system every run starts from (the fixtures are in it: the host wrote them first).
_files_at_start = _file_system()
`;
