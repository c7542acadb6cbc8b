// Loaded before everything else into a `qflame` run by tst_cli (LD_PRELOAD): the machine without ISA-L. dlopen of
// any path naming libisal fails as the loader fails for a missing file; every other dlopen goes through.
#include <dlfcn.h>

#include <cstring>

namespace {
bool refused = false;
}

extern "C" void *dlopen(const char *file, int mode)
{
    if (file && std::strstr(file, "libisal")) {
        refused = true;
        return nullptr;
    }
    using Open = void *(*)(const char *, int);
    return reinterpret_cast<Open>(dlsym(RTLD_NEXT, "dlopen"))(file, mode);
}

extern "C" char *dlerror()
{
    if (refused) {
        refused = false;
        return const_cast<char *>("libisal.so.2: cannot open shared object file: No such file or directory");
    }
    using Error = char *(*)();
    return reinterpret_cast<Error>(dlsym(RTLD_NEXT, "dlerror"))();
}
