/* A library routine compiled without -fenzyme: no bitcode reaches the
 * engine, only its declaration (indirect-forward-library-target.c). */
double lib_cube(double t) { return t * t * t; }
