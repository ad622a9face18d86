"""Random CUDA programs for the differential fuzzer (kind cuda): host code
that launches kernels, differentiated from the host (docs/cuda.md, "Host code
that launches kernels"), built with CUDA emulation (-fcuda-emulate).

generate(seed) returns a c_program.Program: the CUDA text of one host
function `fz<seed>` over double scalars, double arrays of one length and that
length `int n` (so the C oracle, c_oracle.harness, can call it, perturb its
inputs and read its outputs), whose body

- cudaMalloc's a device buffer per input array and cudaMemcpy's the array in
  (through a host staging array converted to float where the program's
  element type is float);
- launches 1-3 random kernels with `<<<grid, block>>>` (written with plain
  integers or dim3, some with 2D blocks), each reading one or two of the
  buffers made so far and writing a new buffer (or its own element of one of
  them, in place), a double accumulator (atomicAdd) or one value per block or
  warp; now and then copies a kernel's output device to device for the next
  kernels to read;
- copies the results back with cudaMemcpy (straight into an output array now
  and then), frees every buffer and reduces on the host to the result.

The kernels live in a namespace of their own, fz<seed>_n, so several programs
fit in one translation unit. Each is one of

- map:     one element per thread with a bounds check (1D or 2D blocks), or
           a grid-stride loop (a grid smaller than the data), math from a
           safe set (sin, cos, exp of bounded arguments, log and sqrt of
           positive values, tanh, pow with small integer exponents,
           fmin/fmax), neighbour reads (x[i - 1], x[i + 1] with bounds),
           by-value scalar parameters (their adjoints are summed over the
           threads), in place; sometimes through a __device__ helper
           (__noinline__ or not) and a loop of 2-4 trips; now and then
           with its parameters (pointers, n, scalars, in a random order)
           in a struct that the host fills, copies to device memory with
           cudaMemcpy and frees right after the launch;
- tile:    a __shared__ tile of the block with a halo, staged before a
           __syncthreads, then neighbour reads from the tile;
- reduce:  a block's tree sum in shared memory, __syncthreads in its loop,
           one value per block;
- warp:    (blocks of 32, every lane alive at the shuffles) __shfl_down_sync
           and __shfl_up_sync neighbours, a __shfl_down_sync warp sum (one
           value per warp) or a __shfl_xor_sync butterfly sum;
- atomic:  atomicAdd of positive terms into a double accumulator (one or
           two slots);
- cub:     (blocks of 32 or 64, every thread reaches the collective) CUB's
           cub::WarpReduce::Sum over the warp or its first lanes (one value
           per warp), cub::BlockReduce::Sum (one value per block),
           cub::WarpScan::InclusiveSum (CUB writes their steps as inline
           PTX, Core/PtxStatements.h), cub::WarpReduce::Reduce with
           cuda::maximum (one value per warp) or cub::BlockScan::InclusiveSum
           (both shuffle a value one 32-bit word at a time, through memory
           at -O0).

The block sums store each thread's value into shared memory now and then
through a __device__ __noinline__ helper (the shadow of shared memory starts
undefined, and the callee's store must zero it).

The element type is double, or float in about a third of the programs
(features "float": the oracle's larger steps and looser tolerance). The same
seed gives the same program (for this version of the generator).

Programs are free of undefined behaviour and of data races: every index is
in bounds, math arguments are in their domains, every thread writes only its
own elements, shared memory is read after the barrier that follows its
writes, every thread of a block reaches every barrier and every lane of a
warp every shuffle. The one nondeterminism is the order of atomicAdd's
additions (the threads of an emulated block run at once): its terms are
positive and its accumulator a double, so the primal moves by a few ulps of
the sum, far below what the oracle's finite differences resolve.
"""

import random

from c_program import GeneratorBase, Param, Program, Writer

FULL_MASK = "0xffffffffu"

# Safe unary math over one T operand {a}: defined and smooth (fmin/fmax
# aside) for every finite argument, and not growing fast. {f} is the math
# functions' suffix ("" for double, "f" for float), {c} the literals'.
UNARY = [
    "sin{f}({a})", "cos{f}({a})", "tanh{f}({a})", "exp{f}(0.5{c} * sin{f}({a}))",
    "exp{f}(-0.5{c} * {a} * {a})", "log{f}(1.0{c} + {a} * {a})",
    "log{f}(2.0{c} + cos{f}({a}))", "sqrt{f}(1.0{c} + {a} * {a})",
    "sqrt{f}(2.0{c} + sin{f}({a}))", "pow{f}({a}, 2.0{c})", "pow{f}(tanh{f}({a}), 3.0{c})",
    "pow{f}(1.0{c} + 0.25{c} * {a} * {a}, 2.0{c})", "(0.5{c} * {a})", "(-{a})",
]
# pow(double, int): clang's CUDA headers call __nv_powi for it.
UNARY_DOUBLE = ["pow({a}, 2)", "pow({a}, 3)"]
BINARY = [
    "({a} + {b})", "({a} - {b})", "({a} * {b})", "({a} / (1.0{c} + {b} * {b}))",
    "(0.5{c} * {a} + 0.25{c} * {b})", "fmax{f}({a}, {b})", "fmin{f}({a}, {b})",
    "({a} * tanh{f}({b}))",
]
# Positive terms for atomicAdd: no cancellation, so the sum's reordering
# moves it by a few ulps of its own size.
POSITIVE = [
    "{a} * {a}", "exp{f}(0.5{c} * sin{f}({a}))", "log{f}(1.0{c} + {a} * {a})",
    "sqrt{f}(1.0{c} + {a} * {a})", "(1.5{c} + tanh{f}({a}))",
]
BLOCKS = [2, 4, 8]        # block sizes of most kernels (an emulated thread is a host thread)


class Buf:
    """A device buffer of the host function: `length` values of `ctype`;
    kind "elem" (n elements of T, which later kernels may read), "acc" (a
    double atomicAdd accumulator) or "part" (one T per block or warp)."""

    def __init__(self, name, length, ctype, kind):
        self.name, self.length, self.ctype, self.kind = name, length, ctype, kind


class Generator(GeneratorBase):
    def __init__(self, seed):
        self.seed = seed
        self.r = random.Random("cuda-%d" % seed)
        self.p = "fz%d" % seed
        self.features = set()
        self.counter = 0
        self.float = self.r.random() < 0.33
        self.T = "float" if self.float else "double"
        self.f = "f" if self.float else ""
        self.kernels = []      # kernel definitions
        self.n = self.r.randrange(3, 9)

    def lit(self, x):
        """A literal of the element type."""
        text = repr(float(x)) + ("f" if self.float else "")
        return "(%s)" % text if x < 0 else text   # never "--0.5"

    def fill(self, template, **kw):
        return template.format(f=self.f, c="f" if self.float else "", **kw)

    # ---- expressions over T values -----------------------------------------

    def value(self, atoms, primary, depth):
        """An expression over `atoms` that reads at least one of `primary`
        (the kernel's data, so no kernel computes constants only)."""
        e = self.expr(atoms, depth, top=True)
        if not any(p in e for p in primary):
            a, b = self.r.sample([e, self.r.choice(primary)], 2)
            e = self.fill(self.r.choice(BINARY), a=a, b=b)
            if "fm" in e:
                self.features.add("fmin-fmax")
        return e

    def expr(self, atoms, depth, top=False):
        if depth <= 0 or (not top and self.chance(0.25)):
            if self.chance(0.1):
                return self.lit(round(self.r.uniform(-1.5, 1.5), 3))
            return self.r.choice(atoms)
        if self.chance(0.5):
            unary = UNARY + ([] if self.float else UNARY_DOUBLE)
            t = self.r.choice(unary)
            if "pow" in t:
                self.features.add("pow")
            return self.fill(t, a=self.expr(atoms, depth - 1))
        t = self.r.choice(BINARY)
        if "fm" in t:
            self.features.add("fmin-fmax")
        return self.fill(t, a=self.expr(atoms, depth - 1), b=self.expr(atoms, depth - 1))

    def positive(self, atoms, primary):
        return self.fill(self.r.choice(POSITIVE), a=self.value(atoms, primary, 1))

    # ---- kernels -----------------------------------------------------------

    def scalars(self, host_scalars):
        """0-2 by-value T parameters of a kernel: (kernel name, host
        expression passed at the launch)."""
        out = []
        for _ in range(self.r.randrange(0, 3)):
            name = "s%d" % len(out)
            if host_scalars and self.chance(0.85):
                a = self.r.choice(host_scalars)
                arg = self.r.choice([a, "0.5 * %s" % a, "tanh(%s)" % a, "(%s * %s)" % (a, a)])
            else:
                arg = repr(round(self.r.uniform(-1.5, 1.5), 3))
            if self.float:
                arg = "(float)(%s)" % arg
            out.append((name, arg))
        if out:
            self.features.add("scalar-param")
        return out

    def index_lines(self, w):
        w("int t = threadIdx.x;")
        w("int i = blockIdx.x * blockDim.x + t;")

    def launch(self, hw, kernel, grid, block, args):
        """The launch statement: grid and block as ints or dim3."""
        if self.chance(0.3):
            g, b = self.fresh("grid"), self.fresh("block")
            hw("dim3 %s(%s), %s(%d);" % (g, grid, b, block))
            hw("%s_n::%s<<<%s, %s>>>(%s);" % (self.p, kernel, g, b, ", ".join(args)))
        else:
            hw("%s_n::%s<<<%s, %d>>>(%s);" % (self.p, kernel, grid, block, ", ".join(args)))

    def params_text(self, ins, outs, scalars):
        ps = ["const %s *%s" % (self.T, n) for n in ins] + ["%s *%s" % (c, n) for c, n in outs]
        ps.append("int n")
        ps += ["%s %s" % (self.T, s) for s, _ in scalars]
        return ", ".join(ps)

    def loads(self, ins, index="i", neighbours=True):
        """Atoms reading the input buffers at `index` (and, with neighbours,
        at index - 1 and + 1, in bounds)."""
        atoms = ["%s[%s]" % (u, index) for u in ins]
        if neighbours:
            for u in ins:
                if self.chance(0.4):
                    atoms.append("(%s > 0 ? %s[%s - 1] : %s[%s])" % (index, u, index, u, index))
                    self.features.add("neighbours")
                if self.chance(0.4):
                    atoms.append("(%s + 1 < n ? %s[%s + 1] : %s)" % (index, u, index,
                                                                   self.lit(0.5)))
                    self.features.add("neighbours")
        return atoms

    def open_kernel(self, w, name, ins, outs, scalars, via_struct):
        """Opens kernel `name` over the parameters params_text lists, or,
        with via_struct, over a pointer to a struct of them in device memory
        (fields in a random order), which it reads into locals of the same
        names."""
        if not via_struct:
            w.open("__global__ void %s(%s)" % (name, self.params_text(ins, outs, scalars)))
            return
        fields = self.params_text(ins, outs, scalars).split(", ")
        self.struct_order = list(range(len(fields)))
        self.r.shuffle(self.struct_order)
        self.kernels.append("  struct %s_p {\n%s  };\n" % (
            name, "".join("    %s;\n" % fields[k] for k in self.struct_order)))
        w.open("__global__ void %s(const %s_p *P)" % (name, name))
        for f in fields:
            w("%s = P->%s;" % (f, f.split()[-1].lstrip("*")))

    def struct_arguments(self, hw, name, args):
        """Host code that fills kernel `name`'s parameter struct with `args`
        (in params_text's order) and copies it to device memory: the
        launch's one argument."""
        hp, dp = self.fresh("hp"), self.fresh("dp")
        hw("%s_n::%s_p %s = {%s};" % (self.p, name, hp,
                                       ", ".join(args[k] for k in self.struct_order)))
        hw("%s_n::%s_p *%s;" % (self.p, name, dp))
        hw("cudaMalloc(&%s, sizeof %s);" % (dp, hp))
        hw("cudaMemcpy(%s, &%s, sizeof %s, cudaMemcpyHostToDevice);" % (dp, hp, hp))
        return [dp]

    def kernel_map(self, hw, bufs, host_scalars):
        elems = [b for b in bufs if b.kind == "elem"]
        ins = self.r.sample(elems, min(len(elems), self.r.randrange(1, 3)))
        self.last_ins = ins
        in_place = self.chance(0.25)
        scalars = self.scalars(host_scalars)
        # The parameters in a struct copied to device memory: pointers,
        # the length and scalars side by side (CopyRecords.h).
        via_struct = self.chance(0.2)
        if via_struct:
            self.features.add("params-struct")
        name = self.fresh("k")
        w = Writer(1)
        if in_place:
            self.features.add("in-place")
            target = ins[0]
            others = ins[1:]
            ins_names = ["u%d" % k for k in range(len(others))]
            self.open_kernel(w, name, ins_names, [(self.T, "y")], scalars, via_struct)
            atoms = ["y[i]"] + self.loads(ins_names) + [s for s, _ in scalars]
            args = [b.name for b in others] + [target.name]
            out = target
        else:
            ins_names = ["u%d" % k for k in range(len(ins))]
            self.open_kernel(w, name, ins_names, [(self.T, "y")], scalars, via_struct)
            atoms = self.loads(ins_names) + [s for s, _ in scalars]
            out = Buf(self.fresh("d"), self.n, self.T, "elem")
            args = [b.name for b in ins] + [out.name]
        value = self.value(atoms, [a for a in atoms if a not in dict(scalars)], 3)
        if self.chance(0.3):
            value = self.helper(value, atoms)
        body = ["y[i] = %s;" % value]
        if self.chance(0.2):
            # A loop in the kernel: the reverse pass needs each trip's value.
            self.features.add("kernel-loop")
            acc, v = self.fresh("r"), self.fresh("v")
            body = ["%s %s = %s;" % (self.T, v, value),
                    "%s %s = %s;" % (self.T, acc, v),
                    "for (int k = 1; k <= %d; ++k)" % self.r.randrange(2, 5),
                    "  %s = %s;" % (acc, self.fill(self.r.choice([
                        "0.5{c} * {a} * tanh{f}({a}) + sin{f}({b} * k) / k",
                        "{b} + 0.25{c} * cos{f}({a} + k)",
                        "sqrt{f}(1.0{c} + {a} * {a}) * 0.5{c} + {b}"]), a=acc, b=v)),
                    "y[i] = %s;" % acc]
        if self.chance(0.4):
            self.features.add("grid-stride")
            block = self.r.choice([2, 4])
            grid = self.r.choice(["1", "2"])
            w.open("for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; "
                   "i += blockDim.x * gridDim.x)")
            for line in body:
                w(line)
            w.close()
        elif self.chance(0.25):
            # A 2D block, the thread's element from both of its indices.
            self.features.add("2d-block")
            bx, by = self.r.choice([(2, 2), (4, 2), (2, 4), (1, 4)])
            w("int i = (blockIdx.x * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;")
            w.open("if (i < n)")
            for line in body:
                w(line)
            w.close()
            w.close()
            self.kernels.append(w.text())
            g, b = self.fresh("grid"), self.fresh("block")
            hw("dim3 %s((n + %d) / %d), %s(%d, %d);" % (g, bx * by - 1, bx * by, b, bx, by))
            launch_args = args + ["n"] + [a for _, a in scalars]
            if via_struct:
                launch_args = self.struct_arguments(hw, name, launch_args)
            hw("%s_n::%s<<<%s, %s>>>(%s);" % (self.p, name, g, b, ", ".join(launch_args)))
            if via_struct:
                hw("cudaFree(%s);" % launch_args[0])
            return out
        else:
            block = self.r.choice(BLOCKS)
            grid = "(n + %d) / %d" % (block - 1, block)
            w("int i = blockIdx.x * blockDim.x + threadIdx.x;")
            w.open("if (i < n)")
            for line in body:
                w(line)
            w.close()
        w.close()
        self.kernels.append(w.text())
        launch_args = args + ["n"] + [a for _, a in scalars]
        if via_struct:
            launch_args = self.struct_arguments(hw, name, launch_args)
        self.launch(hw, name, grid, block, launch_args)
        if via_struct:
            # Freed at once: the derivative keeps it for the reverse pass.
            hw("cudaFree(%s);" % launch_args[0])
        return out

    def helper(self, value, atoms):
        """A __device__ function (noinline now and then) that the kernel
        calls with `value` and another atom; defined before the kernel."""
        self.features.add("device-function")
        name = self.fresh("f")
        inline = self.r.choice(["", "__noinline__ "])
        body = self.value(["p", "q"], ["p"], 2)
        self.kernels.append("  %s__device__ %s %s(%s p, %s q) {\n    return %s;\n  }\n" % (
            inline, self.T, name, self.T, self.T, body))
        return "%s(%s, %s)" % (name, value, self.r.choice(atoms))

    def kernel_tile(self, hw, bufs, host_scalars):
        """Shared-memory staging with a halo, then neighbour reads."""
        self.features.add("shared")
        elems = [b for b in bufs if b.kind == "elem"]
        ins = self.r.sample(elems, min(len(elems), self.r.randrange(1, 3)))
        self.last_ins = ins
        scalars = self.scalars(host_scalars)
        block = self.r.choice([4, 8])
        name = self.fresh("k")
        T = self.T
        w = Writer(1)
        ins_names = ["u%d" % k for k in range(len(ins))]
        w.open("__global__ void %s(%s)" % (name, self.params_text(ins_names, [(T, "y")], scalars)))
        w("__shared__ %s tile[%d];" % (T, block + 2))
        self.index_lines(w)
        zero = self.lit(0.0)
        w("tile[t + 1] = i < n ? u0[i] : %s;" % zero)
        w("if (t == 0)")
        w("  tile[0] = i > 0 && i - 1 < n ? u0[i - 1] : %s;" % zero)
        w("if (t == %d)" % (block - 1))
        w("  tile[%d] = i + 1 < n ? u0[i + 1] : %s;" % (block + 1, zero))
        w("__syncthreads();")
        atoms = ["tile[t]", "tile[t + 1]", "tile[t + 2]"] + [s for s, _ in scalars]
        atoms += self.loads(ins_names[1:], neighbours=False)
        w.open("if (i < n)")
        w("y[i] = %s;" % self.value(atoms, atoms[:3], 3))
        w.close()
        w.close()
        self.kernels.append(w.text())
        out = Buf(self.fresh("d"), self.n, T, "elem")
        self.launch(hw, name, "(n + %d) / %d" % (block - 1, block), block,
                    [b.name for b in ins] + [out.name, "n"] + [a for _, a in scalars])
        return out

    def kernel_reduce(self, hw, bufs, host_scalars):
        """A block's tree sum in shared memory: one value per block."""
        self.features.add("shared")
        self.features.add("block-sum")
        elems = [b for b in bufs if b.kind == "elem"]
        ins = self.r.sample(elems, min(len(elems), self.r.randrange(1, 3)))
        self.last_ins = ins
        scalars = self.scalars(host_scalars)
        block = self.r.choice([2, 4, 8])
        grid = self.r.choice([1, 2]) if self.chance(0.5) else -(-self.n // block)
        name = self.fresh("k")
        T = self.T
        w = Writer(1)
        ins_names = ["u%d" % k for k in range(len(ins))]
        w.open("__global__ void %s(%s)" % (name, self.params_text(ins_names, [(T, "part")], scalars)))
        w("__shared__ %s sum[%d];" % (T, block))
        w("int t = threadIdx.x;")
        w("%s v = %s;" % (T, self.lit(0.0)))
        w.open("for (int i = blockIdx.x * blockDim.x + t; i < n; i += blockDim.x * gridDim.x)")
        loads = self.loads(ins_names)
        w("v += %s;" % self.value(loads + [s for s, _ in scalars], loads, 2))
        w.close()
        if self.chance(0.3):
            # Through a function, as CUB stores a warp's aggregate.
            self.features.add("shared-store-in-helper")
            put = self.fresh("s")
            self.kernels.append("  __device__ __noinline__ void %s(%s *slot, %s v) {\n"
                                "    *slot = v;\n  }\n" % (put, T, T))
            w("%s(&sum[t], v);" % put)
        else:
            w("sum[t] = v;")
        w("__syncthreads();")
        w.open("for (int s = %d; s > 0; s >>= 1)" % (block // 2))
        w("if (t < s)")
        w("  sum[t] += sum[t + s];")
        w("__syncthreads();")
        w.close()
        w("if (t == 0)")
        w("  part[blockIdx.x] = sum[0];")
        w.close()
        self.kernels.append(w.text())
        out = Buf(self.fresh("d"), grid, T, "part")
        self.launch(hw, name, str(grid), block,
                    [b.name for b in ins] + [out.name, "n"] + [a for _, a in scalars])
        return out

    def kernel_warp(self, hw, bufs, host_scalars):
        """Warp shuffles: blocks of 32, every lane reaches every shuffle."""
        self.features.add("warp")
        elems = [b for b in bufs if b.kind == "elem"]
        ins = self.r.sample(elems, min(len(elems), self.r.randrange(1, 3)))
        self.last_ins = ins
        scalars = self.scalars(host_scalars)
        name = self.fresh("k")
        T = self.T
        zero = self.lit(0.0)
        ins_names = ["u%d" % k for k in range(len(ins))]
        shape = self.r.choice(["neighbour", "sum", "butterfly"])
        w = Writer(1)
        outs = [(T, "part")] if shape == "sum" else [(T, "y")]
        w.open("__global__ void %s(%s)" % (name, self.params_text(ins_names, outs, scalars)))
        w("int i = blockIdx.x * blockDim.x + threadIdx.x;")
        loads = self.loads(ins_names)
        w("%s wv = i < n ? %s : %s;" % (T, self.value(loads + [s for s, _ in scalars], loads, 2),
                                         zero))
        grid = -(-self.n // 32)
        if shape == "neighbour":
            w("%s wr = __shfl_down_sync(%s, wv, %d);" % (T, FULL_MASK, self.r.choice([1, 2, 5])))
            w("%s wl = __shfl_up_sync(%s, wv, 1);" % (T, FULL_MASK))
            w.open("if (i < n)")
            w("y[i] = %s;" % self.value(["wv", "wr", "wl"] + [s for s, _ in scalars],
                                        ["wr", "wl"], 2))
            w.close()
            out = Buf(self.fresh("d"), self.n, T, "elem")
        elif shape == "sum":
            w("for (int o = 16; o > 0; o >>= 1)")
            w("  wv += __shfl_down_sync(%s, wv, o);" % FULL_MASK)
            w("if (threadIdx.x % 32 == 0)")
            w("  part[i / 32] = wv;")
            out = Buf(self.fresh("d"), grid, T, "part")
        else:
            w("%s ws = wv;" % T)
            w("for (int o = 1; o < 32; o <<= 1)")
            w("  ws += __shfl_xor_sync(%s, ws, o);" % FULL_MASK)
            w.open("if (i < n)")
            w("y[i] = %s;" % self.value(["wv", "ws", "u0[i]"], ["ws"], 2))
            w.close()
            out = Buf(self.fresh("d"), self.n, T, "elem")
        w.close()
        self.kernels.append(w.text())
        self.launch(hw, name, "(n + 31) / 32", 32,
                    [b.name for b in ins] + [out.name, "n"] + [a for _, a in scalars])
        return out

    def kernel_cub(self, hw, bufs, host_scalars):
        """CUB's warp and block collectives: blocks of 32 or 64, every
        thread reaches the collective (threads past n bring zero)."""
        self.features.add("cub")
        elems = [b for b in bufs if b.kind == "elem"]
        ins = self.r.sample(elems, min(len(elems), self.r.randrange(1, 3)))
        self.last_ins = ins
        scalars = self.scalars(host_scalars)
        block = self.r.choice([32, 64])
        warps = block // 32
        grid = -(-self.n // block)
        name = self.fresh("k")
        T = self.T
        ins_names = ["u%d" % k for k in range(len(ins))]
        shape = self.r.choice(["warp-sum", "partial-warp-sum", "block-sum", "warp-scan",
                               "warp-max", "block-scan"])
        self.features.add("cub-" + shape)
        w = Writer(1)
        outs = [(T, "y")] if shape in ("warp-scan", "block-scan") else [(T, "part")]
        w.open("__global__ void %s(%s)" % (name, self.params_text(ins_names, outs, scalars)))
        w("int i = blockIdx.x * blockDim.x + threadIdx.x;")
        loads = self.loads(ins_names)
        w("%s v = i < n ? %s : %s;" % (T, self.value(loads + [s for s, _ in scalars], loads, 2),
                                        self.lit(0.0)))
        if shape == "block-sum":
            w("using Reduce = cub::BlockReduce<%s, %d>;" % (T, block))
            w("__shared__ typename Reduce::TempStorage storage;")
            w("%s r = Reduce(storage).Sum(v);" % T)
            w("if (threadIdx.x == 0)")
            w("  part[blockIdx.x] = r;")
            out = Buf(self.fresh("d"), grid, T, "part")
        elif shape in ("block-scan", "warp-scan"):
            if shape == "block-scan":
                w("using Scan = cub::BlockScan<%s, %d>;" % (T, block))
                w("__shared__ typename Scan::TempStorage storage;")
                storage = "storage"
            else:
                w("using Scan = cub::WarpScan<%s>;" % T)
                w("__shared__ typename Scan::TempStorage storage[%d];" % warps)
                storage = "storage[threadIdx.x / 32]"
            w("%s p;" % T)
            w("Scan(%s).InclusiveSum(v, p);" % storage)
            w.open("if (i < n)")
            w("y[i] = %s;" % self.value(["v", "p"] + [s for s, _ in scalars], ["p"], 2))
            w.close()
            out = Buf(self.fresh("d"), self.n, T, "elem")
        elif shape == "warp-max":
            # Threads past n bring a value below every other, which the
            # maximum never picks; a warp past n writes zero.
            w("using Reduce = cub::WarpReduce<%s>;" % T)
            w("__shared__ typename Reduce::TempStorage storage[%d];" % warps)
            w("%s m = i < n ? v : %s;" % (T, self.lit(-1e30)))
            w("%s r = Reduce(storage[threadIdx.x / 32]).Reduce(m, cuda::maximum<%s>{});" % (T, T))
            w("if (threadIdx.x % 32 == 0)")
            w("  part[i / 32] = i < n ? r : %s;" % self.lit(0.0))
            out = Buf(self.fresh("d"), grid * warps, T, "part")
        else:
            valid = ", %d" % self.r.randrange(1, 33) if shape == "partial-warp-sum" else ""
            w("using Reduce = cub::WarpReduce<%s>;" % T)
            w("__shared__ typename Reduce::TempStorage storage[%d];" % warps)
            w("%s r = Reduce(storage[threadIdx.x / 32]).Sum(v%s);" % (T, valid))
            w("if (threadIdx.x % 32 == 0)")
            w("  part[i / 32] = r;")
            out = Buf(self.fresh("d"), grid * warps, T, "part")
        w.close()
        self.kernels.append(w.text())
        self.launch(hw, name, "(n + %d) / %d" % (block - 1, block), block,
                    [b.name for b in ins] + [out.name, "n"] + [a for _, a in scalars])
        return out

    def kernel_atomic(self, hw, bufs, host_scalars, init):
        """atomicAdd of positive terms into a double accumulator."""
        self.features.add("atomic")
        elems = [b for b in bufs if b.kind == "elem"]
        ins = self.r.sample(elems, min(len(elems), self.r.randrange(1, 3)))
        self.last_ins = ins
        scalars = self.scalars(host_scalars)
        slots = self.r.choice([1, 1, 2])
        name = self.fresh("k")
        w = Writer(1)
        ins_names = ["u%d" % k for k in range(len(ins))]
        w.open("__global__ void %s(%s)" % (name, self.params_text(ins_names, [("double", "acc")],
                                                                    scalars)))
        loads = self.loads(ins_names)
        term = self.positive(loads + [s for s, _ in scalars], loads)
        if self.float:
            term = "(double)(%s)" % term
        slot = "acc" if slots == 1 else "&acc[i & 1]"
        if self.chance(0.5):
            block, grid = self.r.choice([2, 4]), self.r.choice(["1", "2"])
            w.open("for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; "
                   "i += blockDim.x * gridDim.x)")
            w("atomicAdd(%s, %s);" % (slot, term))
            w.close()
        else:
            block = self.r.choice(BLOCKS)
            grid = "(n + %d) / %d" % (block - 1, block)
            w("int i = blockIdx.x * blockDim.x + threadIdx.x;")
            w("if (i < n)")
            w("  atomicAdd(%s, %s);" % (slot, term))
        w.close()
        self.kernels.append(w.text())
        out = Buf(self.fresh("d"), slots, "double", "acc")
        init.append(out)
        self.launch(hw, name, grid, block,
                    [b.name for b in ins] + [out.name, "n"] + [a for _, a in scalars])
        return out

    # ---- the whole program ---------------------------------------------------

    def generate(self):
        r, T, n = self.r, self.T, self.n
        params = []
        host_scalars = []
        for k in range(r.randrange(0, 3)):
            act = "const" if r.random() < 0.2 else "out"
            p = Param("a%d" % k, "scalar", act, marker=r.random() < 0.7 or act == "const",
                      values=[self.input()])
            params.append(p)
            host_scalars.append(p.name)
        arrays = []
        for k in range(r.randrange(1, 3)):
            act = r.choice(["dup"] * 6 + ["dupnoneed", "const"])
            if k == 0 and act == "const":
                act = "dup"     # something to differentiate
            p = Param("x%d" % k, "array", act, marker=r.random() < 0.7 or act != "dup",
                      values=[self.input() for _ in range(n)])
            if act != "const":
                p.weights = self.weights(n)
            params.append(p)
            arrays.append(p)
        params.insert(r.randrange(len(params) + 1),
                      Param("n", "int", "const", marker=r.random() < 0.7, values=[n]))
        r.shuffle(params)

        hw = Writer(1)
        # Inputs: a device buffer per array, copied in.
        bufs, allocs = [], []
        size = lambda b: "%s * sizeof(%s)" % ("n" if b.kind == "elem" else b.length, b.ctype)
        body_in = Writer(1)
        for p in arrays:
            b = Buf(self.fresh("d"), n, T, "elem")
            bufs.append(b)
            allocs.append(b)
            if self.float:
                h = self.fresh("h")
                body_in("float %s[%d];" % (h, n))
                body_in("for (int i = 0; i < n; ++i)")
                body_in("  %s[i] = (float)%s[i];" % (h, p.name))
                body_in("cudaMemcpy(%s, %s, %s, cudaMemcpyHostToDevice);" % (b.name, h, size(b)))
            else:
                body_in("cudaMemcpy(%s, %s, %s, cudaMemcpyHostToDevice);" % (b.name, p.name, size(b)))

        # Kernels.
        results = []
        init = []
        last = None
        unread = set()    # elements written by a kernel and not read since
        kinds = ["map"] * 4 + ["tile"] * 2 + ["reduce"] * 2 + ["warp"] + ["atomic"] * 2 + ["cub"]
        for _ in range(r.randrange(1, 4)):
            kind = r.choice(kinds)
            if kind == "atomic":
                out = self.kernel_atomic(hw, bufs, host_scalars, init)
            else:
                out = getattr(self, "kernel_" + kind)(hw, bufs, host_scalars)
            for b in self.last_ins:
                unread.discard(b.name)
            unread.add(out.name)
            if out.kind == "elem":
                last = out
                if out not in bufs:
                    bufs.append(out)
                if r.random() < 0.15:
                    # A device-to-device copy that later kernels may read.
                    self.features.add("copy-device")
                    c = Buf(self.fresh("d"), n, T, "elem")
                    hw("cudaMemcpy(%s, %s, n * sizeof(%s), cudaMemcpyDeviceToDevice);"
                       % (c.name, out.name, T))
                    bufs.append(c)
                    allocs.append(c)
                    unread.add(c.name)
                    last = c
            if out not in allocs:
                allocs.append(out)
            if out.kind != "elem":
                results.append(out)
        # Copy back: the elements written last (and sometimes another
        # buffer), every accumulator and per-block value.
        backs = [b for b in bufs if b.name in unread] or ([last] if last else [])
        if r.random() < 0.3:
            backs.append(r.choice(bufs))
        backs = list(dict.fromkeys(backs)) + results
        hosts = {}
        tail = Writer(1)
        direct = set()
        outputs = [p for p in arrays if p.active]
        for b in backs:
            h = self.fresh("h")
            hosts[b.name] = h
            tail("%s %s[%d];" % (b.ctype, h, b.length))
            tail("cudaMemcpy(%s, %s, %s, cudaMemcpyDeviceToHost);" % (h, b.name, size(b)))
        # Outputs: straight from the device (double elements) or through
        # the host copy.
        elem_backs = [b for b in backs if b.kind == "elem"]
        for p in outputs:
            if not elem_backs or r.random() < 0.3:
                continue
            b = r.choice(elem_backs)
            if not self.float and r.random() < 0.4:
                tail("cudaMemcpy(%s, %s, %s, cudaMemcpyDeviceToHost);" % (p.name, b.name, size(b)))
                direct.add(p.name)
                self.features.add("copy-to-output")
            else:
                tail("for (int i = 0; i < n; ++i)")
                tail("  %s[i] = %s;" % (p.name, r.choice([
                    "%s[i]" % hosts[b.name], "0.5 * %s[i] + %s[i]" % (hosts[b.name], p.name),
                    "%s[i] * %s[i]" % (hosts[b.name], hosts[b.name])])))
        frees = ["cudaFree(%s);" % b.name for b in allocs]
        free_early = r.random() < 0.5
        if free_early:
            for f in frees:
                tail(f)
        returns = not outputs or r.random() < 0.85
        if returns:
            tail("double s = 0.0;")
            for b in backs:
                h = hosts[b.name]
                if b.kind == "elem":
                    tail("for (int i = 0; i < n; ++i)")
                    tail("  s += %s;" % r.choice([
                        "%s[i]" % h, "0.5 * %s[i] * %s[i]" % (h, h), "sin(%s[i])" % h,
                        "%s[i] * (0.25 + 0.125 * i)" % h]))
                else:
                    tail("for (int k = 0; k < %d; ++k)" % b.length)
                    tail("  s += %s;" % r.choice(["%s[k]" % h, "0.5 * %s[k]" % h]))
            if host_scalars and r.random() < 0.3:
                tail("s += 0.25 * %s;" % r.choice(host_scalars))
        if not free_early:
            for f in frees:
                tail(f)
        if returns:
            tail("return s;")

        # Allocations (and the accumulators' initial values) first.
        head = Writer(1)
        for b in allocs:
            head("%s *%s;" % (b.ctype, b.name))
            head("cudaMalloc(&%s, %s);" % (b.name, size(b)))
        for b in init:
            if host_scalars and r.random() < 0.4:
                z = self.fresh("z")
                head("double %s[%d] = {%s};" % (z, b.length, ", ".join(
                    ["0.25 * %s" % r.choice(host_scalars)] * b.length)))
                head("cudaMemcpy(%s, %s, sizeof %s, cudaMemcpyHostToDevice);" % (b.name, z, z))
                self.features.add("acc-from-host")
            else:
                head("cudaMemset(%s, 0, %s);" % (b.name, size(b)))
        body = head.text() + body_in.text() + hw.text() + tail.text()
        if self.float:
            self.features.add("float")

        def c_param(p):
            if p.kind == "scalar":
                return "double " + p.name
            if p.kind == "int":
                return "int " + p.name
            return ("const double *" if p.activity == "const" else "double *") + p.name
        signature = ", ".join(c_param(p) for p in params)
        head_line = "%s %s(%s) {\n" % ("double" if returns else "void", self.p, signature)
        includes = ["#include <math.h>"]
        if "cub" in self.features:
            includes.append("#include <cub/cub.cuh>")
        parts = (["// %s: generated by test-suite/fuzz/cuda_program.py from seed %d"
                  % (self.p, self.seed)] + includes +
                 ["namespace %s_n {\n%s} // namespace %s_n" % (self.p, "".join(self.kernels), self.p)])
        code = "\n".join(parts) + "\n" + head_line + body + "}\n"
        # Float elements: the primal is rounded to ~6e-8 and so are the
        # derivatives, so the C fuzzer's float steps and tolerance.
        fd_step, rtol = (1e-2, 1e-3) if self.float else (1e-4, 1e-6)
        return Program(self.seed, self.p, code, params, returns, None, 0, fd_step, rtol, None,
                       sorted(self.features))


def generate(seed):
    return Generator(seed).generate()


if __name__ == "__main__":
    import sys
    for s in sys.argv[1:] or ["1"]:
        print(generate(int(s)).code)
