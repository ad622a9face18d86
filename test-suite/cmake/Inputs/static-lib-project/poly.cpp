#include "poly.h"

double poly(double x) { return 3.0 * x * x * x - 2.0 * x + 1.0; }
