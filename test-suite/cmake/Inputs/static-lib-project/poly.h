#ifndef POLY_H
#define POLY_H

double poly(double x);

#endif
