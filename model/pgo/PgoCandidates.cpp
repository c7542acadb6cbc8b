#include "pgo/PgoCandidates.h"

#include <algorithm>
#include <map>
#include <utility>

namespace qflame {

std::vector<PgoCallSite> devirtualisationCandidates(const PgoEdges &edges)
{
    std::map<std::pair<std::string, int64_t>, PgoCallSite> sites;
    // The edges come weight descending, then by callee name, so a site's first edge is its heaviest callee.
    for (const PgoEdge &e : edges.edges) {
        PgoCallSite &site = sites[{e.caller, e.offset}];
        if (site.callees++ == 0) {
            site.caller = e.caller, site.offset = e.offset;
            site.heaviest = e.callee, site.heaviestWeight = e.weight;
        }
        site.siteWeight = wrappingAdd(site.siteWeight, e.weight);
    }
    std::vector<PgoCallSite> result;
    for (auto &[key, site] : sites) {
        if (site.callees < 2)
            continue;
        site.siteShare = pgoPercent(site.heaviestWeight, site.siteWeight);
        site.totalShare = pgoPercent(site.heaviestWeight, edges.totalWeight);
        result.push_back(std::move(site));
    }
    // The map's order is (caller, offset) already.
    std::stable_sort(result.begin(), result.end(),
                     [](const PgoCallSite &a, const PgoCallSite &b) { return a.heaviestWeight > b.heaviestWeight; });
    return result;
}

}   // namespace qflame
