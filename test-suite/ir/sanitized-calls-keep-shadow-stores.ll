; With -fenzyme the link optimises code that AddressSanitizer instrumented
; before the link. modf is `memory(argmem: write)` for the program as written,
; but its interceptor reads the shadow of %ip. Dead-store elimination used to
; delete the shadow store that brings %ip into scope before the call (the
; store after it overwrites the same shadow bytes), and ASan reported a
; stack-use-after-scope inside modf. The link now forgets the memory effects
; of sanitized modules' functions and calls (and keeps a library function's
; from being inferred again); a module without sanitized code keeps them.
; RUN: %opt_enzyme -passes='lto<O2>' -S %s | FileCheck %s
; RUN: sed -e 's/ sanitize_address//' %s | %opt_enzyme -passes='lto<O2>' -S \
; RUN:   | FileCheck %s --check-prefix=PLAIN

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

; CHECK: declare double @modf(double, ptr nocapture) local_unnamed_addr [[MODF:#[0-9]+]]
; PLAIN: declare double @modf(double, ptr nocapture) local_unnamed_addr [[MODF:#[0-9]+]]
declare double @modf(double, ptr nocapture) #1
declare void @llvm.lifetime.start.p0(i64 immarg, ptr nocapture)
declare void @llvm.lifetime.end.p0(i64 immarg, ptr nocapture)

; CHECK-LABEL: define {{.*}}double @fraction(
; CHECK: store i8 0, ptr %shadow
; CHECK: call double @modf(
; CHECK-NEXT: store i8 -8, ptr %shadow
; PLAIN-LABEL: define {{.*}}double @fraction(
; PLAIN-NOT: store i8 0
; PLAIN: call double @modf(
define double @fraction(double %x, i64 %shadowbase) #0 {
  %ip = alloca double, align 8
  %shadow = inttoptr i64 %shadowbase to ptr
  store i8 0, ptr %shadow, align 1
  call void @llvm.lifetime.start.p0(i64 8, ptr %ip)
  %fp = call double @modf(double %x, ptr %ip)
  store i8 -8, ptr %shadow, align 1
  call void @llvm.lifetime.end.p0(i64 8, ptr %ip)
  ret double %fp
}

; CHECK: attributes [[MODF]] = { nobuiltin nounwind }
; PLAIN: attributes [[MODF]] = { {{.*}}memory(argmem: write)

attributes #0 = { nounwind sanitize_address }
attributes #1 = { nounwind memory(argmem: write) }
