; The inline PTX statements that CUB's kernels use and the emulator
; translates: a cache prefetch is dropped, a warp shuffle becomes the
; runtime's shuffle (mode 2: down; mask, value, offset, clamp), loads with
; a cache operator become plain loads (a vector load one per element, the
; first with the vector's alignment; `ld.cv` volatile), loads and stores
; ordered at GPU scope become atomics of the whole (16 bytes through the
; runtime's lock), the steps of CUB's warp scans and reductions of a sum
; (blocks of moves, shuffles and guarded additions, read as the engine
; reads them, Core/PtxStatements.h) shuffles and a select of the sum (or of
; the value shuffled: the lane's own where its source is out of range),
; shifts a select of 0 where PTX clamps the amount, a bit mask 64-bit
; arithmetic, a ballot match a ballot and its complement, and `exit` the
; runtime's end of the thread. Other statements stay errors
; (unsupported-features.cu).
; RUN: enzyme-cuda-retarget %s -o %t.bc --id-file=%t.id --cuda-version=13000 --triple=x86_64-unknown-linux-gnu
; RUN: llvm-dis %t.bc -o - | FileCheck %s

target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; CHECK-LABEL: define internal void @kernel(
define dso_local void @kernel(ptr %in, ptr %out) #0 {
; CHECK-NOT: prefetch
  call void asm sideeffect "prefetch.global.L2 [$0];", "l"(ptr %in)
; CHECK: %[[SHFL:.*]] = call i64 @__cudaemu_shuffle(i32 2, i32 -1, i32 7, i32 1, i32 31)
; CHECK: trunc i64 %[[SHFL]] to i32
  %s = call i32 asm sideeffect "shfl.sync.down.b32 $0, $1, $2, $3, $4;", "=r,r,r,r,r"(i32 7, i32 1, i32 31, i32 -1)
; CHECK: load i64, ptr %in, align 8
  %a = call i64 asm sideeffect "ld.global.nc.u64 $0, [$1];", "=l,l"(ptr %in)
; CHECK: load i64, ptr %in, align 16
; CHECK: %[[SECOND:.*]] = getelementptr inbounds i64, ptr %in, i64 1
; CHECK: load i64, ptr %[[SECOND]], align 8
  %v = call { i64, i64 } asm sideeffect "ld.global.nc.v2.u64 {$0, $1}, [$2];", "=l,=l,l"(ptr %in)
; CHECK: load volatile i32, ptr %in, align 4
  %c = call i32 asm sideeffect "ld.cv.u32 $0, [$1];", "=r,l"(ptr %in)
; CHECK: load atomic i64, ptr %in monotonic, align 8
  %r = call { i32, i32 } asm sideeffect "ld.relaxed.gpu.v2.u32 {$0, $1}, [$2];", "=r,=r,l"(ptr %in)
; CHECK: call void @__cudaemu_load128(ptr %in, ptr
  %w = call { i64, i64 } asm sideeffect "ld.acquire.gpu.v2.u64 {$0, $1}, [$2];", "=l,=l,l"(ptr %in)
; CHECK: store atomic i64 {{.*}}, ptr %out release, align 8
  call void asm sideeffect "st.release.gpu.v2.u32 [$0], {$1, $2};", "l,r,r"(ptr %out, i32 1, i32 2)
; CHECK: call void @__cudaemu_store128(ptr %out, i64 3, i64 4)
  call void asm sideeffect "st.relaxed.gpu.v2.u64 [$0], {$1, $2};", "l,l,l"(ptr %out, i64 3, i64 4)
; CHECK: %[[UP:.*]] = call i64 @__cudaemu_shuffle(i32 1, i32 -1, i32 5, i32 2, i32 0)
; CHECK: %[[SUM:.*]] = add i32
; CHECK: select i1 %{{.*}}, i32 %[[SUM]], i32 %{{.*}}
  %scan = call i32 asm sideeffect "{\0A  .reg .s32 r0;\0A  .reg .pred p;\0A  shfl.sync.up.b32 r0|p, $1, $2, $3, $5;\0A  @p add.s32 r0, r0, $4;\0A  mov.s32 $0, r0;\0A}", "=r,r,r,r,r,r"(i32 5, i32 2, i32 0, i32 5, i32 -1)
; CHECK: call i64 @__cudaemu_shuffle(i32 2, i32 -1, i32 {{-?[0-9]+}}, i32 1, i32 31)
; CHECK: call i64 @__cudaemu_shuffle(i32 2, i32 -1, i32 {{-?[0-9]+}}, i32 1, i32 31)
; CHECK: %[[REDSUM:.*]] = fadd double 1.500000e+00, %{{.*}}
; CHECK: select i1 %{{.*}}, double %[[REDSUM]], double 1.500000e+00
  %red = call double asm sideeffect "{\0A  .reg .u32 lo;\0A  .reg .u32 hi;\0A  .reg .pred p;\0A  .reg .f64 r0;\0A  mov.b64 $0, $1;\0A  mov.b64 {lo, hi}, $1;\0A  shfl.sync.down.b32 lo|p, lo, $2, $3, $4;\0A  shfl.sync.down.b32 hi|p, hi, $2, $3, $4;\0A  mov.b64 r0, {lo, hi};\0A  @p add.f64 $0, $0, r0;\0A}", "=d,d,r,r,r"(double 1.5, i32 1, i32 31, i32 -1)
; CHECK: %[[BIG:.*]] = icmp uge i64 %{{.*}}, 64
; CHECK: %[[SHR:.*]] = lshr i64 %{{[0-9]+}}, %{{.*}}
; CHECK: select i1 %[[BIG]], i64 0, i64 %[[SHR]]
  %shifted = call i64 asm "shr.b64 $0, $1, $2;", "=l,l,r"(i64 %a, i32 %c)
; CHECK: shl i64 1,
; CHECK: trunc i64 %{{.*}} to i32
  %mask = call i32 asm "bmsk.clamp.b32 $0, $1, $2;", "=r,r,r"(i32 %c, i32 %s)
; CHECK: %[[BALLOT:.*]] = call i32 @__cudaemu_vote(i32 3, i32 -1,
; CHECK: %[[NOT:.*]] = xor i32 %[[BALLOT]], -1
; CHECK: select i1 %{{.*}}, i32 %[[BALLOT]], i32 %[[NOT]]
  %match = call i32 asm "{\0A    .reg .pred p;\0A    and.b32 $0, $1, $2;    setp.ne.u32 p, $0, 0;\0A    vote.ballot.sync.b32 $0, p, 0xffffffff;\0A    @!p not.b32 $0, $0;\0A}\0A", "=r,r,r"(i32 %c, i32 2)
  %v0 = extractvalue { i64, i64 } %v, 0
  %sum = add i64 %a, %v0
  %s64 = zext i32 %s to i64
  %c64 = zext i32 %c to i64
  %t = add i64 %sum, %s64
  %u0 = add i64 %t, %c64
  %r0 = extractvalue { i32, i32 } %r, 0
  %w0 = extractvalue { i64, i64 } %w, 0
  %r64 = zext i32 %r0 to i64
  %scan64 = zext i32 %scan to i64
  %u1 = add i64 %u0, %r64
  %u2 = add i64 %u1, %w0
  %u3 = add i64 %u2, %scan64
  %mask64 = zext i32 %mask to i64
  %match64 = zext i32 %match to i64
  %u4 = add i64 %u3, %shifted
  %u5 = add i64 %u4, %mask64
  %redbits = bitcast double %red to i64
  %u6 = add i64 %u5, %match64
  %u = add i64 %u6, %redbits
  store i64 %u, ptr %out, align 8
; CHECK: call void @__cudaemu_exit()
  call void asm sideeffect "exit;", ""()
  ret void
}

attributes #0 = { convergent "target-cpu"="sm_75" "target-features"="+ptx85,+sm_75" }

!nvvm.annotations = !{!0}
!0 = !{ptr @kernel, !"kernel", i32 1}
