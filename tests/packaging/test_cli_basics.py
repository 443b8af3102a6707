import subprocess
import sys

from xcompleteness.cli import main


def test_version_flag_exits_zero(capsys):
    try:
        main(["--version"])
    except SystemExit as exc:
        assert exc.code == 0
    assert "xcompleteness" in capsys.readouterr().out


def test_bad_arguments_exit_2():
    proc = subprocess.run(
        [sys.executable, "-m", "xcompleteness", "check"], capture_output=True, text=True
    )
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr
