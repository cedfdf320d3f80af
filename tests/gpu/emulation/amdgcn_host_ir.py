#!/usr/bin/env python3
"""Rewrites AMDGPU device IR (adcc++ -x hip --cuda-device-only -S
-emit-llvm, or --target=amdgcn-amd-amdhsa) into host IR for the model of one
wavefront in wave_emulation.h: the target becomes the host's, address spaces
are dropped (private, global and LDS memory are host memory; a cast between
them is no cast), kernels lose their calling convention, and each AMDGPU
intrinsic the kernels use (work-item id, lane id, ds_bpermute, readlane,
ballot, the wavefront's size, s_barrier) becomes a call of the emulation's C
functions. Any other AMDGPU intrinsic is an error: the emulation would not
be faithful.

  amdgcn_host_ir.py DEVICE.ll HOST-TRIPLE > HOST.ll
"""
import re
import sys


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


def definition(name):
    """The host definition of the AMDGPU intrinsic `name` (without
    `llvm.`)."""
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
    m = re.fullmatch(r"amdgcn\.readlane\.(i32|i64|f32|f64)", name)
    if not m:
        sys.exit("amdgcn_host_ir.py: no emulation of llvm.%s" % name)
    ty = TYPES[m.group(1)]
    to, back = bits_of(ty)
    lines = to + ["%r = call i64 @emu_read_lane(i64 %b, i32 %k)"] + back
    return ("define internal %s @emu.%s(%s %%v, i32 %%k) {\n  %s\n"
            "  ret %s %%x\n}\n" % (ty, name, ty, "\n  ".join(lines), ty))


def main():
    text = open(sys.argv[1]).read()
    triple = sys.argv[2]
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
        line = re.sub(r"addrspacecast \(ptr ([@%][\w.$\"]+) to ptr\)", r"\1",
                      line)
        line = re.sub(r"= addrspacecast ptr (%[\w.]+) to ptr",
                      r"= getelementptr i8, ptr \1, i64 0", line)
        # (the intrinsics' names say the address spaces of their pointers)
        line = re.sub(r"@llvm\.[\w.]+", lambda m: re.sub(
            r"\.p\d+(?=\.|$)", ".p0", m.group(0)), line)
        line = line.replace("amdgpu_kernel ", "")
        if line.startswith("declare"):
            name = re.search(r"@[\w.$]+", line).group(0)
            if name in declared:
                continue
            declared.add(name)
        line = re.sub(r"@llvm\.(amdgcn\.[A-Za-z0-9_.]+)", r"@emu.\1", line)
        out.append(line)
    out += [definition(name) for name in used]
    out += ["declare i32 @emu_wave(i32)",
            "declare i32 @emu_mbcnt(i32, i32, i32)",
            "declare i64 @emu_read_lane(i64, i32)",
            "declare i64 @emu_ballot(i1)",
            "declare void @emu_barrier()"]
    print("\n".join(out))


main()
