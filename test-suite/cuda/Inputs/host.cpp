int square(int X) { return X * X; }
