// ISA-L's three inflate calls for `qflame` (the QFLAME_ISAL_ON_DEMAND property, model/CMakeLists.txt), which loads
// libisal.so.2 only when it first inflates gzip. Listed among the program's needed libraries, the loader mapped and
// relocated it at every start: 0.4 ms of a C program that does nothing (4.6 against 4.2 ms, 400 runs in turn), out
// of the 8-10 ms of a `qflame top` on a small zstd profile (issue #31). The modules keep the shared library as
// needed; `qflame` exports none of these symbols, so each side calls its own.
#include "io/OnDemandLibrary.h"
#include "io/ReadOptions.h"

#include <isa-l/igzip_lib.h>

#include <dlfcn.h>

#include <string>

namespace {

struct Isal {
    void (*init)(inflate_state *) = nullptr;
    void (*reset)(inflate_state *) = nullptr;
    int (*inflate)(inflate_state *) = nullptr;
    std::string error;   // why it could not be loaded; empty once it is
};

Isal load()
{
    Isal isal;
    // The same library the modules load, already there once one is loaded.
    void *library = qflame::openOnDemand(QFLAME_ISAL_LIBDIR, "libisal.so.2", &isal.error);
    if (!library)
        return isal;
    isal.init = reinterpret_cast<void (*)(inflate_state *)>(dlsym(library, "isal_inflate_init"));
    isal.reset = reinterpret_cast<void (*)(inflate_state *)>(dlsym(library, "isal_inflate_reset"));
    isal.inflate = reinterpret_cast<int (*)(inflate_state *)>(dlsym(library, "isal_inflate"));
    if (!isal.init || !isal.reset || !isal.inflate)
        isal.error = "libisal.so.2 lacks the inflate calls";
    return isal;
}

// Loaded once, by the first caller (the Inflater's constructor, on whichever thread reads); the rest wait for it.
const Isal &isal()
{
    static const Isal loaded = load();
    return loaded;
}

}   // namespace

// The Inflater calls isal_inflate_init first, from its constructor, which may throw: a library that cannot be
// loaded fails the read there with one line, as a corrupt file does, and nothing else.
extern "C" void isal_inflate_init(inflate_state *state)
{
    const Isal &i = isal();
    if (!i.error.empty())
        throw qflame::ProfileError("gzip: cannot load ISA-L, the gzip library (" + i.error + ")");
    i.init(state);
}

extern "C" void isal_inflate_reset(inflate_state *state)
{
    isal().reset(state);
}

extern "C" int isal_inflate(inflate_state *state)
{
    return isal().inflate(state);
}
