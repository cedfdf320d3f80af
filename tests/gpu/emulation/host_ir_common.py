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


SHARED_DEF = re.compile(r"^@([\w.$]+) = (?:[\w_]+ )*addrspace\(3\) "
                        r"(?:global|constant) (.*?) (?:undef|poison|"
                        r"zeroinitializer)\b", re.M)
DYNAMIC_DECL = re.compile(r"^@([\w.$]+) = external (?:[\w_]+ )*"
                          r"addrspace\(3\) global ", re.M)


def dynamic_shared(text):
    """The program's dynamic shared memory (`extern __shared__`, declared
    in address space 3) is the block's, which the emulation defines as
    `adcc_kernel_shared`: every such declaration names it."""
    for name in set(DYNAMIC_DECL.findall(text)):
        if name != "adcc_kernel_shared":
            text = re.sub(r"@%s(?![\w.$])" % re.escape(name),
                          "@adcc_kernel_shared", text)
    seen = []

    def once(m):
        if seen:
            return ""
        seen.append(1)
        return m.group(0)
    return re.sub(r"^@adcc_kernel_shared = external .*$", once, text,
                  flags=re.M)


def shared_table(text, cast):
    """`emu_shared_globals`: each static `__shared__` array of the module
    (the program's, and the shadows adcc made) with its bytes, which the
    emulation fills with NaNs before each block, as it does the dynamic
    shared memory: shared memory has no initial value on a GPU. \p cast
    gives the global's address as a generic pointer."""
    rows = ["{ ptr, i64 } { ptr %s, i64 ptrtoint (ptr getelementptr "
            "(%s, ptr null, i32 1) to i64) }" % (cast(name), ty)
            for name, ty in SHARED_DEF.findall(text)]
    rows.append("{ ptr, i64 } zeroinitializer")
    return ("@emu_shared_globals = constant [%d x { ptr, i64 }] [%s]"
            % (len(rows), ", ".join(rows)))
