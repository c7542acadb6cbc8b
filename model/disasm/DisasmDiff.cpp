#include "disasm/DisasmDiff.h"

#include <map>
#include <tuple>

namespace qflame {

namespace {

// Two builds are often made in different folders (CI checkouts): a source line is its file's base name and number.
std::string baseName(const std::string &path)
{
    const size_t slash = path.rfind('/');
    return slash == std::string::npos ? path : path.substr(slash + 1);
}

}   // namespace

DisasmDiff diffDisassembly(const Disassembly &before, const Disassembly &after, double noiseK)
{
    DisasmDiff out;
    out.sampleType = before.sampleType;
    out.unit = before.unit;
    out.beforeTotal = before.total;
    out.afterTotal = after.total;
    out.countsKnown = before.countsKnown && after.countsKnown;
    out.noiseK = noiseK;
    using Key = std::tuple<std::string, std::string, int64_t, std::string>;   // routine, file, line, function
    std::map<Key, DisasmGroup> groups;
    std::map<Key, std::pair<int64_t, int64_t>> counts;
    auto add = [&](const Disassembly &d, bool isAfter) {
        for (const DisasmRoutine &r : d.routines)
            for (const DisasmInstruction &in : r.instructions) {
                const Key key{r.name, baseName(in.file), in.line, in.function};
                DisasmGroup &g = groups[key];
                g.routine = r.name, g.function = in.function, g.line = in.line;
                if (g.file.empty())
                    g.file = in.file;   // the baseline's path where it has the line
                auto &c = counts[key];
                if (isAfter) {
                    g.afterFlat = wrappingAdd(g.afterFlat, in.flat), g.afterCum = wrappingAdd(g.afterCum, in.cum);
                    c.second = wrappingAdd(c.second, in.countCum);
                    g.after.push_back(in);
                } else {
                    g.beforeFlat = wrappingAdd(g.beforeFlat, in.flat), g.beforeCum = wrappingAdd(g.beforeCum, in.cum);
                    c.first = wrappingAdd(c.first, in.countCum);
                    g.before.push_back(in);
                }
            }
    };
    add(before, false);
    add(after, true);
    for (auto &[key, g] : groups) {
        const auto &[beforeCount, afterCount] = counts[key];
        if (out.countsKnown)
            g.standardError = deltaStandardError(double(g.beforeCum), double(beforeCount), double(g.afterCum),
                                                 double(afterCount));
        g.cls = classifyDelta(!g.before.empty() && g.beforeCum != 0, !g.after.empty() && g.afterCum != 0,
                              double(g.afterCum) - double(g.beforeCum), g.standardError, noiseK);
        g.sameCode = g.before.size() == g.after.size();
        for (size_t i = 0; g.sameCode && i < g.before.size(); ++i)
            g.sameCode = codeKey(g.before[i]) == codeKey(g.after[i]);
        for (size_t i = 0; g.sameCode && i < g.before.size(); ++i) {
            const DisasmInstruction &b = g.before[i], &a = g.after[i];
            InstructionDelta p;
            p.flatDelta = wrappingAdd(a.flat, -b.flat);
            p.cumDelta = wrappingAdd(a.cum, -b.cum);
            if (out.countsKnown)
                p.standardError = deltaStandardError(double(b.cum), double(b.countCum), double(a.cum), double(a.countCum));
            p.cls = classifyDelta(b.cum != 0, a.cum != 0, double(a.cum) - double(b.cum), p.standardError, noiseK);
            g.paired.push_back(p);
        }
        out.groups.push_back(std::move(g));
    }
    return out;
}

}   // namespace qflame

namespace qflame {

namespace {

// A C++ name without its parameter list (and const): objdump -C says "g(long)", a profile may say "g".
std::string withoutParameters(const std::string &name)
{
    std::string s = name;
    if (s.size() > 6 && s.compare(s.size() - 6, 6, " const") == 0)
        s.erase(s.size() - 6);
    if (s.empty() || s.back() != ')')
        return s;
    int depth = 0;
    for (size_t i = s.size(); i-- > 0;) {
        depth += s[i] == ')' ? 1 : s[i] == '(' ? -1 : 0;
        if (depth == 0)
            return i > 0 ? s.substr(0, i) : s;
    }
    return s;
}

}   // namespace

void markInliningChanges(DisasmDiff &diff, const InliningChanges &changes)
{
    std::map<std::pair<std::string, std::string>, InliningChange::Kind> byPair;
    for (const InliningChange &c : changes.inlining)
        if (c.kind == InliningChange::Kind::BecameInlined || c.kind == InliningChange::Kind::PartlyInlined)
            byPair.emplace(std::pair{withoutParameters(c.caller), withoutParameters(c.callee)}, c.kind);
    for (DisasmGroup &g : diff.groups) {
        g.inlinedCalls.clear();
        g.inlinedHere = -1;
        const std::string caller = withoutParameters(g.function.empty() ? g.routine : g.function);
        for (size_t i = 0; i < g.before.size(); ++i) {
            const DisasmInstruction &in = g.before[i];
            if (in.branch != Instruction::Branch::Call || in.callee.empty())
                continue;
            if (const auto it = byPair.find({caller, withoutParameters(in.callee)}); it != byPair.end())
                g.inlinedCalls.push_back({i, in.callee, it->second});
        }
        if (!g.after.empty() && !g.function.empty() && g.function != g.routine)
            if (const auto it = byPair.find({withoutParameters(g.routine), withoutParameters(g.function)});
                it != byPair.end())
                g.inlinedHere = int(it->second);
    }
}

}   // namespace qflame
