#include "tree/ProfileFrames.h"

#include "io/Regex.h"

#include <string>
#include <string_view>

namespace qflame::detail {

namespace {

// pprof strips argument lists before matching drop_frames: cut at the first '(' that does not start one of
// the reserved names that contain a bracket (profile.Prune).
std::string withoutArguments(std::string name)
{
    if (!name.empty() && name.front() == '.')   // leading '.' of the PPC ELF v1 ABI
        name.erase(0, 1);
    static const std::string_view reserved[] = {"(anonymous namespace)", "operator()"};
    for (size_t i = 0; i < name.size(); ++i) {
        bool skipped = false;
        for (std::string_view r : reserved)
            if (std::string_view(name).substr(i, r.size()) == r) {
                i += r.size() - 1;
                skipped = true;
                break;
            }
        if (!skipped && name[i] == '(')
            return name.substr(0, i);
    }
    return name;
}

Pruning computePruning(const Profile &p)
{
    Pruning r;
    if (p.dropFrames == 0 || p.str(p.dropFrames).empty())
        return r;
    const Regex drop("^(" + std::string(p.str(p.dropFrames)) + ")$");
    if (!drop.isValid())
        throw ProfileError(p.sourceName + ": drop_frames is not a valid regular expression: " + drop.errorString());
    Regex keep;
    const bool hasKeep = p.keepFrames != 0 && !p.str(p.keepFrames).empty();
    if (hasKeep) {
        keep = Regex("^(" + std::string(p.str(p.keepFrames)) + ")$");
        if (!keep.isValid())
            throw ProfileError(p.sourceName + ": keep_frames is not a valid regular expression: " + keep.errorString());
    }
    r.active = true;
    std::vector<int8_t> fnDropped(p.functions.size(), -1);
    auto dropped = [&](uint32_t fn) {
        if (fnDropped[fn] < 0) {
            const std::string_view name = p.str(p.functions[fn].name);
            bool d = false;
            if (!name.empty()) {
                const std::string n = withoutArguments(std::string(name));
                d = drop.matches(n) && !(hasKeep && keep.matches(n));
            }
            fnDropped[fn] = d;
        }
        return fnDropped[fn] == 1;
    };
    r.skipLines.assign(p.locations.size(), 0);
    r.prune.assign(p.locations.size(), 0);
    r.pruneBeneath.assign(p.locations.size(), 0);
    for (size_t l = 0; l < p.locations.size(); ++l) {
        const Location &loc = p.locations[l];
        // Scan from the outermost line (the caller) inwards, like pprof.
        for (int i = int(loc.lineCount) - 1; i >= 0; --i) {
            if (!dropped(p.lines[loc.firstLine + uint32_t(i)].function))
                continue;
            r.pruneBeneath[l] = 1;
            if (i == int(loc.lineCount) - 1)
                r.prune[l] = 1;
            else
                r.skipLines[l] = uint32_t(i + 1);
            break;
        }
    }
    return r;
}

}   // namespace

ProfileFrames::ProfileFrames(const Profile &profile, const CompiledFilters &filters,
                             const BuildOptions &options, FrameTable &frames)
    : p(profile), pruning(computePruning(profile))
{
    if (filters.filtersSamples())
        filter.emplace(filters, p, pruning.skipLines);
    // Most profiles have about one frame and one name per function: room for them at once saves copying the
    // tables as they grow (0.36 of the 1.9 ms of making the frames of pprof__large.cpu's 23,038 functions).
    frames.reserveMore(p.functions.size());
    StringPool &pool = frames.strings();
    std::vector<StrId> strMap(p.strings.size(), 0);
    auto g = [&](uint32_t local) {
        if (local != 0 && strMap[local] == 0)
            strMap[local] = pool.intern(p.strings[local]);
        return strMap[local];
    };
    // Frames of every location once, outermost (caller) first, the order samples are walked in. A location
    // hidden by the filters has none, so walking a sample skips it.
    // The object file pprof names frames without a function after (none for remote-source placeholders).
    std::vector<StrId> objfiles(p.mappings.size(), 0);
    for (uint32_t m = 0; m < p.mappings.size(); ++m)
        if (!filterMappingFile(p, m).empty())
            objfiles[m] = g(p.mappings[m].file);
    locBegin.assign(p.locations.size() + 1, 0);
    locFrames.reserve(p.lines.size() + p.locations.size());
    for (size_t l = 0; l < p.locations.size(); ++l) {
        const Location &loc = p.locations[l];
        locBegin[l] = uint32_t(locFrames.size());
        if (filter && filter->locationHidden(uint32_t(l)))
            continue;
        const Mapping *m = loc.mapping == kNone ? nullptr : &p.mappings[loc.mapping];
        const StrId objfile = m ? objfiles[loc.mapping] : 0;
        Frame extras;
        extras.mappingFile = m ? g(m->file) : 0;
        extras.buildId = m ? g(m->buildId) : 0;
        const uint64_t address = options.granularity == Granularity::Addresses ? loc.address : 0;
        const uint32_t skip = pruning.active ? pruning.skipLines[l] : 0;
        if (loc.lineCount <= skip) {
            FrameKey key;
            key.address = address;
            key.objfile = objfile;
            locFrames.push_back(frames.intern(key, extras));
            locKinds.push_back(CallTree::kCalled);
            continue;
        }
        uint8_t kind = CallTree::kCalled;
        for (int i = int(loc.lineCount) - 1; i >= int(skip); --i) {
            if (filter && !filter->lineKept(loc.firstLine + uint32_t(i)))
                continue;
            const Line &ln = p.lines[loc.firstLine + uint32_t(i)];
            const Function &fn = p.functions[ln.function];
            FrameKey key;
            key.address = address;
            key.name = g(fn.name);
            if (options.granularity != Granularity::Functions) {
                key.line = ln.line;
                if (fn.filename != 0 && !p.str(fn.filename).empty())
                    key.file = pool.intern(cleanPath(p.str(fn.filename)));
            }
            if (key.name == 0) {
                key.objfile = objfile;
                key.startLine = fn.startLine;
            }
            extras.sourceFile = g(fn.filename);
            extras.systemName = g(fn.systemName);
            locFrames.push_back(frames.intern(key, extras));
            locKinds.push_back(kind);
            kind = CallTree::kInlined;
        }
    }
    locBegin[p.locations.size()] = uint32_t(locFrames.size());
}

int mergedType(const Profile &first, size_t typeIndex, const Profile &p)
{
    if (&p == &first)
        return int(typeIndex);
    const std::string name = first.typeName(typeIndex) + "/" + first.unitName(typeIndex);
    const int type = p.findSampleType(name);
    if (type < 0)
        throw ProfileError(p.sourceName + ": has no sample type " + name + " to merge with " + first.sourceName);
    return type;
}

void checkInputs(const std::vector<std::shared_ptr<const Profile>> &profiles, size_t typeIndex)
{
    if (profiles.empty())
        throw ProfileError("no profile to build a call tree from");
    const Profile &first = *profiles.front();
    if (typeIndex >= first.sampleTypes.size())
        throw ProfileError(first.sourceName + ": the profile has no sample type #" + std::to_string(typeIndex));
}

}   // namespace qflame::detail
