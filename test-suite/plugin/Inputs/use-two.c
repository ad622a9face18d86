#include <stdio.h>
double twice(double);
int main(void) {
  printf("%.1f\n", twice(2.0));
  return 0;
}
