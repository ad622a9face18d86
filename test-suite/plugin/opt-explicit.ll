; opt -passes=enzyme runs the pass once on the module.
; RUN: %opt_enzyme -passes=enzyme -enzyme-trace-pipeline -disable-output %s 2>&1 | FileCheck %s --check-prefix=EXPLICIT
; EXPLICIT: enzyme: pass ran on module '{{.*}}opt-explicit.ll' (x86_64-unknown-linux-gnu) at explicit
; EXPLICIT-NOT: enzyme: pass ran

; The default pipelines place it after simplification at -O1..-O3 and in the
; -O0 pipeline, once each.
; RUN: %opt_enzyme -passes='default<O2>' -enzyme-trace-pipeline -disable-output %s 2>&1 | FileCheck %s --check-prefix=O2
; O2: enzyme: pass ran on module '{{.*}}' (x86_64-unknown-linux-gnu) at optimizer-early
; O2-NOT: enzyme: pass ran
; RUN: %opt_enzyme -passes='default<O0>' -enzyme-trace-pipeline -disable-output %s 2>&1 | FileCheck %s --check-prefix=O0
; O0: enzyme: pass ran on module '{{.*}}' (x86_64-unknown-linux-gnu) at O0
; O0-NOT: enzyme: pass ran

; Full LTO: at the start of the link-time pipeline.
; RUN: %opt_enzyme -passes='lto<O2>' -enzyme-trace-pipeline -disable-output %s 2>&1 | FileCheck %s --check-prefix=FULLLTO
; FULLLTO: enzyme: pass ran on module '{{.*}}' (x86_64-unknown-linux-gnu) at full-lto-early
; FULLLTO-NOT: enzyme: pass ran

target triple = "x86_64-unknown-linux-gnu"

define double @f(double %x) {
  %y = fmul double %x, %x
  ret double %y
}
