// Loaded before everything else into a `qflame` run by the CLI tests (LD_PRELOAD): a machine without one of the
// libraries `qflame` and its window load on demand (ISA-L, Graphviz). dlopen of any path containing the text of
// QFLAME_TEST_REFUSE_DLOPEN (libisal, libgvc) fails as the loader fails for a missing file; every other dlopen goes
// through.
#include <dlfcn.h>

#include <cstdlib>
#include <cstring>
#include <string>

namespace {
// The file of the last dlopen refused, until dlerror tells it: per thread, as the loader keeps its error.
thread_local std::string refused;
}

extern "C" void *dlopen(const char *file, int mode)
{
    const char *text = std::getenv("QFLAME_TEST_REFUSE_DLOPEN");
    if (file && text && *text && std::strstr(file, text)) {
        refused = file;
        return nullptr;
    }
    using Open = void *(*)(const char *, int);
    return reinterpret_cast<Open>(dlsym(RTLD_NEXT, "dlopen"))(file, mode);
}

extern "C" char *dlerror()
{
    if (!refused.empty()) {
        thread_local std::string message;
        message = refused + ": cannot open shared object file: No such file or directory";
        refused.clear();
        return message.data();
    }
    using Error = char *(*)();
    return reinterpret_cast<Error>(dlsym(RTLD_NEXT, "dlerror"))();
}
