#include "source/FunctionSource.h"

#include "io/ReadOptions.h"
#include "pprof/SampleTypes.h"
#include "tree/PprofRegex.h"


namespace qflame {

Regex exactFunction(const std::string &function)
{
    return Regex("^" + regexEscaped(function) + "$");
}

SourceFinder sourceFinderFor(const SourcePaths &paths, const std::vector<std::shared_ptr<const Profile>> &profiles)
{
    SourceFinder finder(paths);
    std::vector<std::string> files;
    for (const auto &p : profiles)
        for (const Function &f : p->functions)
            files.emplace_back(p->str(f.filename));
    finder.learnProfileGoroot(files);
    return finder;
}

LineCosts lineCostsFor(const std::vector<std::shared_ptr<const Profile>> &profiles, size_t type,
                       const Regex &functions, const SourceFinder &finder)
{
    return computeLineCosts(profiles, type, functions,
                            [&finder](const std::string &p) { return finder.displayPath(p); });
}

FunctionSource listFunction(const std::vector<std::shared_ptr<const Profile>> &profiles, size_t type,
                            const std::string &function, const SourcePaths &paths)
{
    FunctionSource out;
    try {
        SourceFinder finder = sourceFinderFor(paths, profiles);
        out.listing = std::make_shared<SourceListing>(
            listSource(lineCostsFor(profiles, type, exactFunction(function), finder), finder));
    } catch (const std::exception &e) {
        out.error = QString::fromUtf8(e.what());
    }
    return out;
}

SourceListing diffListing(const std::vector<std::shared_ptr<const Profile>> &before,
                          const std::vector<std::shared_ptr<const Profile>> &after, size_t type,
                          const Regex &functions, SourceFinder &finder, double noiseK)
{
    const Profile &first = *before.front(), &next = *after.front();
    const int afterType = findExactSampleType(next, first.typeName(type), first.unitName(type));
    if (afterType < 0)
        throw ProfileError(next.sourceName + ": no " + first.typeName(type) + "/" + first.unitName(type) +
                           " sample type, which " + first.sourceName + " is listed in");
    const LineCosts b = lineCostsFor(before, type, functions, finder);
    const LineCosts a = lineCostsFor(after, size_t(afterType), functions, finder);
    LineNoise noise;
    noise.k = noiseK;
    LineCosts beforeCounts, afterCounts;
    const int bc = findExactSampleType(first, "samples", "count"), ac = findExactSampleType(next, "samples", "count");
    if (bc >= 0 && ac >= 0) {
        beforeCounts = lineCostsFor(before, size_t(bc), functions, finder);
        afterCounts = lineCostsFor(after, size_t(ac), functions, finder);
        noise.beforeCounts = &beforeCounts;
        noise.afterCounts = &afterCounts;
    }
    return listSourceDiff(b, a, finder, noise);
}

FunctionSource listFunctionDiff(const std::vector<std::shared_ptr<const Profile>> &before,
                                const std::vector<std::shared_ptr<const Profile>> &after, size_t type,
                                const std::string &function, const SourcePaths &paths, double noiseK)
{
    FunctionSource out;
    try {
        std::vector<std::shared_ptr<const Profile>> both = before;
        both.insert(both.end(), after.begin(), after.end());
        SourceFinder finder = sourceFinderFor(paths, both);
        out.listing = std::make_shared<SourceListing>(
            diffListing(before, after, type, exactFunction(function), finder, noiseK));
    } catch (const std::exception &e) {
        out.error = QString::fromUtf8(e.what());
    }
    return out;
}

}   // namespace qflame
