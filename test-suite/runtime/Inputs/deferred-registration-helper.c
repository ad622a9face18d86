/* Compiled with -fenzyme in its own file: a request that calls it waits
 * for the link (custom-gradient-request-at-link.c). */
double helper_twice(double x) { return 2 * x; }
