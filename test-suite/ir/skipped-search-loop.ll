; A binary search for an interval carries no derivative, and the reverse
; pass needs nothing from inside it (only its result, after it): the
; reverse pass skips the loop. Its augmented forward pass records nothing of
; the loop's path, and its reverse goes from the loop's exit straight to
; before it; the interpolation after the search takes its adjoints as
; usual. (What the last trip computed, once, is all the tape holds.)
; RUN: %opt_enzyme -passes=enzyme -S %s | FileCheck %s

target triple = "x86_64-unknown-linux-gnu"

declare double @__enzyme_autodiff(ptr, ...)
@enzyme_const = external global i32

; lo = search(grid, e); return y[lo] * (1 - t) + y[lo + 1] * t
define double @f(ptr %grid, ptr %y, double %e, i32 %n) {
entry:
  %last = add i32 %n, -1
  br label %search

search:
  %lo = phi i32 [ 0, %entry ], [ %lo.next, %search ]
  %hi = phi i32 [ %last, %entry ], [ %hi.next, %search ]
  %sum = add i32 %lo, %hi
  %mid = sdiv i32 %sum, 2
  %mid.ext = sext i32 %mid to i64
  %at = getelementptr inbounds double, ptr %grid, i64 %mid.ext
  %g = load double, ptr %at
  %above = fcmp ogt double %g, %e
  %hi.next = select i1 %above, i32 %mid, i32 %hi
  %lo.next = select i1 %above, i32 %lo, i32 %mid
  %width = sub i32 %hi.next, %lo.next
  %more = icmp sgt i32 %width, 1
  br i1 %more, label %search, label %found

found:
  %lo.ext = sext i32 %lo.next to i64
  %g0.at = getelementptr inbounds double, ptr %grid, i64 %lo.ext
  %g0 = load double, ptr %g0.at
  %t = fsub double %e, %g0
  %y0.at = getelementptr inbounds double, ptr %y, i64 %lo.ext
  %y0 = load double, ptr %y0.at
  %y1.at = getelementptr inbounds double, ptr %y0.at, i64 1
  %y1 = load double, ptr %y1.at
  %u = fsub double 1.0, %t
  %a = fmul double %y0, %u
  %b = fmul double %y1, %t
  %r = fadd double %a, %b
  ret double %r
}

define double @test(ptr %grid, ptr %y, ptr %dy, double %e, i32 %n) {
  %r = call double (ptr, ...) @__enzyme_autodiff(ptr @f, ptr @enzyme_const, ptr %grid, ptr %y, ptr %dy, ptr @enzyme_const, double %e, ptr @enzyme_const, i32 %n)
  ret double %r
}

; The search loop of the augmented forward pass pushes nothing.
; CHECK-LABEL: define internal {{.*}} @f.aug(
; CHECK:       search:
; CHECK-NOT:     store
; CHECK:         br i1 %more{{.*}}, label %search, label %found
; The reverse pass has no block of the loop: from the exit's reverse it goes
; to the reverse of the block before the loop.
; CHECK-LABEL: define internal {{.*}} @f.rev(
; CHECK-NOT:   search
; CHECK:       ret void
