// Graphviz's calls for the window (the QFLAME_GRAPHVIZ_ON_DEMAND property, model/CMakeLists.txt), which loads
// libgvc.so.6 (and with it libcgraph.so.6) only when it first lays a call graph out. Listed among the window's needed
// libraries, the loader mapped and relocated them and theirs (cdt, pathplan, ltdl) at every start of the window:
// 1.6 ms of a program that loads the window's other libraries (28.2 against 29.8 ms, 60 runs in turn; issue #31),
// for a view most sessions never open. The tests link the library itself; `qflame graph --png` (tst_cliformats)
// draws through this file. The declarations come from Graphviz's headers, so a call that differs does not compile.
#include "io/OnDemandLibrary.h"

#include <graphviz/cgraph.h>
#include <graphviz/gvc.h>

#include <dlfcn.h>

#include <stdexcept>
#include <string>

namespace {

struct Graphviz {
    GVC_t *(*context)() = nullptr;
    int (*layout)(GVC_t *, graph_t *, const char *) = nullptr;
    int (*freeLayout)(GVC_t *, graph_t *) = nullptr;
    int (*freeContext)(GVC_t *) = nullptr;
    Agraph_t *(*open)(char *, Agdesc_t, Agdisc_t *) = nullptr;
    int (*close)(Agraph_t *) = nullptr;
    Agnode_t *(*node)(Agraph_t *, char *, int) = nullptr;
    Agedge_t *(*edge)(Agraph_t *, Agnode_t *, Agnode_t *, char *, int) = nullptr;
    int (*safeSet)(void *, char *, char *, char *) = nullptr;
    std::string error;   // why it could not be loaded; empty once it is
};

template <typename F>
void take(void *library, const char *name, F *&slot, std::string &missing)
{
    slot = reinterpret_cast<F *>(dlsym(library, name));
    if (!slot)
        missing += std::string(missing.empty() ? "" : ", ") + name;
}

Graphviz load()
{
    Graphviz g;
    // libcgraph comes with it, as its needed library, and the lookups below find its calls there.
    void *library = qflame::openOnDemand(QFLAME_GVC_LIBDIR, "libgvc.so.6", &g.error);
    if (!library)
        return g;
    std::string missing;
    take(library, "gvContext", g.context, missing);
    take(library, "gvLayout", g.layout, missing);
    take(library, "gvFreeLayout", g.freeLayout, missing);
    take(library, "gvFreeContext", g.freeContext, missing);
    take(library, "agopen", g.open, missing);
    take(library, "agclose", g.close, missing);
    take(library, "agnode", g.node, missing);
    take(library, "agedge", g.edge, missing);
    take(library, "agsafeset", g.safeSet, missing);
    if (!missing.empty())
        g.error = "libgvc.so.6 lacks " + missing;
    return g;
}

// Loaded once, by the first layout (GraphLayout holds Graphviz's lock around each); later ones find it loaded.
const Graphviz &graphviz()
{
    static const Graphviz loaded = load();
    return loaded;
}

}   // namespace

// GraphLayout::compute calls gvContext first: a library that cannot be loaded fails that layout with one line
// (the CLI prints it and exits 2, the graph view shows it) and nothing else.
extern "C" GVC_t *gvContext()
{
    const Graphviz &g = graphviz();
    if (!g.error.empty())
        throw std::runtime_error("cannot load Graphviz, the call graph's layout library (" + g.error + ")");
    return g.context();
}

extern "C" int gvLayout(GVC_t *gvc, graph_t *g, const char *engine)
{
    return graphviz().layout(gvc, g, engine);
}

extern "C" int gvFreeLayout(GVC_t *gvc, graph_t *g)
{
    return graphviz().freeLayout(gvc, g);
}

extern "C" int gvFreeContext(GVC_t *gvc)
{
    return graphviz().freeContext(gvc);
}

extern "C" Agraph_t *agopen(char *name, Agdesc_t desc, Agdisc_t *disc)
{
    return graphviz().open(name, desc, disc);
}

extern "C" int agclose(Agraph_t *g)
{
    return graphviz().close(g);
}

extern "C" Agnode_t *agnode(Agraph_t *g, char *name, int createflag)
{
    return graphviz().node(g, name, createflag);
}

extern "C" Agedge_t *agedge(Agraph_t *g, Agnode_t *t, Agnode_t *h, char *name, int createflag)
{
    return graphviz().edge(g, t, h, name, createflag);
}

extern "C" int agsafeset(void *obj, char *name, char *value, char *def)
{
    return graphviz().safeSet(obj, name, value, def);
}
