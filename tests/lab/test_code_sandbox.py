"""The red team: learner code that tries to harm the server or fake a pass, run through the
real sandbox (lab/code_sandbox.py). Each is contained, and the result says what happened in
words a learner can act on (the page's messages: lab/code_text.py).

"Contained" means: the server's process is untouched and keeps answering; the run ends by its
limits (CPU, wall clock, memory, file size, no processes); nothing of the app (its files, its
secrets, its modules, its environment), of the system (/etc) or of the network is reachable;
and no output the code writes can make the parent count a pass."""

from __future__ import annotations

import os
import socket
from pathlib import Path

import pytest

from lab import code_check as C
from lab import code_sandbox as S
from lab import code_text

ROOT = Path(__file__).resolve().parents[2]


def run(body: str, *, module: str = "", args=(1,), how=None):
    code = module + "\ndef f(x):\n" + "".join(f"    {line}\n" for line in body.splitlines())
    return S.run(code, "f", [list(args)], how=how)


# Both ways of isolating a run: "root" (the server runs as root: the learner's code as the
# slot's unprivileged user id) and "userns" (a server that is not root: a user namespace
# whose root has dropped every capability). Only the fork limit differs: in a user
# namespace it binds the server's user, and this suite runs as root, which the kernel
# exempts; the fork bomb is tested in the root mode only.
HOW = ["root", "userns"]


def error(out) -> str:
    assert out.problem is None, out
    return out.outputs[0].get("error", "")


def test_an_endless_loop_in_a_call_is_stopped_and_named():
    out = run("while True:\n    pass")
    assert out.outputs == [{"timeout": S.LIMITS["call_cpu_s"]}]
    assert "endless loop" in code_text.call_problem(out.outputs[0], "en")


def test_an_endless_loop_that_swallows_the_alarm_is_killed_by_the_clock_or_the_cpu_limit():
    out = run("while True:\n    try:\n        while True:\n            pass\n"
              "    except BaseException:\n        pass")
    assert out.problem in ("timeout", "killed")
    assert out.seconds < S.LIMITS["wall_s"] + 2


def test_an_endless_loop_at_import_is_stopped():
    out = S.run("while True:\n    pass\n", "f", [[1]])
    assert out.problem == "timeout"


@pytest.mark.parametrize("how", HOW)
def test_a_2_gb_allocation_is_a_memory_error(how):
    out = run("x = bytearray(2 * 1024 ** 3)\nreturn len(x)", how=how)
    assert error(out).startswith("MemoryError")


def test_a_fork_bomb_cannot_start_one_process():
    message = error(run("import os\nwhile True:\n    os.fork()"))
    assert message.startswith("BlockingIOError")


def test_os_system_and_subprocess_cannot_run_anything():
    out = run("import os\nreturn os.system('echo hacked > /tmp/x')")
    assert out.outputs[0]["value"] != 0
    assert error(run("import subprocess\nreturn subprocess.run(['ls']).returncode"))


@pytest.mark.parametrize("how", HOW)
def test_writing_a_large_file_fails_at_the_file_size_limit(how):
    message = error(run("with open('/tmp/big', 'wb') as f:\n"
                        "    for _ in range(100):\n        f.write(b'x' * 1024 * 1024)", how=how))
    assert message.startswith("OSError")


@pytest.mark.parametrize("how", HOW)
@pytest.mark.parametrize("path", ["/etc/passwd", str(ROOT / "lab" / "code_check.py"),
                                  str(ROOT / ".streamlit" / "secrets.toml"),
                                  "/proc/1/environ", "/root/.bash_history"])
def test_no_file_outside_the_sandbox_can_be_read(path, how):
    """The system's users, the app's code and secrets, other processes: none exists there."""
    assert error(run(f"return len(open({path!r}).read())", how=how)).startswith(
        ("FileNotFoundError", "PermissionError"))


@pytest.mark.parametrize("how", HOW)
def test_the_root_holds_only_the_standard_library_and_tmp(how):
    out = run("import os\nreturn len(os.listdir('/'))", how=how)
    assert out.outputs[0]["value"] == 2.0   # /tmp and the standard library's top directory


@pytest.mark.parametrize("how", HOW)
def test_no_socket_reaches_a_server_listening_on_this_machine(how):
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen()
        port = server.getsockname()[1]
        message = error(run(f"import socket\nsocket.create_connection(('127.0.0.1', {port}), "
                            "timeout=2)", how=how))
    assert message.startswith("OSError") and "unreachable" in message


def test_the_environment_is_empty_and_the_user_unprivileged():
    out = run("import os\nreturn len(os.environ) * 1000 + (os.getuid() >= 61000)")
    assert out.outputs[0]["value"] == 1.0


def test_sys_exit_is_an_error_of_the_call():
    assert error(run("import sys\nsys.exit(0)")).startswith("SystemExit")


def test_os_exit_ends_the_run_with_a_message():
    out = run("import os\nos._exit(0)")
    assert out.problem == "killed"
    assert "ended" in code_text.outcome_message(C.Report("dcg", problem="killed", detail="0"))


def test_killing_every_process_it_can_reaches_only_itself():
    out = run("import os, signal\nos.kill(-1, signal.SIGKILL)\nos.kill(1, signal.SIGKILL)")
    assert out.problem in ("killed", None)
    assert os.getpid() > 0 and S.run("def f(x):\n    return x\n", "f", [[2]]).outputs == [
        {"value": 2.0}]


def test_deep_recursion_is_a_recursion_error():
    out = S.run("def f(x):\n    return f(x + 1)\n", "f", [[1]])
    assert out.outputs[0]["error"].startswith("RecursionError")


def test_printing_100_mb_keeps_a_few_thousand_characters():
    out = run("print('x' * 100_000_000)\nreturn 1")
    assert out.outputs == [{"value": 1.0}]
    assert len(out.printed) < 5000 and "more characters" in out.printed


def test_writing_100_mb_to_the_real_stdout_goes_nowhere():
    out = run("import os\nfor _ in range(100):\n    os.write(1, b'x' * 1_000_000)\nreturn 1")
    assert out.outputs == [{"value": 1.0}]


def test_a_del_that_loops_is_stopped_with_its_call():
    """The call's CPU alarm interrupts the loop (Python reports an exception in __del__ and
    goes on), so the call returns."""
    out = run("A()\nreturn 1", module="class A:\n    def __del__(self):\n        while True:\n"
                                       "            pass\n")
    assert out.outputs in ([{"value": 1.0}], [{"timeout": S.LIMITS["call_cpu_s"]}])
    assert out.seconds < S.LIMITS["wall_s"]
    out = S.run("class A:\n    def __del__(self):\n        while True: pass\n"
                "a = A()\ndef f(x):\n    return x\n", "f", [[3]])
    assert out.outputs == [{"value": 3.0}]   # never called: the run ends before exit


@pytest.mark.parametrize("how", HOW)
@pytest.mark.parametrize("module", ["ndcg_core", "lab.code_check", "numpy", "sklearn"])
def test_the_apps_modules_and_installed_packages_cannot_be_imported(module, how):
    body = f"import sys\nsys.path[:0] = [{str(ROOT)!r}]\nimport {module}"
    assert error(run(body, how=how)).startswith("ModuleNotFoundError")


def test_a_forged_result_line_is_not_believed():
    """The code writes a result line, as the sandbox would, on every descriptor: the parent
    finds no result with its nonce, and no pass is counted."""
    forged = ("import os\nline = b'NDCG-RESULT 0 {\"outputs\": [{\"value\": 6.8611}]}\\n'\n"
              "for fd in range(3, 16):\n    try:\n        os.write(fd, line)\n"
              "    except OSError:\n        pass\nos._exit(0)\n")
    report = C.check("dcg", forged + "def dcg(grades, k=None):\n    return 0\n")
    assert report.problem in ("bad_output", "killed") and report.passed == 0


@pytest.mark.parametrize("how", HOW)
def test_no_privilege_is_left_to_leave_the_root_or_lift_a_limit(how):
    """chroot out, mount, raise the CPU limit: each refused (as the slot's user, or as a user
    namespace's root without capabilities)."""
    body = ("import os, resource\nout = []\n"
            "for act in (lambda: os.chroot('/tmp'), lambda: os.setgroups([0]),\n"
            "            lambda: resource.setrlimit(resource.RLIMIT_CPU, (100, 100))):\n"
            "    try:\n        act()\n        out.append(1)\n"
            "    except (PermissionError, ValueError):\n        out.append(0)\n"
            "return sum(out)")
    out = run(body, how=how)
    assert out.outputs == [{"value": 0.0}], out
