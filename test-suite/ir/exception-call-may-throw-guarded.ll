; A call left in generated code that may throw (here an inactive function
; the augmented forward pass runs as it is) becomes an invoke whose landing
; pad catches everything and reports the exception; a nounwind call stays a
; call. Forward mode uses the same guard. f(x) = x * x, with @log_event and
; @pure_event called on the way.
; RUN: %opt_enzyme -passes=enzyme -S %s | FileCheck %s

target triple = "x86_64-unknown-linux-gnu"

declare double @__enzyme_autodiff(ptr, ...)
declare double @__enzyme_fwddiff(ptr, ...)

declare void @log_event(i32) "enzyme_inactive"
declare void @pure_event(i32) nounwind "enzyme_inactive"

; The personality says this is C++ (at -O0, any function with a cleanup).
declare i32 @__gxx_personality_v0(...)

define double @f(double %x) personality ptr @__gxx_personality_v0 {
  call void @log_event(i32 1)
  call void @pure_event(i32 2)
  %y = fmul double %x, %x
  ret double %y
}

define double @grad(double %x) {
  %g = call double (ptr, ...) @__enzyme_autodiff(ptr @f, double %x)
  ret double %g
}

define double @tangent(double %x) {
  %t = call double (ptr, ...) @__enzyme_fwddiff(ptr @f, double %x, double 1.0)
  ret double %t
}

; Without debug info, the report names the call instead of locating it.
; CHECK: @enzyme.exception.fn = private unnamed_addr constant [2 x i8] c"f\00"
; CHECK: @enzyme.exception.at = private unnamed_addr constant {{.*}} c"a call to 'log_event'\00"

; CHECK-LABEL: define internal {{.*}} @f.aug(
; CHECK-SAME:    personality ptr @__gxx_personality_v0
; CHECK:         invoke void @log_event(i32 1)
; CHECK-NEXT:      to label %{{.*}} unwind label %[[PAD:.*]]
; CHECK:         call void @pure_event(i32 2)
; CHECK:       [[PAD]]:
; CHECK-NEXT:    landingpad { ptr, i32 }
; CHECK-NEXT:      catch ptr null
; CHECK-NEXT:    call void @__enzyme_rt_exception_thrown(ptr {{.*}}@enzyme.exception.fn, ptr {{.*}}@enzyme.exception.at)
; CHECK-NEXT:    unreachable

; The reporter is linked in once, never differentiated.
; CHECK-LABEL: define linkonce_odr hidden void @__enzyme_rt_exception_thrown(
; CHECK-SAME:    #[[ATTRS:[0-9]+]]

; CHECK-LABEL: define internal {{.*}} @f.fwd(
; CHECK-SAME:    personality ptr @__gxx_personality_v0
; CHECK:         invoke void @log_event(i32 1)
; CHECK-NEXT:      to label %{{.*}} unwind label %[[PAD:.*]]
; CHECK:         call void @pure_event(i32 2)
; CHECK:       [[PAD]]:
; CHECK-NEXT:    landingpad { ptr, i32 }
; CHECK-NEXT:      catch ptr null
; CHECK-NEXT:    call void @__enzyme_rt_exception_thrown(

; CHECK: attributes #[[ATTRS]] = { {{.*}}"enzyme_inactive"
