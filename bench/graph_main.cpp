// Times the call graph of a profile at N nodes: building it (model/graph/CallGraph) and laying it out with
// Graphviz (GraphLayout), the median of 3 runs each. Usage: qflame-bench-graph FILE [NODES]. The target:
// a 2,000-node graph laid out within 1 s. Further arguments NAME=VALUE are Graphviz graph attributes set for the
// layout (splines=line, nslimit=0.05, ...), to try dot's knobs.
#include "formats/ProfileInput.h"
#include "graph/GraphLayout.h"

#include <QCoreApplication>
#include <QElapsedTimer>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

using namespace qflame;

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    if (argc < 2) {
        std::fprintf(stderr, "usage: qflame-bench-graph FILE [NODES]\n");
        return 1;
    }
    std::vector<std::pair<std::string, std::string>> attributes;
    for (int i = 3; i < argc; ++i) {
        const std::string a = argv[i];
        const size_t eq = a.find('=');
        if (eq != std::string::npos)
            attributes.emplace_back(a.substr(0, eq), a.substr(eq + 1));
    }
    const auto profile = readProfileFile(std::string(argv[1]), {});
    GraphOptions options;
    options.nodeCount = argc > 2 ? std::atoll(argv[2]) : 2000;
    options.nodeFraction = 0;
    options.edgeFraction = 0;
    std::vector<double> build, layout;
    std::shared_ptr<const CallGraph> graph;
    for (int run = 0; run < 3; ++run) {
        QElapsedTimer t;
        t.start();
        graph = CallGraph::build({profile}, size_t(profile->effectiveDefaultType()), {}, options);
        build.push_back(double(t.nsecsElapsed()) / 1e6);
        t.start();
        const auto laid = GraphLayout::compute(graph, attributes);
        layout.push_back(double(t.nsecsElapsed()) / 1e6);
    }
    std::sort(build.begin(), build.end());
    std::sort(layout.begin(), layout.end());
    std::printf("%s: %zu nodes, %zu edges; build %.1f ms, layout %.1f ms (medians of 3)\n", argv[1],
                graph->nodes().size(), graph->edges().size(), build[1], layout[1]);
    return 0;
}
