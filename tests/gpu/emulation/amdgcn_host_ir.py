#!/usr/bin/env python3
"""Rewrites AMDGPU device IR (adcc++ -x hip --cuda-device-only -S
-emit-llvm, or --target=amdgcn-amd-amdhsa) into host IR for the model of one
wavefront in wave_emulation.h: the target becomes the host's, address spaces
are dropped (private, global and LDS memory are host memory; a cast between
them is no cast), kernels lose their calling convention, and each AMDGPU
intrinsic the kernels use (work-item id, lane id, ds_bpermute, readlane,
readfirstlane, update_dpp, ballot, the wavefront's size, s_barrier) becomes a call of the emulation's C
functions. Any other AMDGPU intrinsic is an error: the emulation would not
be faithful.

  amdgcn_host_ir.py DEVICE.ll HOST-TRIPLE > HOST.ll
  amdgcn_host_ir.py --grid [--plain-atomics] DEVICE.ll HOST-TRIPLE > HOST.ll

With --grid (whole HIP programs on grid_emulation.cpp, as nvptx_host_ir.py
--grid for CUDA): the work-item and work-group ids and the implicit kernel
arguments and the dispatch packet (group sizes, block counts, the grid's
size) are the grid emulation's, every
definition of the device module becomes internal, each kernel is renamed
(its name is the host's kernel handle) and gets an entry that takes the
launch's argument array, listed in `emu_kernels` with the address of the
handle, by which hipLaunchKernel finds it. The cross-lane operations of
the wavefront model are not in the grid emulation. --plain-atomics makes
every atomic add a plain load, add and store, as nvptx_host_ir.py's does.
"""
import re
import sys

from host_ir_common import (dynamic_shared, internalize, plain_add,
                            read_arguments, shared_table, split_params)


def bits_of(ty):
    """How a value of type `ty` becomes the 64 bits the emulation moves,
    and back: (to-bits lines, from-bits lines) over %v and %r."""
    if ty == "i64":
        return ["%b = bitcast i64 %v to i64"], ["%x = bitcast i64 %r to i64"]
    if ty == "double":
        return (["%b = bitcast double %v to i64"],
                ["%x = bitcast i64 %r to double"])
    if ty in ("i32", "float"):
        to = (["%i = bitcast float %v to i32"] if ty == "float"
              else ["%i = bitcast i32 %v to i32"])
        back = ["%t = trunc i64 %r to i32"]
        back += (["%x = bitcast i32 %t to float"] if ty == "float"
                 else ["%x = bitcast i32 %t to i32"])
        return to + ["%b = zext i32 %i to i64"], back
    sys.exit("amdgcn_host_ir.py: no emulation of a lane read of %s" % ty)


TYPES = {"i32": "i32", "i64": "i64", "f32": "float", "f64": "double"}


GRID = {
    "amdgcn.workitem.id.x": ("i32", "", "%r = call i32 @emu_sreg(i32 0)"),
    "amdgcn.workitem.id.y": ("i32", "", "%r = call i32 @emu_sreg(i32 1)"),
    "amdgcn.workitem.id.z": ("i32", "", "%r = call i32 @emu_sreg(i32 2)"),
    "amdgcn.workgroup.id.x": ("i32", "", "%r = call i32 @emu_sreg(i32 6)"),
    "amdgcn.workgroup.id.y": ("i32", "", "%r = call i32 @emu_sreg(i32 7)"),
    "amdgcn.workgroup.id.z": ("i32", "", "%r = call i32 @emu_sreg(i32 8)"),
    "amdgcn.implicitarg.ptr": ("ptr", "", "%r = call ptr @emu_implicitarg()"),
    "amdgcn.dispatch.ptr": ("ptr", "", "%r = call ptr @emu_dispatch()"),
    "amdgcn.s.barrier": ("void", "", "call void @emu_barrier()"),
    # (the static LDS: none in the dispatch packet's group segment size)
    "amdgcn.groupstaticsize": ("i32", "", "%r = add i32 0, 0"),
}


# The cross-lane operations, the same in the grid emulation (among the 64
# threads of a wavefront of the block) as in the model of one wavefront.
CROSS_LANE = re.compile(r"amdgcn\.(wavefrontsize|mbcnt\.(lo|hi)|ds\.bpermute|"
                        r"ballot\.i(32|64)|update\.dpp\.i(32|64)|"
                        r"read(first)?lane\.(i32|i64|f32|f64))")


def definition(name, grid=False):
    """The host definition of the AMDGPU intrinsic `name` (without
    `llvm.`)."""
    if grid and name not in GRID and not CROSS_LANE.fullmatch(name):
        sys.exit("amdgcn_host_ir.py: no grid emulation of llvm.%s" % name)
    if grid and name in GRID:
        ret, params, body = GRID[name]
        end = "ret void" if ret == "void" else "ret %s %%r" % ret
        return ("define internal %s @emu.%s(%s) {\n  %s\n  %s\n}\n"
                % (ret, name, params, body, end))
    simple = {
        "amdgcn.workitem.id.x": ("i32", "", "%r = call i32 @emu_wave(i32 0)"),
        "amdgcn.workitem.id.y": ("i32", "", "%r = add i32 0, 0"),
        "amdgcn.workitem.id.z": ("i32", "", "%r = add i32 0, 0"),
        "amdgcn.wavefrontsize": ("i32", "", "%r = call i32 @emu_wave(i32 1)"),
        "amdgcn.mbcnt.lo": ("i32", "i32 %m, i32 %c",
                            "%r = call i32 @emu_mbcnt(i32 0, i32 %m, i32 %c)"),
        "amdgcn.mbcnt.hi": ("i32", "i32 %m, i32 %c",
                            "%r = call i32 @emu_mbcnt(i32 1, i32 %m, i32 %c)"),
        "amdgcn.ds.bpermute": (
            "i32", "i32 %a, i32 %v",
            "%l = lshr i32 %a, 2\n  %w = zext i32 %v to i64\n"
            "  %s = call i64 @emu_read_lane(i64 %w, i32 %l)\n"
            "  %r = trunc i64 %s to i32"),
        "amdgcn.ballot.i64": ("i64", "i1 %p",
                              "%r = call i64 @emu_ballot(i1 %p)"),
        "amdgcn.ballot.i32": ("i32", "i1 %p",
                              "%b = call i64 @emu_ballot(i1 %p)\n"
                              "  %r = trunc i64 %b to i32"),
        "amdgcn.s.barrier": ("void", "", "call void @emu_barrier()"),
    }
    if name in simple:
        ret, params, body = simple[name]
        end = "ret void" if ret == "void" else "ret %s %%r" % ret
        return ("define internal %s @emu.%s(%s) {\n  %s\n  %s\n}\n"
                % (ret, name, params, body, end))
    m = re.fullmatch(r"amdgcn\.update\.dpp\.(i32|i64)", name)
    if m:
        ty = m.group(1)
        wide = (["%o = zext i32 %old to i64", "%s = zext i32 %src to i64"]
                if ty == "i32" else
                ["%o = add i64 %old, 0", "%s = add i64 %src, 0"])
        back = "%r = trunc i64 %w to i32" if ty == "i32" else \
            "%r = add i64 %w, 0"
        return ("define internal %s @emu.%s(%s %%old, %s %%src, i32 %%c, "
                "i32 %%rm, i32 %%bm, i1 %%bc) {\n  %s\n"
                "  %%w = call i64 @emu_dpp(i64 %%o, i64 %%s, i32 %%c, i32 %%rm, "
                "i32 %%bm, i1 %%bc)\n  %s\n  ret %s %%r\n}\n"
                % (ty, name, ty, ty, "\n  ".join(wide), back, ty))
    m = re.fullmatch(r"amdgcn\.read(first)?lane\.(i32|i64|f32|f64)", name)
    if not m:
        sys.exit("amdgcn_host_ir.py: no emulation of llvm.%s" % name)
    ty = TYPES[m.group(2)]
    to, back = bits_of(ty)
    # (readfirstlane: the first active lane, lane 0: every lane is active)
    lane = "i32 0" if m.group(1) else "i32 %k"
    params = "" if m.group(1) else ", i32 %k"
    lines = to + ["%%r = call i64 @emu_read_lane(i64 %%b, %s)" % lane] + back
    return ("define internal %s @emu.%s(%s %%v%s) {\n  %s\n"
            "  ret %s %%x\n}\n" % (ty, name, ty, params, "\n  ".join(lines),
                                     ty))


KERNEL = re.compile(r"^define [^@]*amdgpu_kernel void @([\w.$]+)\((.*)\)"
                    r"[^(]*\{$", re.M)


def grid_entries(kernels):
    """Entries for the kernels (name, parameters): each reads its
    arguments from the launch's array and calls the renamed kernel."""
    out, table = [], []
    for name, params in kernels:
        body, args = [], []
        for k, p in enumerate(split_params(params)):
            p = re.sub(r" addrspace\(\d+\)", "", p)
            ty = p.split()[0]
            body.append("  %%p%d = getelementptr ptr, ptr %%args, i64 %d"
                        % (k, k))
            body.append("  %%a%d = load ptr, ptr %%p%d" % (k, k))
            byref = re.search(r"by(?:val|ref)\((%[^)]*|\w+)\)", p)
            if byref:
                args.append("ptr %%a%d" % k)
            else:
                body.append("  %%v%d = load %s, ptr %%a%d" % (k, ty, k))
                args.append("%s %%v%d" % (ty, k))
        entry = "emu.entry.%d" % len(table)
        out.append("define internal void @%s(ptr %%args) {\n%s\n"
                   "  call void @%s.kernel(%s)\n  ret void\n}\n"
                   % (entry, "\n".join(body), name, ", ".join(args)))
        # (The derivative kernels of a <<<>>> launch: the host code's
        # handle of each is named after it.)
        handle = ("__adcc_handle_" + name if name.startswith("__adcc_")
                  else name)
        out.append("@%s = extern_weak global i8" % handle)
        table.append("{ ptr, ptr } { ptr @%s, ptr @%s }" % (handle, entry))
    out.append("@emu_kernels = constant [%d x { ptr, ptr }] [%s]"
               % (len(table) + 1,
                  ", ".join(table + ["{ ptr, ptr } zeroinitializer"])))
    return out


def main():
    plain, grid, text, triple = read_arguments(sys.argv[1:])
    if grid:
        text = dynamic_shared(text)
    shared = shared_table(text, lambda name: "@" + name) if grid else None
    kernels = KERNEL.findall(text) if grid else []
    for name, _ in kernels:
        # (The kernel's name is the host's handle.)
        text = re.sub(r"@%s\b(?![.\w])" % re.escape(name),
                      "@%s.kernel" % name, text)
    used = sorted(set(re.findall(r"@llvm\.(amdgcn\.[A-Za-z0-9_.]+)", text)))
    if re.search(r"call [^@]* asm ", text):
        sys.exit("amdgcn_host_ir.py: the device code holds inline assembly, "
                 "which the host cannot run")
    out, declared = [], set()
    for line in text.splitlines():
        if line.startswith("target datalayout"):
            continue
        if line.startswith("target triple"):
            line = 'target triple = "%s"' % triple
        elif line.startswith("declare") and "@llvm.amdgcn." in line:
            continue
        elif line.startswith("attributes #"):
            line = re.sub(r'"(target-(cpu|features)|amdgpu-[\w-]+)"="[^"]*"',
                          "", line)
        # One address space: a cast between two is no cast.
        line = re.sub(r",? addrspace\(\d+\)", "", line)
        line = re.sub(r"addrspacecast \(ptr (null|[@%][\w.$\"]+) to ptr\)", r"\1",
                      line)
        line = re.sub(r"= addrspacecast ptr ([@%][\w.$]+) to ptr",
                      r"= getelementptr i8, ptr \1, i64 0", line)
        # (the intrinsics' names say the address spaces of their pointers)
        line = re.sub(r"@llvm\.[\w.]+", lambda m: re.sub(
            r"\.p\d+(?=\.|$)", ".p0", m.group(0)), line)
        line = line.replace("amdgpu_kernel ", "")
        if grid:
            if re.match(r"\$.* = comdat", line):
                continue
            line = internalize(line)
        if plain:
            line = plain_add(line)
            if line.startswith("define") and ".kernel(" in line:
                # (An aggregate argument: the entry passes its address.)
                line = re.sub(r" (byref|byval)\((%[^)]*|\w+)\)", "", line)
        if line.startswith("declare"):
            name = re.search(r"@[\w.$]+", line).group(0)
            if name in declared:
                continue
            declared.add(name)
        line = re.sub(r"@llvm\.(amdgcn\.[A-Za-z0-9_.]+)", r"@emu.\1", line)
        out.append(line)
    out += [definition(name, grid) for name in used]
    if grid:
        out += ["declare i32 @emu_sreg(i32)",
                "declare ptr @emu_implicitarg()",
                "declare ptr @emu_dispatch()",
                "declare void @emu_yield()",
                "declare void @emu_barrier()",
                "declare i32 @emu_wave(i32)",
                "declare i32 @emu_mbcnt(i32, i32, i32)",
                "declare i64 @emu_read_lane(i64, i32)",
                "declare i64 @emu_ballot(i1)",
                "declare i64 @emu_dpp(i64, i64, i32, i32, i32, i1)"]
        out += grid_entries(kernels)
        out.append(re.sub(r",? addrspace\(\d+\)", "", shared))
    else:
        out += ["declare i32 @emu_wave(i32)",
                "declare i32 @emu_mbcnt(i32, i32, i32)",
                "declare i64 @emu_read_lane(i64, i32)",
                "declare i64 @emu_ballot(i1)",
                "declare i64 @emu_dpp(i64, i64, i32, i32, i32, i1)",
                "declare void @emu_barrier()"]
    print("\n".join(out))


main()
