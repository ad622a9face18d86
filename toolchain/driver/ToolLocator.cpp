//===- ToolLocator.cpp - Finding clang, lld and the plugin ----------------===//
//
// Part of the Enzyme toolchain.
//
//===----------------------------------------------------------------------===//

#include "ToolLocator.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Program.h"

#include <initializer_list>

using namespace llvm;

namespace enzyme::driver {

ToolLocator::ToolLocator(const char *Argv0, void *MainAddr) {
  std::string Self = sys::fs::getMainExecutable(Argv0, MainAddr);
  SmallString<256> Dir(Self);
  sys::path::remove_filename(Dir); // <prefix>/bin
  sys::path::remove_filename(Dir); // <prefix>
  Prefix = std::string(Dir);
}

static std::string joinPath(StringRef Base,
                            std::initializer_list<StringRef> Components) {
  SmallString<256> P(Base);
  for (StringRef Component : Components)
    sys::path::append(P, Component);
  return std::string(P);
}

static bool isExecutable(const std::string &Path) {
  return sys::fs::can_execute(Path) && !sys::fs::is_directory(Path);
}

/// Looks for the first executable among \p Names in \p Dir.
static std::optional<std::string>
findIn(StringRef Dir, std::initializer_list<StringRef> Names) {
  for (StringRef Name : Names) {
    std::string Candidate = joinPath(Dir, {Name});
    if (isExecutable(Candidate))
      return Candidate;
  }
  return std::nullopt;
}

/// Honours an environment override; a set but unusable one is an error so a
/// typo never silently falls back to another tool.
static std::optional<Expected<std::string>> fromEnvironment(StringRef Var) {
  std::optional<std::string> Value = sys::Process::GetEnv(Var);
  if (!Value || Value->empty())
    return std::nullopt;
  if (isExecutable(*Value))
    return Expected<std::string>(*Value);
  return Expected<std::string>(createStringError(
      "%s is set to '%s', which is not an executable; fix or unset it",
      Var.str().c_str(), Value->c_str()));
}

Expected<std::string> ToolLocator::findClang() const {
  if (auto Env = fromEnvironment("ENZYME_CLANG"))
    return std::move(*Env);
  if (auto Bundled = findIn(joinPath(Prefix, {"bin"}), {"clang-19", "clang"}))
    return *Bundled;
  if (auto Built = findIn(ENZYME_LLVM_TOOLS_DIR, {"clang"}))
    return *Built;
  if (ErrorOr<std::string> OnPath = sys::findProgramByName("clang-19"))
    return *OnPath;
  return createStringError(
      "cannot find clang 19 (looked in %s/bin, %s and PATH); install the "
      "clang-19 package (scripts/setup) or set ENZYME_CLANG",
      Prefix.c_str(), static_cast<const char *>(ENZYME_LLVM_TOOLS_DIR));
}

Expected<std::string> ToolLocator::findLLD(const std::string &ClangPath) const {
  if (auto Env = fromEnvironment("ENZYME_LLD"))
    return std::move(*Env);
  if (auto Bundled = findIn(joinPath(Prefix, {"bin"}), {"ld.lld-19", "ld.lld"}))
    return *Bundled;
  SmallString<256> RealClang;
  if (!sys::fs::real_path(ClangPath, RealClang)) {
    sys::path::remove_filename(RealClang);
    if (auto Beside = findIn(RealClang, {"ld.lld"}))
      return *Beside;
  }
  if (ErrorOr<std::string> OnPath = sys::findProgramByName("ld.lld-19"))
    return *OnPath;
  return createStringError(
      "cannot find ld.lld 19, which -fenzyme needs to link; install the "
      "lld-19 package (scripts/setup) or set ENZYME_LLD");
}

Expected<std::string> ToolLocator::findPlugin(StringRef Name) const {
  std::string Path = joinPath(Prefix, {ENZYME_INSTALL_LIBDIR, Name});
  if (sys::fs::exists(Path))
    return Path;
  return createStringError(
      "cannot find the Enzyme plugin '%s'; reinstall the toolchain or pass "
      "-fenzyme-plugin=<path>",
      Path.c_str());
}

std::string ToolLocator::includeDir() const {
  return joinPath(Prefix, {"include"});
}

std::string ToolLocator::cudaCompatDir() const {
  return joinPath(Prefix, {ENZYME_INSTALL_LIBDIR, "enzyme", "cuda-compat"});
}

std::string ToolLocator::cudaRetargetTool() const {
  return joinPath(Prefix, {"bin", "enzyme-cuda-retarget"});
}

std::string ToolLocator::cudaEmulationLibrary() const {
  return joinPath(Prefix,
                  {ENZYME_INSTALL_LIBDIR, "libenzyme-cuda-emulation.a"});
}

} // namespace enzyme::driver
