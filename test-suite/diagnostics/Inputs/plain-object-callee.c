/* The callee of missing-definition-plain-object.c, compiled with and
 * without -fenzyme. */
double stiffness(double x) { return 3.0 * x * x; }
