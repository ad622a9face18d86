# -*- Python -*-
# lit configuration for the Enzyme toolchain test suite.

import os
import shutil
import subprocess
import sys

import lit.formats
import lit.util

config.name = "Enzyme"
config.test_format = lit.formats.ShTest(execute_external=True)
config.suffixes = [".ll", ".c", ".cpp", ".cu", ".test"]
config.excludes = ["Inputs", "benchmarks", "CMakeLists.txt", "lit.cfg.py"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = config.enzyme_test_exec_root

build = config.enzyme_build_root
llvm_bin = config.llvm_tools_dir
major = config.llvm_version_major
plugin = os.path.join(build, "lib", "LLVMEnzyme-%s.so" % major)

# Tests see the LLVM 19 tools first, whatever else is on PATH.
config.environment["PATH"] = os.pathsep.join(
    [llvm_bin, os.path.join(build, "bin"), config.environment.get("PATH", "")])
for var in ["HOME", "TMPDIR", "CUDA_PATH", "CUDA_HOME"]:
    if var in os.environ:
        config.environment[var] = os.environ[var]
# A developer's override must not leak into the driver tests.
for var in ["ENZYME_CLANG", "ENZYME_LLD", "ENZYME_TRACE_PIPELINE"]:
    config.environment.pop(var, None)

config.substitutions.append(("%clangxx_enzyme", os.path.join(build, "bin", "enzyme-clang++")))
config.substitutions.append(("%clang_enzyme", os.path.join(build, "bin", "enzyme-clang")))
config.substitutions.append(("%opt_enzyme", "%s -load-pass-plugin=%s" % (os.path.join(llvm_bin, "opt"), plugin)))
config.substitutions.append(("%enzyme_plugin_dir", os.path.join(build, "lib")))
config.substitutions.append(("%enzyme_build", build))
config.substitutions.append(("%enzyme_source", config.enzyme_source_root))
config.substitutions.append(("%cmake_generator", config.cmake_generator))
config.substitutions.append(("%clangxx_host", os.path.join(llvm_bin, "clang++")))
config.substitutions.append(("%python", sys.executable))
config.substitutions.append(("%cmake", config.cmake_command))
config.substitutions.append(("%llvm_bin", llvm_bin))
config.substitutions.append(("%shared", config.shared_dir))

# Features.
cuda_root = os.environ.get("CUDA_PATH") or os.environ.get("CUDA_HOME") or "/usr/local/cuda"
if os.path.exists(os.path.join(cuda_root, "include", "cuda.h")):
    config.available_features.add("cuda")


def has_gpu():
    smi = shutil.which("nvidia-smi")
    if not smi:
        return False
    try:
        out = subprocess.run([smi, "-L"], capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.SubprocessError):
        return False
    return out.returncode == 0 and "GPU" in out.stdout


if has_gpu():
    config.available_features.add("gpu")
else:
    lit_config.note("no GPU: CUDA runtime tests run under emulation only")

# GPU builds with clang's new offload driver (relocatable device code) link
# through clang-linker-wrapper (Debian's clang-tools-19).
if "cuda" in config.available_features and os.path.exists(
        os.path.join(llvm_bin, "clang-linker-wrapper")):
    config.available_features.add("offload-new-driver")

# CUDA runtime tests run under the toolchain's CUDA emulation everywhere
# (-fcuda-emulate, feature cuda-emulation), and on the GPU as well where one
# is present (feature gpu; RUN lines guard those steps with %if gpu).
if "cuda" in config.available_features and os.path.exists(
        os.path.join(build, "lib", "libenzyme-cuda-emulation.a")):
    config.available_features.add("cuda-emulation")

# LLVM's OpenMP runtime (libomp-19-dev) for -fopenmp, OpenMPI for MPI.
if os.path.exists(os.path.join(os.path.dirname(llvm_bin), "lib", "libomp.so")):
    config.available_features.add("openmp")
# Debian's Kokkos (libtrilinos-kokkos-dev: Kokkos 3.4, Serial backend, a
# shared library without bitcode).
kokkos_include = "/usr/include/trilinos"
if os.path.exists(os.path.join(kokkos_include, "Kokkos_Core.hpp")):
    config.available_features.add("kokkos")
    config.substitutions.append(
        ("%kokkos_flags",
         "-I" + kokkos_include + " -ltrilinos_kokkoscore -ldl"))
# Trilinos' Sacado (libtrilinos-sacado-dev) for the Kokkos benchmark's
# comparison. Its Kokkos support includes Teuchos (libtrilinos-teuchos-dev),
# which Debian builds with MPI: mpi.h comes from OpenMPI's mpicc.
if ("kokkos" in config.available_features and shutil.which("mpicc") and
        all(os.path.exists(os.path.join(kokkos_include, h))
            for h in ("Sacado.hpp", "Teuchos_PromotionTraits.hpp"))):
    config.available_features.add("sacado")
    mpi_compile = subprocess.run(["mpicc", "--showme:compile"],
                                 capture_output=True, text=True).stdout.strip()
    config.substitutions.append(
        ("%sacado_flags", "-I" + kokkos_include + " " + mpi_compile))
    config.substitutions.append(
        ("%sacado_libs", "-ltrilinos_teuchoscore -ltrilinos_teuchoscomm"))
# Kokkos built from source with the toolchain (scripts/build-kokkos, cached
# in the build tree), when the tarball is beside the repository.
kokkos_tarball = os.path.join(os.path.dirname(config.enzyme_source_root),
                              "shared", "third-party", "kokkos-4.6.01.tar.gz")
if os.path.exists(kokkos_tarball):
    config.available_features.add("kokkos-source")
    config.substitutions.append(
        ("%build_kokkos",
         "env BUILD_DIR=" + build + " " +
         os.path.join(config.enzyme_source_root, "scripts", "build-kokkos") +
         " " + kokkos_tarball))
    # Where scripts/build-kokkos installs it (Serial and OpenMP).
    kokkos_prefix = os.path.join(build, "kokkos", "kokkos-4.6.01-serial-openmp",
                                 "install")
    config.substitutions.append(
        ("%kokkos_source_flags",
         "-fopenmp -I" + os.path.join(kokkos_prefix, "include") + " -L" +
         os.path.join(kokkos_prefix, "lib") + " -lkokkoscore -ldl"))
else:
    lit_config.note("skipped: no Kokkos source (" + kokkos_tarball + ")")
if shutil.which("mpicc") and shutil.which("mpirun"):
    config.available_features.add("mpi")
    showme = lambda what: subprocess.run(
        ["mpicc", "--showme:" + what], capture_output=True, text=True).stdout.strip()
    # OpenMPI's include and link flags, for the drivers without mpicc.
    config.substitutions.append(
        ("%mpi_flags", showme("compile") + " " + showme("link")))
    # Processes on this machine only, more of them than cores; OpenMPI
    # refuses root without being told.
    mpirun = "mpirun --oversubscribe --mca btl self,vader"
    if os.geteuid() == 0:
        mpirun += " --allow-run-as-root"
    config.substitutions.append(("%mpirun", mpirun))

if shutil.which("cmake"):
    config.available_features.add("cmake")
