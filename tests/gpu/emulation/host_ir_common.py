"""What nvptx_host_ir.py and amdgcn_host_ir.py share: rewriting a device
module's definitions for the grid emulation, and --plain-atomics."""
import re


def read_arguments(args):
    """[--plain-atomics] [--grid] MODULE TRIPLE: (plain, grid, the module's
    text, the host's triple)."""
    plain = "--plain-atomics" in args
    args = [a for a in args if a != "--plain-atomics"]
    grid = args[0] == "--grid"
    args = args[1:] if grid else args
    return plain, grid, open(args[0]).read(), args[1]


def split_params(text):
    """The parameters of a definition's list, split at top-level commas."""
    params, depth, quoted, cur = [], 0, False, ""
    for ch in text:
        if ch == '"':
            quoted = not quoted
        elif not quoted and ch in "({[<":
            depth += 1
        elif not quoted and ch in ")}]>":
            depth -= 1
        if ch == "," and depth == 0 and not quoted:
            params.append(cur.strip())
            cur = ""
        else:
            cur += ch
    if cur.strip():
        params.append(cur.strip())
    return params


def internalize(line):
    """A definition or global of the device module, made internal."""
    m = re.match(r"(define|@[\w.$\"]+ =) ((?:(?:linkonce_odr|weak_odr|"
                 r"linkonce|weak|available_externally|dso_local|"
                 r"hidden|protected|local_unnamed_addr|unnamed_addr) )*)(.*)",
                 line)
    if not m or m.group(3).split(" ")[0] in ("internal", "private",
                                             "external", "extern_weak",
                                             "appending"):
        return line
    keep = [w for w in m.group(2).split() if w.endswith("unnamed_addr")]
    rest = re.sub(r",? comdat(\([^)]*\))?", "", m.group(3))
    return " ".join([m.group(1), "internal"] + keep + [rest])


ATOMIC_ADD = re.compile(r"^(\s*)(%[\w.]+) = atomicrmw (?:volatile )?fadd "
                        r"(ptr(?: addrspace\(\d+\))?) (%[\w.]+), "
                        r"(double|float) (%[\w.]+|[-\w.+]+) .*$")


def plain_add(line):
    """An atomic add made a plain load, add and store (--plain-atomics: a
    check that the emulation notices the additions such code loses), with
    a yield of the host thread between them, so that the threads that
    meet there interleave."""
    m = ATOMIC_ADD.match(line)
    if not m:
        return line
    pad, res, ptr, at, ty, val = m.groups()
    name = "%plain." + res[1:]
    return ("%s%s = load %s, %s %s\n%scall void @emu_yield()\n"
            "%s%s = fadd %s %s, %s\n%sstore %s %s, %s %s"
            % (pad, res, ty, ptr, at, pad, pad, name, ty, res, val, pad, ty,
               name, ptr, at))
