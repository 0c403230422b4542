"""Confinement of the sandbox worker process, from inside it, with the standard library only (ctypes).

Applied once, in this order, by `roundtable.tools.sandbox.worker` before it
runs any program; each layer reports whether it is in force:

1. **limits** (``setrlimit``): address space (``RLIMIT_AS``), CPU seconds over
   the worker's life (``RLIMIT_CPU``), file size (``RLIMIT_FSIZE``), open
   files, no core dumps, no new processes (``RLIMIT_NPROC``);
2. **namespaces** (``unshare(2)``): a new user, mount, PID, network, IPC and
   UTS namespace, so the worker has no network interface but a down loopback;
3. **files and network** (Landlock, Linux 5.13+; TCP rules from ABI 4,
   signal and abstract-socket scoping from ABI 6): reading is allowed only
   beneath the standard library's directories (its ``site-packages`` excluded),
   reading and writing only beneath the worker's scratch directory;
4. **system calls** (seccomp-BPF, ``PR_SET_NO_NEW_PRIVS``): sockets, process
   creation (``fork``, ``clone``, ``execve``), signals to other processes,
   ``ptrace``, mounts, namespaces, raising limits, kernel keyrings, BPF and
   io_uring fail with ``EPERM``; any other architecture's calls kill the worker.

Sources: ``landlock(7)``, ``seccomp(2)``, ``unshare(2)``, ``setrlimit(2)`` (Linux
man-pages); the syscall numbers of ``arch/x86/entry/syscalls/syscall_64.tbl``
and ``include/uapi/asm-generic/unistd.h`` (aarch64).
"""

from __future__ import annotations

import ctypes
import os
import platform
import resource
import struct
import sysconfig

_libc = ctypes.CDLL(None, use_errno=True)
_libc.syscall.restype = ctypes.c_long

# --------------------------------------------------------------------- limits


def set_limits(memory_bytes: int, cpu_seconds: int, file_bytes: int) -> str:
    """Set the worker's resource limits (soft = hard, so the program cannot raise them).

    Returns:
        A one-line description of the limits set.
    """
    for limit, value in (
        (resource.RLIMIT_AS, memory_bytes),
        (resource.RLIMIT_CPU, cpu_seconds),
        (resource.RLIMIT_FSIZE, file_bytes),
        (resource.RLIMIT_NOFILE, 64),
        (resource.RLIMIT_CORE, 0),
        (resource.RLIMIT_NPROC, 0),
    ):
        resource.setrlimit(limit, (value, value))
    return f"memory {memory_bytes >> 20} MiB, CPU {cpu_seconds} s a worker, files {file_bytes >> 10} KiB, no processes"


# ----------------------------------------------------------------- namespaces

CLONE_NEWNS, CLONE_NEWUTS, CLONE_NEWIPC = 0x00020000, 0x04000000, 0x08000000
CLONE_NEWUSER, CLONE_NEWPID, CLONE_NEWNET = 0x10000000, 0x20000000, 0x40000000


def unshare_namespaces() -> str:
    """Move the worker into new user, mount, PID, network, IPC and UTS namespaces.

    Raises:
        OSError: the kernel refused (e.g. unprivileged user namespaces disabled).
    """
    flags = CLONE_NEWUSER | CLONE_NEWNS | CLONE_NEWPID | CLONE_NEWNET | CLONE_NEWIPC | CLONE_NEWUTS
    if _libc.unshare(flags) != 0:
        errno = ctypes.get_errno()
        raise OSError(errno, f"unshare: {os.strerror(errno)}")
    return "user, mount, pid, net, ipc, uts"


# ------------------------------------------------------------------- Landlock

_SYS_CREATE_RULESET = {"x86_64": 444, "aarch64": 444}
_SYS_ADD_RULE = {"x86_64": 445, "aarch64": 445}
_SYS_RESTRICT_SELF = {"x86_64": 446, "aarch64": 446}
_EXECUTE, _WRITE_FILE, _READ_FILE, _READ_DIR = 1 << 0, 1 << 1, 1 << 2, 1 << 3
_FS_V1 = (1 << 13) - 1  # EXECUTE .. MAKE_SYM
_REFER, _TRUNCATE, _IOCTL_DEV = 1 << 13, 1 << 14, 1 << 15
_NET_BIND_TCP, _NET_CONNECT_TCP = 1 << 0, 1 << 1
_SCOPE_ABSTRACT_UNIX, _SCOPE_SIGNAL = 1 << 0, 1 << 1
_READ_ONLY = _EXECUTE | _READ_FILE | _READ_DIR
_FILE_RIGHTS = _EXECUTE | _WRITE_FILE | _READ_FILE | _TRUNCATE | _IOCTL_DEV


class _PathBeneath(ctypes.Structure):
    _pack_ = 1
    _fields_ = [("allowed_access", ctypes.c_uint64), ("parent_fd", ctypes.c_int32)]


def landlock_abi() -> int:
    """The kernel's Landlock ABI version (0: unavailable)."""
    nr = _SYS_CREATE_RULESET.get(platform.machine())
    if nr is None:
        return 0
    version = _libc.syscall(nr, None, ctypes.c_size_t(0), ctypes.c_uint32(1))
    return max(int(version), 0)


def stdlib_paths() -> list[str]:
    """What a program may read: every entry of the standard library's directories but ``site-packages``."""
    roots = {os.path.realpath(sysconfig.get_paths()[k]) for k in ("stdlib", "platstdlib")}
    roots.add(os.path.realpath(os.path.dirname(os.__file__)))
    paths: list[str] = []
    for root in sorted(roots):
        for name in sorted(os.listdir(root)):
            if name not in ("site-packages", "dist-packages"):
                paths.append(os.path.join(root, name))
    return paths


def landlock(scratch: str) -> str:
    """Allow reading beneath the standard library only and writing beneath ``scratch`` only; no TCP; no signals out.

    Raises:
        OSError: Landlock is unavailable or a rule could not be added.
    """
    machine = platform.machine()
    abi = landlock_abi()
    if abi < 1:
        raise OSError("Landlock is not available in this kernel")
    fs = _FS_V1 | (_REFER if abi >= 2 else 0) | (_TRUNCATE if abi >= 3 else 0) | (_IOCTL_DEV if abi >= 5 else 0)
    net = (_NET_BIND_TCP | _NET_CONNECT_TCP) if abi >= 4 else 0
    scoped = (_SCOPE_ABSTRACT_UNIX | _SCOPE_SIGNAL) if abi >= 6 else 0
    attr = struct.pack("QQQ", fs, net, scoped)[: 8 if abi < 4 else 16 if abi < 6 else 24]
    buffer = ctypes.create_string_buffer(attr, len(attr))
    ruleset = _libc.syscall(_SYS_CREATE_RULESET[machine], buffer, ctypes.c_size_t(len(attr)), ctypes.c_uint32(0))
    if ruleset < 0:
        raise OSError(ctypes.get_errno(), "landlock_create_ruleset failed")
    try:
        roots = {os.path.realpath(sysconfig.get_paths()[k]) for k in ("stdlib", "platstdlib")}
        rules = [(root, _READ_DIR) for root in roots]
        rules += [(path, _READ_ONLY) for path in stdlib_paths()]
        rules.append((scratch, fs))
        for path, rights in rules:
            _add_rule(machine, ruleset, path, rights & fs)
        if _libc.prctl(38, 1, 0, 0, 0) != 0:  # PR_SET_NO_NEW_PRIVS
            raise OSError(ctypes.get_errno(), "PR_SET_NO_NEW_PRIVS failed")
        if _libc.syscall(_SYS_RESTRICT_SELF[machine], ctypes.c_int(ruleset), ctypes.c_uint32(0)) != 0:
            raise OSError(ctypes.get_errno(), "landlock_restrict_self failed")
    finally:
        os.close(ruleset)
    extra = ", TCP" if net else ""
    extra += ", signals and abstract sockets scoped" if scoped else ""
    return f"ABI {abi}: read the standard library, write the scratch directory{extra}"


def _add_rule(machine: str, ruleset: int, path: str, rights: int) -> None:
    try:
        fd = os.open(path, os.O_PATH | os.O_CLOEXEC)
    except OSError:
        return  # a dangling entry: nothing to allow
    try:
        if not os.path.isdir(path):
            rights &= _FILE_RIGHTS
        attr = _PathBeneath(rights, fd)
        if _libc.syscall(_SYS_ADD_RULE[machine], ctypes.c_int(ruleset), ctypes.c_int(1), ctypes.byref(attr),
                         ctypes.c_uint32(0)) != 0:
            raise OSError(ctypes.get_errno(), f"landlock_add_rule {path}: {os.strerror(ctypes.get_errno())}")
    finally:
        os.close(fd)


# -------------------------------------------------------------------- seccomp

_AUDIT_ARCH = {"x86_64": 0xC000003E, "aarch64": 0xC00000B7}
_DENIED = {
    # sockets, processes, signals to others, tracing, mounts and namespaces, limits, keys, BPF, io_uring, modules
    "x86_64": (41, 42, 43, 49, 50, 53, 288, 56, 57, 58, 435, 59, 322, 62, 200, 234, 129, 297, 424, 434, 438,
               101, 310, 311, 165, 166, 155, 161, 272, 308, 160, 302, 248, 249, 250, 321, 298, 323, 425, 426,
               427, 175, 176, 313, 246, 169, 167, 168, 303, 304, 163, 135),
    "aarch64": (198, 203, 202, 200, 201, 199, 242, 220, 435, 221, 281, 129, 130, 131, 138, 240, 424, 434, 438,
                117, 270, 271, 40, 39, 41, 51, 97, 268, 164, 261, 217, 218, 219, 280, 241, 282, 425, 426, 427,
                105, 106, 273, 104, 142, 224, 225, 264, 265, 89, 92),
}
_RET_ALLOW, _RET_KILL_PROCESS, _RET_ERRNO_EPERM = 0x7FFF0000, 0x80000000, 0x00050000 | 1


def _bpf(code: int, jt: int, jf: int, k: int) -> bytes:
    return struct.pack("HBBI", code, jt, jf, k)


def seccomp_filter() -> str:
    """Install the system-call filter (see the module docstring); irreversible for the worker.

    Raises:
        OSError: unsupported architecture, or the kernel refused the filter.
    """
    machine = platform.machine()
    if machine not in _AUDIT_ARCH:
        raise OSError(f"no seccomp filter for architecture {machine}")
    denied = _DENIED[machine]
    n = len(denied)
    program = [
        _bpf(0x20, 0, 0, 4),  # ld arch
        _bpf(0x15, 1, 0, _AUDIT_ARCH[machine]),
        _bpf(0x06, 0, 0, _RET_KILL_PROCESS),
        _bpf(0x20, 0, 0, 0),  # ld nr
        _bpf(0x35, n + 1, 0, 0x40000000),  # x32 calls: denied
    ]
    program += [_bpf(0x15, n - j, 0, nr) for j, nr in enumerate(denied)]
    program += [_bpf(0x06, 0, 0, _RET_ALLOW), _bpf(0x06, 0, 0, _RET_ERRNO_EPERM)]
    code = b"".join(program)
    filters = ctypes.create_string_buffer(code, len(code))

    class _Prog(ctypes.Structure):
        _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_void_p)]

    prog = _Prog(len(program), ctypes.cast(filters, ctypes.c_void_p))
    if _libc.prctl(38, 1, 0, 0, 0) != 0:  # PR_SET_NO_NEW_PRIVS
        raise OSError(ctypes.get_errno(), "PR_SET_NO_NEW_PRIVS failed")
    if _libc.prctl(22, 2, ctypes.byref(prog), 0, 0) != 0:  # PR_SET_SECCOMP, SECCOMP_MODE_FILTER
        raise OSError(ctypes.get_errno(), f"seccomp: {os.strerror(ctypes.get_errno())}")
    return f"{n} system calls denied ({machine})"
