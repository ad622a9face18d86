#!/bin/sh
# make-fake-toolkit.sh DIR VERSION: a CUDA toolkit skeleton whose cuda.h says
# VERSION (e.g. 13000), complete enough for `-###`, which runs no tool.
set -e
dir=$1
rm -rf "$dir"
mkdir -p "$dir/bin" "$dir/include/cccl" "$dir/nvvm/libdevice" "$dir/lib64"
echo "#define CUDA_VERSION $2" > "$dir/include/cuda.h"
for tool in ptxas fatbinary nvlink; do
  printf '#!/bin/sh\nexit 1\n' > "$dir/bin/$tool"
  chmod +x "$dir/bin/$tool"
done
touch "$dir/nvvm/libdevice/libdevice.10.bc" "$dir/lib64/libcudart.so"
