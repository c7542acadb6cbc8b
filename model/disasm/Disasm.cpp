#include "disasm/Disasm.h"

#include "io/ReadOptions.h"
#include "names/Demangle.h"
#include "pprof/SampleTypes.h"
#include "tree/PprofRegex.h"

#include <algorithm>
#include <map>
#include <set>

namespace qflame {

namespace {

struct Picked {
    BinaryInfo binary;
    AddressNode mapping;       // its objfile, build id, start and offset
    bool fileOffsets = false;  // the addresses are offsets in the file (perf script's, without a mapping range)
};

// pprof's ObjFile.ObjAddr: a relocated binary's (PIE, shared library) runtime address back to its file's. A
// mapping without a range (perf script names only the DSO) whose addresses fall in the executable segments'
// file offsets rather than their addresses has printed offsets: they are taken to the addresses they load at.
uint64_t objAddress(const Picked &pick, uint64_t address)
{
    if (pick.binary.sharedObject && pick.mapping.memoryStart != 0)
        return address - pick.mapping.memoryStart + pick.mapping.fileOffset;
    if (pick.fileOffsets)
        return pick.binary.offsetToAddress(address);
    return address;
}

bool printsFileOffsets(const AddressCosts &costs, const Picked &pick)
{
    if (pick.mapping.memoryStart != 0)
        return false;
    size_t offsets = 0, addresses = 0;
    for (const AddressNode &n : costs.nodes) {
        if (n.objfile != pick.mapping.objfile)
            continue;
        offsets += pick.binary.inExecutableOffsets(n.address);
        addresses += pick.binary.inExecutableAddresses(n.address);
    }
    return offsets > addresses;
}

// The mappings with a node the regex matches, each with its binary; the explicit file goes to the one of most cum.
std::vector<Picked> pickBinaries(const AddressCosts &costs, const Regex &functions,
                                 const BinarySearch &search, std::vector<std::string> &errors)
{
    std::map<std::string, int64_t> cumOf;
    std::map<std::string, const AddressNode *> first;
    for (const AddressNode &n : costs.nodes) {
        if (n.objfile.empty() && search.explicitPath.empty())
            continue;
        if (!pprofMatch(functions, n.printableName()))
            continue;
        cumOf[n.objfile] = wrappingAdd(cumOf[n.objfile], n.cum);
        first.try_emplace(n.objfile, &n);
    }
    std::string main;
    int64_t best = -1;
    for (const auto &[file, cum] : cumOf)
        if (cum > best)
            best = cum, main = file;
    std::vector<Picked> out;
    for (const auto &[file, node] : first) {
        BinarySearch s = search;
        if (file != main && !s.explicitPath.empty()) {
            s.folders.push_back(s.explicitPath);   // a folder still searched; a file belongs to the main mapping
            s.explicitPath.clear();
        }
        try {
            out.push_back({locateBinary(file, node->buildId, s), *node});
            out.back().fileOffsets = printsFileOffsets(costs, out.back());
        } catch (const ProfileError &e) {
            errors.push_back(e.what());
        }
    }
    return out;
}

}   // namespace

std::string matchSymbol(const Symbol &symbol, const Regex &functions)
{
    for (const std::string &name : symbol.names) {
        if (pprofMatch(functions, name))
            return name;
        if (!looksMangled(name))
            continue;
        for (DemangleMode mode : {DemangleMode::Full, DemangleMode::Templates, DemangleMode::Simple})
            if (auto d = demangledName(name, mode); d && pprofMatch(functions, *d))
                return *d;
    }
    return {};
}

Disassembly disassembleProfiles(const std::vector<std::shared_ptr<const Profile>> &profiles, size_t sampleType,
                                const Regex &functions, const BinarySearch &search,
                                const std::string &regexText, Disassembler disassembler)
{
    Disassembly out;
    if (profiles.empty())
        return out;
    const Profile &first = *profiles.front();
    const AddressCosts costs = computeAddressCosts(profiles, first.typeName(sampleType), first.unitName(sampleType));
    out.sampleType = costs.sampleType;
    out.unit = costs.unit;
    out.total = costs.total;
    AddressCosts counts;
    out.countsKnown = std::all_of(profiles.begin(), profiles.end(), [](const auto &p) {
        return findExactSampleType(*p, "samples", "count") >= 0;
    });
    if (out.countsKnown)
        counts = computeAddressCosts(profiles, "samples", "count");

    std::vector<std::string> errors;
    const std::vector<Picked> picked = pickBinaries(costs, functions, search, errors);
    for (const Picked &pick : picked) {
        const std::vector<Symbol> symbols = readSymbols(pick.binary);
        for (const Symbol &sym : symbols) {
            const std::string name = matchSymbol(sym, functions);
            if (name.empty())
                continue;
            // pprof's nodesPerSymbol: every node whose object address is in [start, end - 1).
            auto inside = [&](const AddressNode &n) {
                const uint64_t a = objAddress(pick, n.address);
                return a >= sym.start && a + 1 < sym.end;
            };
            std::vector<std::pair<uint64_t, const AddressNode *>> nodes, countNodes;
            for (const AddressNode &n : costs.nodes)
                if (inside(n))
                    nodes.emplace_back(objAddress(pick, n.address), &n);
            if (nodes.empty())
                continue;
            for (const AddressNode &n : counts.nodes)
                if (inside(n))
                    countNodes.emplace_back(objAddress(pick, n.address), &n);
            DisasmRoutine r;
            r.name = name;
            r.binary = pick.binary.path;
            r.start = sym.start;
            r.end = sym.end;
            for (Instruction &in : disassemble(pick.binary, sym.start, sym.end, disassembler)) {
                classifyBranch(in, sym.names.front(), sym.start);
                DisasmInstruction d;
                static_cast<Instruction &>(d) = std::move(in);
                r.instructions.push_back(std::move(d));
            }
            // pprof's annotateAssembly: the nodes (by address) up to the next instruction go to this one.
            auto annotate = [&r](std::vector<std::pair<uint64_t, const AddressNode *>> &ns, bool count) {
                std::stable_sort(ns.begin(), ns.end(), [](const auto &a, const auto &b) { return a.first < b.first; });
                size_t s = 0;
                for (size_t i = 0; i < r.instructions.size(); ++i) {
                    const uint64_t next = i + 1 < r.instructions.size() ? r.instructions[i + 1].address : UINT64_MAX;
                    DisasmInstruction &in = r.instructions[i];
                    for (; s < ns.size() && ns[s].first < next; ++s) {
                        const AddressNode &n = *ns[s].second;
                        if (count) {
                            in.countCum = wrappingAdd(in.countCum, n.cum);
                            continue;
                        }
                        in.flat = wrappingAdd(in.flat, n.flat);
                        in.cum = wrappingAdd(in.cum, n.cum);
                        if (in.file.empty() && !n.file.empty())
                            in.file = n.file;
                        if (in.line == 0 && n.line != 0)
                            in.line = n.line;
                        if (in.function.empty() && !n.function.empty())
                            in.function = n.function;
                    }
                }
            };
            annotate(nodes, false);
            annotate(countNodes, true);
            for (const DisasmInstruction &in : r.instructions) {
                r.flat = wrappingAdd(r.flat, in.flat);
                r.cum = wrappingAdd(r.cum, in.cum);
            }
            r.jumps = jumpArrows(r.instructions);
            out.routines.push_back(std::move(r));
        }
    }
    if (out.routines.empty()) {
        if (!errors.empty())
            throw ProfileError(errors.front());
        throw ProfileError("no matches found for regexp: " + regexText);   // pprof's words
    }
    out.warnings = errors;
    std::stable_sort(out.routines.begin(), out.routines.end(), [](const DisasmRoutine &a, const DisasmRoutine &b) {
        return a.name != b.name ? a.name < b.name : a.start < b.start;
    });
    return out;
}

}   // namespace qflame
