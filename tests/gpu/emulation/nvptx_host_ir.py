#!/usr/bin/env python3
"""Rewrites NVPTX device IR (adcc++ --cuda-device-only -S -emit-llvm) into
host IR for the warp emulation of warp_emulation.h: the target becomes the
host's, and each NVVM intrinsic the kernels use (thread indices, lane id,
shuffles, the block barrier) becomes a call of the emulation's C functions;
libdevice's arithmetic intrinsics (fma.rn.d, d2i.hi, ...) become LLVM's
operations. Any other NVVM intrinsic is an error: the emulation would not
be faithful.

  nvptx_host_ir.py DEVICE.ll HOST-TRIPLE > HOST.ll
  nvptx_host_ir.py --grid [--plain-atomics] DEVICE.ll HOST-TRIPLE > HOST.ll

With --grid (whole CUDA programs, grid_emulation.cpp): every definition of
the device module becomes internal (the host object of the same source has
functions of the same names, compiled for the host; what the module only
declares, as the block's dynamic shared memory `adcc_kernel_shared`, the
emulation defines, and the program's `extern __shared__` arrays are that
memory; the static `__shared__` arrays are listed in `emu_shared_globals`; a call of inline PTX assembly, a call that stops the
emulation with a message if it runs), and each kernel gets an entry that takes the launch's argument array
(cudaLaunchKernel's `void **`), listed in `emu_kernels` with the address of
the host's launch stub of the same kernel, by which cudaLaunchKernel finds
it.

--plain-atomics makes every atomic add of floating-point numbers a plain
load, add and store: a program whose threads add into one location must
then fail on the emulation (lost additions), which checks the check.
"""
import re
import sys

from host_ir_common import (dynamic_shared, internalize, plain_add,
                            read_arguments, shared_table, split_params)

SREGS = {"tid.x": 0, "tid.y": 1, "tid.z": 2, "ntid.x": 3, "ntid.y": 4,
         "ntid.z": 5, "ctaid.x": 6, "ctaid.y": 7, "ctaid.z": 8,
         "nctaid.x": 9, "nctaid.y": 10, "nctaid.z": 11, "laneid": 12,
         "dynamic_smem_size": 13}
MODES = {"idx": 0, "up": 1, "down": 2, "bfly": 3}


# The arithmetic of libdevice (its functions are inlined in the kernels):
# name -> (result type, parameter types, body over %a, %b, %c).
ARITHMETIC = {
    "nvvm.add.rn.d": ("double", ["double"] * 2, "%r = fadd double %a, %b"),
    "nvvm.mul.rn.d": ("double", ["double"] * 2, "%r = fmul double %a, %b"),
    "nvvm.fma.rn.d": ("double", ["double"] * 3,
                      "%r = call double @llvm.fma.f64(double %a, double %b, "
                      "double %c)"),
    "nvvm.sqrt.rn.d": ("double", ["double"],
                       "%r = call double @llvm.sqrt.f64(double %a)"),
    "nvvm.div.rn.d": ("double", ["double"] * 2, "%r = fdiv double %a, %b"),
    "nvvm.rcp.rn.d": ("double", ["double"], "%r = fdiv double 1.0, %a"),
    "nvvm.fabs.f64": ("double", ["double"],
                      "%r = call double @llvm.fabs.f64(double %a)"),
    "nvvm.fabs.f32": ("float", ["float"],
                      "%r = call float @llvm.fabs.f32(float %a)"),
    "nvvm.fabs.ftz.f32": ("float", ["float"],
                          "%r = call float @llvm.fabs.f32(float %a)"),
    "nvvm.floor.d": ("double", ["double"],
                     "%r = call double @llvm.floor.f64(double %a)"),
    "nvvm.trunc.d": ("double", ["double"],
                     "%r = call double @llvm.trunc.f64(double %a)"),
    # (cvt.rni: to the nearest integer, ties to even)
    "nvvm.round.d": ("double", ["double"],
                     "%r = call double @llvm.rint.f64(double %a)"),
    "nvvm.d2i.rn": ("i32", ["double"],
                    "%n = call double @llvm.rint.f64(double %a)\n"
                    "  %r = fptosi double %n to i32"),
    # Floats (libdevice's sinf, cosf): the .ftz forms flush subnormals to
    # zero, which the tests' values never are.
    "nvvm.add.rn.f": ("float", ["float"] * 2, "%r = fadd float %a, %b"),
    "nvvm.add.rn.ftz.f": ("float", ["float"] * 2, "%r = fadd float %a, %b"),
    "nvvm.mul.rn.f": ("float", ["float"] * 2, "%r = fmul float %a, %b"),
    "nvvm.mul.rn.ftz.f": ("float", ["float"] * 2, "%r = fmul float %a, %b"),
    "nvvm.fma.rn.f": ("float", ["float"] * 3,
                      "%r = call float @llvm.fma.f32(float %a, float %b, "
                      "float %c)"),
    "nvvm.fma.rn.ftz.f": ("float", ["float"] * 3,
                          "%r = call float @llvm.fma.f32(float %a, "
                          "float %b, float %c)"),
    "nvvm.f2i.rn": ("i32", ["float"],
                    "%n = call float @llvm.rint.f32(float %a)\n"
                    "  %r = fptosi float %n to i32"),
    "nvvm.f2i.rn.ftz": ("i32", ["float"],
                        "%n = call float @llvm.rint.f32(float %a)\n"
                        "  %r = fptosi float %n to i32"),
    # (an approximation that libdevice refines: the exact one serves)
    "nvvm.rcp.approx.ftz.d": ("double", ["double"],
                              "%r = fdiv double 1.0, %a"),
    "nvvm.d2i.hi": ("i32", ["double"],
                    "%i = bitcast double %a to i64\n"
                    "  %h = lshr i64 %i, 32\n  %r = trunc i64 %h to i32"),
    "nvvm.d2i.lo": ("i32", ["double"],
                    "%i = bitcast double %a to i64\n"
                    "  %r = trunc i64 %i to i32"),
    "nvvm.lohi.i2d": ("double", ["i32", "i32"],
                      "%l = zext i32 %a to i64\n  %h = zext i32 %b to i64\n"
                      "  %s = shl i64 %h, 32\n  %i = or i64 %s, %l\n"
                      "  %r = bitcast i64 %i to double"),
}


def definition(name):
    """The host definition of the NVVM intrinsic `name` (without `llvm.`)."""
    if name in ARITHMETIC:
        ret, params, body = ARITHMETIC[name]
        args = ", ".join("%s %%%s" % (t, "abc"[i]) for i, t in
                         enumerate(params))
        return ("define internal %s @emu.%s(%s) {\n  %s\n  ret %s %%r\n}\n"
                % (ret, name, args, body, ret))
    m = re.fullmatch(r"nvvm\.read\.ptx\.sreg\.(.+)", name)
    if m and m.group(1) in SREGS:
        return ("define internal i32 @emu.%s() {\n"
                "  %%r = call i32 @emu_sreg(i32 %d)\n  ret i32 %%r\n}\n"
                % (name, SREGS[m.group(1)]))
    if re.fullmatch(r"nvvm\.barrier\.cta\.sync\.aligned\.all|nvvm\.barrier0",
                    name):
        args = "(i32 %id)" if "cta" in name else "()"
        return ("define internal void @emu.%s%s {\n"
                "  call void @emu_barrier()\n  ret void\n}\n" % (name, args))
    m = re.fullmatch(r"nvvm\.shfl\.sync\.(idx|up|down|bfly)\.(i32|f32)(p?)",
                     name)
    if not m:
        sys.exit("nvptx_host_ir.py: no emulation of llvm.%s" % name)
    mode, ty, pred = MODES[m.group(1)], m.group(2), m.group(3) == "p"
    t = "i32" if ty == "i32" else "float"
    body = ["define internal %s @emu.%s(i32 %%m, %s %%v, i32 %%b, i32 %%c) {"
            % ("{ %s, i1 }" % t if pred else t, name, t)]
    bits = "%v"
    if t == "float":
        body.append("  %bits = bitcast float %v to i32")
        bits = "%bits"
    body += ["  %%r = call i64 @emu_shfl(i32 %d, i32 %%m, i32 %s, i32 %%b, "
             "i32 %%c)" % (mode, bits),
             "  %lo = trunc i64 %r to i32"]
    value = "%lo"
    if t == "float":
        body.append("  %f = bitcast i32 %lo to float")
        value = "%f"
    if not pred:
        body += ["  ret %s %s" % (t, value), "}"]
        return "\n".join(body) + "\n"
    body += ["  %hi = lshr i64 %r, 32",
             "  %p = trunc i64 %hi to i1",
             "  %%a = insertvalue { %s, i1 } poison, %s %s, 0" % (t, t, value),
             "  %%s = insertvalue { %s, i1 } %%a, i1 %%p, 1" % t,
             "  ret { %s, i1 } %%s" % t, "}"]
    return "\n".join(body) + "\n"


def stub_name(kernel):
    """The host launch stub of a kernel: clang names it `__device_stub__`
    followed by the kernel's (unqualified) name, in the same mangling."""
    m = re.match(r"(_Z(?:N(?:\d+[A-Za-z_]\w*?)*?)?)(\d+)", kernel)
    if not m:
        return "__device_stub__" + kernel
    # Walk the nested name: the last <length><identifier> before the
    # template arguments or the parameters is the kernel's own name.
    i, prefix = 2, "_Z"
    nested = kernel[i] == "N"
    if nested:
        i += 1
    parts = []
    # (Outside a nested name, the first is the kernel's: what follows are
    # its parameters' types, `_Z4axpy6Fieldsd`.)
    while (i < len(kernel) and kernel[i].isdigit() and
           (nested or not parts)):
        j = i
        while kernel[j].isdigit():
            j += 1
        n = int(kernel[i:j])
        parts.append((i, j, n))
        i = j + n
    if not parts:
        return "__device_stub__" + kernel
    start, digits_end, n = parts[-1]
    ident = kernel[digits_end:digits_end + n]
    return (kernel[:start] + str(n + 15) + "__device_stub__" + ident +
            kernel[digits_end + n:])


def grid_entries(text):
    """Entries for the kernels (ptx_kernel definitions) of `text`."""
    out, table = [], []
    for m in re.finditer(r"^define [^@]*ptx_kernel void @([\w.$]+)\((.*)\)"
                         r"[^(]*\{$", text, re.M):
        name, params = m.group(1), split_params(m.group(2))
        body, args = [], []
        for k, p in enumerate(params):
            ty = p.split()[0]
            body.append("  %%p%d = getelementptr ptr, ptr %%args, i64 %d"
                        % (k, k))
            body.append("  %%a%d = load ptr, ptr %%p%d" % (k, k))
            byval = re.search(r"byval\((%[^)]*|\w+)\)( align \d+)?", p)
            if byval:
                args.append("ptr %s %%a%d" % (byval.group(0), k))
            else:
                body.append("  %%v%d = load %s, ptr %%a%d" % (k, ty, k))
                args.append("%s %%v%d" % (ty, k))
        entry = "emu.entry.%d" % len(table)
        # (The derivative kernels of a <<<>>> launch: the host code's
        # handle of each is named after it.)
        stub = ("__adcc_handle_" + name if name.startswith("__adcc_")
                else stub_name(name))
        out.append("define internal void @%s(ptr %%args) {\n%s\n"
                   "  call void @%s(%s)\n  ret void\n}\n"
                   % (entry, "\n".join(body), name, ", ".join(args)))
        out.append("declare extern_weak void @%s()" % stub)
        table.append("{ ptr, ptr } { ptr @%s, ptr @%s }" % (stub, entry))
    out.append("@emu_kernels = constant [%d x { ptr, ptr }] [%s]"
               % (len(table) + 1, ", ".join(table + ["{ ptr, ptr } zeroinitializer"])))
    return out


ASM_CALL = re.compile(r'^(\s*(?:%[\w.]+ = )?)(?:tail |notail )?call (.*?) asm '
                      r'(?:sideeffect )?(?:alignstack )?"(?:[^"\\]|\\.)*", '
                      r'"(?:[^"\\]|\\.)*"\((.*)\)( #\d+)?(, !srcloc !\d+)?\s*$')


def replace_asm(line, asms):
    """A call of inline PTX assembly (libdevice's sin and cos reduce large
    arguments with it) becomes a call of a function that stops the
    emulation with a message if it runs: the code around it is kept."""
    m = ASM_CALL.match(line)
    if not m:
        return line
    ret, args = m.group(2), m.group(3)
    # (the call's fast-math flags are not part of the type)
    ret = re.sub(r"^(?:(?:fast|contract|reassoc|nnan|ninf|nsz|arcp|afn) )+",
                 "", ret)
    n = len(asms)
    params = ", ".join(a.split()[0] for a in split_params(args))
    value = "ret void" if ret == "void" else "ret %s poison" % ret
    asms.append("define internal %s @emu.asm.%d(%s) {\n"
                "  call void @emu_asm(i32 %d)\n  %s\n}\n"
                % (ret, n, params, n, value))
    return "%scall %s @emu.asm.%d(%s)" % (m.group(1), ret, n, args)


def main():
    plain, grid, text, triple = read_arguments(sys.argv[1:])
    if grid:
        text = dynamic_shared(text)
    used = sorted(set(re.findall(r"@llvm\.(nvvm\.[A-Za-z0-9_.]+)", text)))
    if not grid and re.search(r"call [^@]* asm ", text):
        sys.exit("nvptx_host_ir.py: the device code holds inline PTX "
                 "assembly, which the host cannot run")
    out = []
    asms = []
    for line in text.splitlines():
        if line.startswith("target datalayout"):
            continue
        if line.startswith("target triple"):
            line = 'target triple = "%s"' % triple
        elif line.startswith("declare") and "@llvm.nvvm." in line:
            continue
        elif line.startswith("attributes #"):
            line = re.sub(r'"target-(cpu|features)"="[^"]*"', "", line)
        elif grid and re.match(r"\$.* = comdat", line):
            continue
        elif grid:
            line = internalize(line)
        if grid:
            line = replace_asm(line, asms)
        if plain:
            line = plain_add(line)
        line = line.replace("ptx_kernel ", "")
        line = re.sub(r"@llvm\.(nvvm\.[A-Za-z0-9_.]+)", r"@emu.\1", line)
        out.append(line)
    out += [definition(name) for name in used]
    out += ["declare i32 @emu_sreg(i32)",
            "declare void @emu_barrier()",
            "declare i64 @emu_shfl(i32, i32, i32, i32, i32)"]
    if plain:
        out.append("declare void @emu_yield()")
    if grid:
        out += asms + ["declare void @emu_asm(i32)"]
        out += grid_entries(text)
        out.append(shared_table(text, lambda name: "addrspacecast (ptr "
                                "addrspace(3) @%s to ptr)" % name))
    print("\n".join(out))


main()
