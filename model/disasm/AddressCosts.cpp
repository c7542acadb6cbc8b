#include "disasm/AddressCosts.h"

#include "io/ReadOptions.h"
#include "pprof/SampleTypes.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <tuple>

namespace qflame {

std::string AddressNode::printableName() const
{
    std::string out;
    auto add = [&out](const std::string &s) {
        if (!out.empty())
            out += ' ';
        out += s;
    };
    if (address != 0) {
        char hex[24];
        std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(address));
        add(hex);
    }
    if (!function.empty())
        add(function);
    if (line != 0)
        add(file + ":" + std::to_string(line));
    else if (!file.empty())
        add(file);
    else if (function.empty())
        add(objfile.empty() ? std::string("<unknown>") : "[" + objfile.substr(objfile.rfind('/') + 1) + "]");
    return out;
}

AddressCosts computeAddressCosts(const std::vector<std::shared_ptr<const Profile>> &profiles,
                                 const std::string &sampleType, const std::string &unit)
{
    AddressCosts out;
    out.sampleType = sampleType;
    out.unit = unit;
    using Key = std::tuple<std::string, uint64_t, std::string, std::string, int64_t>;
    std::map<Key, size_t> ids;
    std::vector<uint32_t> stack;
    for (const auto &pp : profiles) {
        const Profile &p = *pp;
        const int t = findExactSampleType(p, sampleType, unit);
        if (t < 0)
            throw ProfileError(p.sourceName + ": no " + sampleType + "/" + unit + " sample type");
        // Per location its node.
        std::vector<uint32_t> nodeOf(p.locations.size());
        for (size_t l = 0; l < p.locations.size(); ++l) {
            const Location &loc = p.locations[l];
            AddressNode n;
            if (loc.mapping != kNone) {
                const Mapping &m = p.mappings[loc.mapping];
                n.objfile = std::string(p.str(m.file));
                n.buildId = std::string(p.str(m.buildId));
                n.memoryStart = m.memoryStart;
                n.fileOffset = m.fileOffset;
            }
            n.address = loc.address;
            if (loc.lineCount > 0) {
                const Line &outer = p.lines[loc.firstLine + loc.lineCount - 1];
                if (outer.function != kNone) {
                    n.function = std::string(p.str(p.functions[outer.function].name));
                    n.file = std::string(p.str(p.functions[outer.function].filename));
                }
                n.line = outer.line;
            }
            const Key key{n.objfile, n.address, n.function, n.file, n.line};
            auto [it, added] = ids.try_emplace(key, out.nodes.size());
            if (added)
                out.nodes.push_back(std::move(n));
            nodeOf[l] = uint32_t(it->second);
        }
        for (size_t s = 0; s < p.sampleCount(); ++s) {
            const int64_t w = p.value(s, size_t(t));
            out.total = wrappingAdd(out.total, w < 0 ? int64_t(0 - uint64_t(w)) : w);
            const uint64_t begin = p.sampleLocBegin[s], end = p.sampleLocBegin[s + 1];
            if (w == 0 || begin == end)
                continue;
            stack.clear();
            for (uint64_t k = begin; k < end; ++k)
                stack.push_back(nodeOf[p.sampleLocations[k]]);
            AddressNode &leaf = out.nodes[nodeOf[p.sampleLocations[begin]]];
            leaf.flat = wrappingAdd(leaf.flat, w);
            std::sort(stack.begin(), stack.end());
            stack.erase(std::unique(stack.begin(), stack.end()), stack.end());
            for (uint32_t n : stack)
                out.nodes[n].cum = wrappingAdd(out.nodes[n].cum, w);
        }
    }
    out.nodes.erase(std::remove_if(out.nodes.begin(), out.nodes.end(),
                                   [](const AddressNode &n) { return n.flat == 0 && n.cum == 0; }),
                    out.nodes.end());
    std::stable_sort(out.nodes.begin(), out.nodes.end(),
                     [](const AddressNode &a, const AddressNode &b) { return a.address < b.address; });
    return out;
}

}   // namespace qflame
