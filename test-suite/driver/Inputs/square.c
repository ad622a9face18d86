double square(double x) { return x * x; }
