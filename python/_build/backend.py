"""A PEP 517 build backend in the standard library, so ``pip install ./python`` works offline
(setuptools needs the ``wheel`` package, which a machine without network may lack)."""

import base64
import hashlib
import io
import os
import tarfile
import zipfile

NAME = "envsched"
VERSION = "0.1.0"
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
METADATA = f"""Metadata-Version: 2.1
Name: {NAME}
Version: {VERSION}
Summary: Python client of envsched serve (EnvSched, arXiv 2610.37609) with verl and slime adapters; standard library only
License: MIT
Requires-Python: >=3.10
"""
WHEEL = "Wheel-Version: 1.0\nGenerator: envsched-backend\nRoot-Is-Purelib: true\nTag: py3-none-any\n"


def _package_files():
    base = os.path.join(ROOT, NAME)
    for name in sorted(os.listdir(base)):
        if name.endswith(".py"):
            yield f"{NAME}/{name}", os.path.join(base, name)


def _record_line(path, data):
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{path},sha256={digest},{len(data)}"


def get_requires_for_build_wheel(config_settings=None):
    return []


def get_requires_for_build_sdist(config_settings=None):
    return []


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    info = f"{NAME}-{VERSION}.dist-info"
    wheel_name = f"{NAME}-{VERSION}-py3-none-any.whl"
    records = []
    with zipfile.ZipFile(os.path.join(wheel_directory, wheel_name), "w", zipfile.ZIP_DEFLATED) as whl:
        entries = [(arc, open(path, "rb").read()) for arc, path in _package_files()]
        entries += [(f"{info}/METADATA", METADATA.encode()), (f"{info}/WHEEL", WHEEL.encode())]
        for arc, data in entries:
            whl.writestr(arc, data)
            records.append(_record_line(arc, data))
        records.append(f"{info}/RECORD,,")
        whl.writestr(f"{info}/RECORD", "\n".join(records) + "\n")
    return wheel_name


def get_requires_for_build_editable(config_settings=None):
    return []


def build_editable(wheel_directory, config_settings=None, metadata_directory=None):
    """``pip install -e ./python``: a wheel whose .pth file puts this folder on sys.path."""
    info = f"{NAME}-{VERSION}.dist-info"
    wheel_name = f"{NAME}-{VERSION}-py3-none-any.whl"
    entries = [(f"__editable__.{NAME}.pth", (ROOT + "\n").encode()), (f"{info}/METADATA", METADATA.encode()), (f"{info}/WHEEL", WHEEL.encode())]
    with zipfile.ZipFile(os.path.join(wheel_directory, wheel_name), "w", zipfile.ZIP_DEFLATED) as whl:
        records = []
        for arc, data in entries:
            whl.writestr(arc, data)
            records.append(_record_line(arc, data))
        records.append(f"{info}/RECORD,,")
        whl.writestr(f"{info}/RECORD", "\n".join(records) + "\n")
    return wheel_name


def build_sdist(sdist_directory, config_settings=None):
    name = f"{NAME}-{VERSION}"
    with tarfile.open(os.path.join(sdist_directory, f"{name}.tar.gz"), "w:gz") as tar:
        for rel in ["pyproject.toml", "README.md", "_build/backend.py"] + [arc for arc, _ in _package_files()]:
            tar.add(os.path.join(ROOT, rel), arcname=f"{name}/{rel}")
        info = tarfile.TarInfo(f"{name}/PKG-INFO")
        data = METADATA.encode()
        info.size = len(data)
        tar.addfile(info, io.BytesIO(data))
    return f"{name}.tar.gz"
