; Forward mode through memory: a load from a duplicated pointer reads the
; tangent from the shadow, a store overwrites the shadow with the stored
; value's tangent (no accumulation), and a function returning void gives a
; void request.
; RUN: %opt_enzyme -passes=enzyme -S %s | FileCheck %s

target triple = "x86_64-unknown-linux-gnu"

declare void @__enzyme_fwddiff(ptr, ...)

define void @f(ptr %x, ptr %y) {
  %v = load double, ptr %x
  %w = fmul double %v, %v
  %p = getelementptr inbounds double, ptr %y, i64 1
  store double %w, ptr %p
  ret void
}

define void @test(ptr %x, ptr %dx, ptr %y, ptr %dy) {
  call void (ptr, ...) @__enzyme_fwddiff(ptr @f, ptr %x, ptr %dx, ptr %y, ptr %dy)
  ret void
}

; CHECK-LABEL: define void @test(
; CHECK:         call void @f.fwd(ptr %x, ptr %y, ptr %dx, ptr %dy)

; CHECK-LABEL: define internal void @f.fwd(
; CHECK-SAME:    ptr [[X:%[0-9a-z]+]], ptr [[Y:%[0-9a-z]+]], ptr [[DX:%[0-9a-z]+]], ptr [[DY:%[0-9a-z]+]])
; CHECK:         [[V:%.*]] = load double, ptr [[X]]
; CHECK:         [[DV:%.*]] = load double, ptr [[DX]]
; CHECK:         [[SP:%.*]] = getelementptr inbounds {{.*}}, ptr [[DY]], i64 {{[0-9]+}}
; CHECK-NOT:     load double, ptr [[SP]]
; CHECK:         store double {{.*}}, ptr [[SP]]
; CHECK:         ret void
