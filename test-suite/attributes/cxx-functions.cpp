// In C++ the attributes take the address of static member functions,
// functions in namespaces, template specializations and extern "C"
// functions the ordinary way; the registration globals have the same
// (unmangled) names as in C and constant initializers.
// RUN: %clangxx_enzyme -Werror -Wall -O2 -S -emit-llvm -o - %s | FileCheck %s
// RUN: %clangxx_enzyme -Werror -Wall -O0 -S -emit-llvm -o - %s | FileCheck %s
// RUN: %clangxx_enzyme -Werror -Wall -fenzyme -O2 -c -o %t.o %s

namespace physics {
double aug(double);
double rev(double, double);
template <class T> T tangent(T x, T dx) { return x * dx; }

struct Model {
  static double augment(double);
  static double gradient(double, double);
  [[enzyme::enzyme_inactive]] static void trace(const char *);
};
} // namespace physics

// Qualified names, `&`, a template-id and the C++11 spelling.
[[enzyme::enzyme("augment", physics::aug)]] double energy(double);
[[enzyme::enzyme("gradient", physics::rev)]] double energy(double);
__attribute__((enzyme("forward", &physics::tangent<double>))) double
energy(double x) {
  return x * x;
}

__attribute__((enzyme("augment", physics::Model::augment),
               enzyme("gradient", &physics::Model::gradient))) double
force(double);

// On a function template, each specialization the TU uses is registered.
template <class T> __attribute__((enzyme_inactive)) T identity(T x) {
  return x;
}

extern "C" __attribute__((enzyme_inactive)) void c_logger(const char *);

double use(double x) {
  physics::Model::trace("use");
  c_logger("use");
  return energy(x) + force(x) + identity(x) + identity(1.0f);
}

// CHECK-NOT: @llvm.global_ctors
// CHECK-DAG: @__enzyme_register_gradient_energy_{{[0-9]+}} = internal global [3 x ptr] [ptr @_Z6energyd, ptr @_ZN7physics3augEd, ptr @_ZN7physics3revEdd]
// CHECK-DAG: @__enzyme_register_derivative_energy_{{[0-9]+}} = internal global [2 x ptr] [ptr @_Z6energyd, ptr @_ZN7physics7tangentIdEET_S1_S1_]
// CHECK-DAG: @__enzyme_register_gradient_force_{{[0-9]+}} = internal global [3 x ptr] [ptr @_Z5forced, ptr @_ZN7physics5Model7augmentEd, ptr @_ZN7physics5Model8gradientEdd]
// CHECK-DAG: @__enzyme_inactivefn_trace_{{[0-9]+}} = internal global [1 x ptr] [ptr @_ZN7physics5Model5traceEPKc]
// CHECK-DAG: @__enzyme_inactivefn_identity_{{[0-9]+}} = internal global [1 x ptr] [ptr @_Z8identityIdET_S0_]
// CHECK-DAG: @__enzyme_inactivefn_identity_{{[0-9]+}} = internal global [1 x ptr] [ptr @_Z8identityIfET_S0_]
// CHECK-DAG: @__enzyme_inactivefn_c_logger_{{[0-9]+}} = internal global [1 x ptr] [ptr @c_logger]
// CHECK-DAG: @llvm.compiler.used = appending global [7 x ptr]
// The template specialization named only by the attribute is instantiated.
// CHECK-DAG: define linkonce_odr {{.*}}double @_ZN7physics7tangentIdEET_S1_S1_(
// CHECK-NOT: @llvm.global_ctors
