double twice(double x) { return 2.0 * x; }
